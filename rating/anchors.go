package rating

import "tapis/games"

// The bots' ratings: each level of bot has a fixed rating per game, so
// that a game against bots rates a person against known anchors, and a
// profile can say which level a player plays like. A bot's rating never
// moves with the games people play against it (UpdateFixed). Each game
// registers its anchors (game.Entry's Anchors, in the game's
// register.go).
//
// The means were measured by bots playing each other:
//
//	tapis sim --ratings --game G --games N --seed 1   (levels random,easy,normal,hard)
//
// on 2026-11-24, with the levels as the server plays them (bot.Budget:
// fixed iteration budgets, so these are the levels people meet), N = 168
// games for Cabo, Papayoo and Limits and 72 for Da Capo! (7 and 3 times
// the 24 orders of four bots round a table), 4 players, the levels
// shuffled round the table (sim.Config.Shuffle: every seat, and every
// neighbour on each side, equally often), every game's ranks
// (game.Result.Ranks) run through Update in order; about 4 minutes of CPU.
// Shuffling matters: merely rotated, the levels kept their neighbours,
// and in Papayoo, where each player passes cards to its left, the
// heuristic that always received the random bot's pass came out on top
// (easy 39.0, normal 34.5, hard 35.5, against 33.7, 33.7 and 42.5 here).
// After that many games each level's Sigma was still 2.6 to 2.8 (3.8 to
// 3.9 for Da Capo!, 5 for random), so levels within a few points of Mu
// are not told apart: easy and normal in Cabo and Papayoo, normal and
// hard in Limits, all three in Da Capo! (whose 72 games are fewest).
// Two players, a search level against the heuristic, tell them apart
// more clearly (docs/bots.md, Levels' budgets). The scale is the pool's: every
// level started at DefaultMu, as a new player does. Sigma itself is not
// kept: an anchor is stored with AnchorSigma.

// AnchorSigma is the Sigma an anchor is stored and rated with: small, so
// that it barely widens the people's updates, but not zero.
const AnchorSigma = 1.0

// Estimate is r's number on the bots' scale: the Display r would have
// with an anchor's Sigma (AnchorSigma), as sure as a bot's. The rating a
// leaderboard ranks by is cautious, a new player's 1500 far below the
// bots' numbers whatever their skill; the estimate puts a person's mean
// skill beside the bots' (issue 27: a new player's is 2028, above the
// random bot's number in every game), and meets the rating as games
// make Sigma small. It is for showing only: nothing is computed
// from it.
func (r Rating) Estimate() int { return Rating{Mu: r.Mu, Sigma: AnchorSigma}.Display() }

// Anchors returns game's bot levels' mean skill, by level (nil for a game
// games does not list).
func Anchors(name string) map[string]float64 {
	e, _ := games.Lookup(name)
	return e.Anchors
}

// Levels are the levels Anchors rates, weakest first.
var Levels = []string{"random", "easy", "normal", "hard"}

// Anchor returns the rating of bot level in game, and whether there is
// one.
func Anchor(game, level string) (Rating, bool) {
	mu, ok := Anchors(game)[level]
	return Rating{Mu: mu, Sigma: AnchorSigma}, ok
}

// PlaysLike returns the level whose anchor's Mu is nearest r's in game
// ("" if the game has none).
func PlaysLike(game string, r Rating) string {
	anchors := Anchors(game)
	best, gap := "", 0.0
	for _, l := range Levels {
		mu, ok := anchors[l]
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
