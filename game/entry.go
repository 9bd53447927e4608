package game

// Entry is everything Tapis knows about one game besides its rules, kept
// in one place, the game's own register.go, so that adding a game is one
// new folder and one line in games/games.go (docs/games.md). The server,
// the bots, the ratings and the web client read a game from its Entry;
// none of them names a game.
type Entry struct {
	// Game is the engine.
	Game Game
	// Levels are the search bots' budgets in this game (bot.LevelBudget).
	Levels Levels
	// Anchors are the bot levels' ratings' means, by level ("random",
	// "easy", "normal", "hard"), as rating.Anchor gives them. A game
	// without them is not rated against bots.
	Anchors map[string]float64
	// Forget, when not nil, is the game's memory rule: it takes out of an
	// event what a seat saw privately and must remember by itself, and
	// returns the event's data as the history of a reconnecting page may
	// give it back. A game with such a rule may be played with the memory
	// aid, which keeps the events whole.
	Forget func(Event) any
	// Look is what the web client needs to draw the game beyond its views.
	Look Look
	// Trials are the runs of the conformance suite (game/gametest) the
	// game must pass: every table size, and its options' variants.
	Trials []Trial
	// Reasons are every reason the game's refusals may give (Refusal),
	// shared ones included: clients translate each, docs/API.md lists
	// each, and gametest.Refusals holds the engine to them.
	Reasons []string
}

// Registered is a game that carries its Entry. Every game games.All
// lists is one, which the compiler checks.
type Registered interface {
	Game
	// Entry returns a fresh Entry: the caller may keep or change it.
	Entry() Entry
}

// EntryOf returns g's Entry, and false for a game that has none (a test's
// own game).
func EntryOf(g Game) (Entry, bool) {
	if r, ok := g.(Registered); ok {
		return r.Entry(), true
	}
	return Entry{}, false
}

// Levels are the fixed numbers of search iterations a move of the bots'
// levels "normal" and "hard" plays with (bot.Budget).
type Levels struct {
	Normal, Hard int
	// HardSeats, when set, is the largest table at which hard searches
	// Hard iterations: at n seats above it, Hard*HardSeats/n, since an
	// iteration's playout there costs about n/HardSeats times as much
	// (bot.Budget), and a hard move should cost about the same CPU at
	// every table size. 0: Hard at every size.
	HardSeats int
	// HardEarly, when set, is what hard searches instead of Hard at a
	// decision the game says a search may not determinize yet
	// (Determinable: Papayoo's pass), whose worth shows only many moves
	// later, so that telling its choices apart takes more samples.
	HardEarly int
}

// Look is what the web client needs to draw a game, as GET /api/games
// serves it beside the game's name, player range and options.
type Look struct {
	// Title is the game's name as people write it ("Da Capo!"), for a
	// language the client has no word for it in.
	Title string `json:"title"`
	// Scoring is "low" where the lowest score wins, "high" where the
	// highest does, and "" where neither is a rule (the winners say).
	Scoring string `json:"scoring"`
	// Round is what the score sheet calls one of its rows: "round", or
	// "game" where a match is made of whole games (Da Capo!).
	Round string `json:"round"`
	// Screen is the web client's module that draws the game's table
	// ("cabo.js", in web/static, exporting the function <name>UI), or ""
	// for the generic screen, which draws any game from its view and its
	// legal moves.
	Screen string `json:"screen"`
}

// Trial is one run of the conformance suite over configs.
type Trial struct {
	// Games is how many random games each config plays; 0 is the suite's
	// default.
	Games int
	// Configs are the tables tried (players and options; the suite sets
	// the seeds).
	Configs []Config
}

// Configs returns one default-options config per player count in [lo, hi].
func Configs(lo, hi int) []Config {
	var out []Config
	for n := lo; n <= hi; n++ {
		out = append(out, Config{Players: n})
	}
	return out
}
