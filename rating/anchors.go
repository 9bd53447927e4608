package rating

// The bots' ratings: each level of bot has a fixed rating per game, so
// that a game against bots rates a person against known anchors, and a
// profile can say which level a player plays like. A bot's rating never
// moves with the games people play against it (UpdateFixed).
//
// The means below were measured by bots playing each other:
//
//	tapis sim --ratings --game G --games N   (levels random,easy,normal@300,hard@1000; seed 1)
//
// on 2026-11-24, N = 100 games a game for Cabo, Papayoo and Limits and 60
// for Da Capo!, 4 players, the levels rotated round the table, every game's
// ranks (game.Result.Ranks) run through Update in order. The search levels
// played with iteration budgets (300 and 1,000 a move) rather than the
// server's time budgets (bot.NormalTime, bot.HardTime), which would have
// taken hours: on a server they search more and play at least this well,
// so their anchors err low; in Papayoo and Da Capo! the easy level (the
// heuristic) even beat them at those budgets. After that many games each
// level's Sigma was still 3.2 to 4.5 (5.3 for random), so neighbouring
// levels within a few points of Mu are not told apart; more games would
// sharpen them. The scale is the pool's: every level started at
// DefaultMu, as a new player does. Sigma itself is not kept: an anchor is
// stored with AnchorSigma.

// AnchorSigma is the Sigma an anchor is stored and rated with: small, so
// that it barely widens the people's updates, but not zero.
const AnchorSigma = 1.0

// Anchors is each game's bot levels' mean skill, by game and level.
var Anchors = map[string]map[string]float64{
	"cabo":    {"random": -11.94, "easy": 34.58, "normal": 35.10, "hard": 37.77},
	"papayoo": {"random": -13.45, "easy": 43.83, "normal": 29.54, "hard": 35.06},
	"limits":  {"random": -12.51, "easy": 34.26, "normal": 36.52, "hard": 36.42},
	"dacapo":  {"random": 18.16, "easy": 27.74, "normal": 27.04, "hard": 26.81},
}

// Levels are the levels Anchors rates, weakest first.
var Levels = []string{"random", "easy", "normal", "hard"}

// Anchor returns the rating of bot level in game, and whether there is
// one.
func Anchor(game, level string) (Rating, bool) {
	mu, ok := Anchors[game][level]
	return Rating{Mu: mu, Sigma: AnchorSigma}, ok
}

// PlaysLike returns the level whose anchor's Mu is nearest r's in game
// ("" if the game has none).
func PlaysLike(game string, r Rating) string {
	best, gap := "", 0.0
	for _, l := range Levels {
		mu, ok := Anchors[game][l]
		if !ok {
			continue
		}
		d := mu - r.Mu
		if d < 0 {
			d = -d
		}
		if best == "" || d < gap {
			best, gap = l, d
		}
	}
	return best
}
