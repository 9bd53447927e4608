package games_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"tapis/bot"
	"tapis/game"
	"tapis/game/gametest"
	"tapis/games"
	"tapis/rating"
)

// registeredAndToy is every registered game, and the toy game of
// toy_test.go, registered the way docs/games.md says a new game is: what
// holds for the toy holds for a fifth game.
func registeredAndToy() []game.Game { return append(games.All(), toy{}) }

// TestContract runs the conformance suite over every registered game,
// with each game's Trials: no game opts in by itself.
func TestContract(t *testing.T) {
	for _, g := range registeredAndToy() {
		t.Run(g.Name(), func(t *testing.T) {
			t.Parallel()
			e := entry(t, g)
			for _, tr := range e.Trials {
				gametest.Suite{Games: suiteGames(tr.Games)}.Run(t, g, tr.Configs)
			}
		})
	}
}

// suiteGames is how many random games the suite plays a config of a
// trial that asks for games (0: the suite's default). Under -race a
// third: the race phase looks for data races, which a few games find as
// well as many (the run without -race plays them all); the suite's -short
// division still applies, and every config, check and sample is still
// played.
func suiteGames(games int) int {
	if !raceDetector {
		return games
	}
	if games == 0 {
		games = 300 // gametest.Suite's default
	}
	return games / 3
}

// TestRefusals sends every registered game's illegal moves, spoiled
// moves and bad configurations (gametest.Refusals): each refusal must be a
// game.Refusal with a reason the game registers, so that clients can word
// it from their dictionaries.
func TestRefusals(t *testing.T) {
	for _, g := range registeredAndToy() {
		t.Run(g.Name(), func(t *testing.T) {
			t.Parallel()
			e := entry(t, g)
			var cfgs []game.Config
			for _, tr := range e.Trials {
				cfgs = append(cfgs, tr.Configs...)
			}
			gametest.Refusals(t, g, e.Reasons, cfgs)
		})
	}
}

// TestProperty runs the suite's property check over every registered
// game's tables.
func TestProperty(t *testing.T) {
	for _, g := range registeredAndToy() {
		t.Run(g.Name(), func(t *testing.T) {
			t.Parallel()
			var cfgs []game.Config
			for _, tr := range entry(t, g).Trials {
				cfgs = append(cfgs, tr.Configs...)
			}
			gametest.Property(t, g, cfgs)
		})
	}
}

// Every game registers all Tapis needs of it: an engine named as listed,
// tables for the suite covering every size, bots' budgets that bot plays
// with, an anchor for every rated level, and what the client draws.
func TestEntries(t *testing.T) {
	names := map[string]bool{}
	for _, g := range registeredAndToy() {
		e := entry(t, g)
		name := g.Name()
		if names[name] {
			t.Fatalf("%s is registered twice", name)
		}
		names[name] = true
		if e.Game == nil || e.Game.Name() != name {
			t.Fatalf("%s: Entry's Game is %v", name, e.Game)
		}
		lo, hi := g.Players()
		sizes := map[int]bool{}
		for _, tr := range e.Trials {
			for _, c := range tr.Configs {
				sizes[c.Players] = true
			}
		}
		for n := lo; n <= hi; n++ {
			if !sizes[n] {
				t.Errorf("%s: the suite's tables skip %d players", name, n)
			}
		}
		if len(e.Reasons) == 0 {
			t.Errorf("%s: no reasons: its refusals could not be translated", name)
		}
		if l := e.Levels; l.Normal < 1 || l.Hard < l.Normal || bot.Budgets(g) != l {
			t.Errorf("%s: levels %+v, bot plays with %+v", name, l, bot.Budgets(g))
		}
		for _, l := range rating.Levels {
			if _, ok := e.Anchors[l]; !ok {
				t.Errorf("%s: no anchor for %s", name, l)
			}
		}
		if e.Look.Title == "" || (e.Look.Scoring != "" && e.Look.Scoring != "low" && e.Look.Scoring != "high") ||
			(e.Look.Round != "round" && e.Look.Round != "game") {
			t.Errorf("%s: look %+v", name, e.Look)
		}
		// A screen of its own is a module of the web client that exports
		// the function the client calls (registry.js's screenFor).
		if e.Look.Screen != "" {
			src, err := os.ReadFile(filepath.Join("..", "web", "static", e.Look.Screen))
			if err != nil || !strings.Contains(string(src), "export function "+name+"UI(") {
				t.Errorf("%s: screen %s does not export %sUI (%v)", name, e.Look.Screen, name, err)
			}
		}
	}
	// The registered games' anchors are the ones rating rates with.
	for _, e := range games.Entries() {
		for l, mu := range e.Anchors {
			if a, ok := rating.Anchor(e.Game.Name(), l); !ok || a.Mu != mu {
				t.Errorf("%s %s: rating's anchor %+v %v, registered %v", e.Game.Name(), l, a, ok, mu)
			}
		}
	}
	if got := len(games.Entries()); got != 4 {
		t.Errorf("%d games registered, want the 4", got)
	}
}

// Only Cabo has a memory rule: its private looks lose their cards in the
// history a page gets back, its public events keep them.
func TestForget(t *testing.T) {
	for _, e := range games.Entries() {
		if (e.Forget != nil) != (e.Game.Name() == "cabo") {
			t.Errorf("%s: memory rule %v", e.Game.Name(), e.Forget != nil)
		}
	}
}

// The toy plays to the end with every bot level, at its registered
// budgets: a game registered is a game the bots play.
func TestToyPlaysWithBots(t *testing.T) {
	g := toy{}
	st, err := g.New(game.Config{Players: 3, Seed: 5})
	if err != nil {
		t.Fatal(err)
	}
	var players []game.Player
	for i, level := range []string{"random", "normal", "hard"} {
		p, err := bot.New(g, level, game.Seat(i), uint64(i))
		if err != nil {
			t.Fatal(err)
		}
		if s, ok := p.(*bot.Search); ok && s.Iterations != map[string]int{"normal": 20, "hard": 50}[level] {
			t.Fatalf("%s: %d iterations, not the registered budget", level, s.Iterations)
		}
		players = append(players, p)
	}
	if _, err := bot.Play(st, players, 1000); err != nil {
		t.Fatal(err)
	}
	if !st.Over() || len(st.Result().Winners) == 0 {
		t.Fatalf("over %v, result %+v", st.Over(), st.Result())
	}
}

func entry(t *testing.T, g game.Game) game.Entry {
	t.Helper()
	e, ok := game.EntryOf(g)
	if !ok {
		t.Fatalf("%s has no Entry", g.Name())
	}
	return e
}
