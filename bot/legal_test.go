package bot

import (
	"fmt"
	"testing"

	"tapis/game"
	"tapis/games"
)

// legalBudget is the iterations the search levels play with in
// TestBotsChooseLegalMoves: a level differs from another only by its
// budget, and a wrong move shows at any budget, so a small one lets the
// test play thousands of games.
const legalBudget = 4

// TestBotsChooseLegalMoves is the promise a table relies on: whatever a
// bot chooses is in the true state's Legal for its seat, so the table
// never refuses a bot's move (issue 26: a Limits search bot sent hides the
// engine refused, four a game, each stalling its table a second). It
// plays thousands of games of every registered game at every table size,
// seating the levels a table offers (Offered) in turn, and a stand-in (the
// easy level, built mid-game and told what its seat was told, as a table
// builds one) for a random seat at a random move. At every position every
// seat that must act is asked, not only the first: a table asks the bot
// at whichever seat it has, and in a simultaneous phase that is often not
// the first seat to move. One of their choices, at random, is played.
func TestBotsChooseLegalMoves(t *testing.T) {
	per, levels := 25, []string{"random", "easy", "normal", "hard"}
	switch {
	case !testing.Short():
		// 200 games a game and table size: every level at every seat 50
		// times. Twice that took two minutes of one of CI's two cores,
		// which the browser tests beside it need.
		per = 50
	case raceDetector:
		// Under -race the point is data races, which a few games find
		// as well as a hundred (and the run without -race plays the full
		// count): 4 still seats every level at every seat 4 times.
		per = 4
	}
	for _, g := range games.All() {
		lo, hi := g.Players()
		for n := lo; n <= hi; n++ {
			t.Run(fmt.Sprintf("%s/%dp", g.Name(), n), func(t *testing.T) {
				// Each level gets every seat in turn over the games.
				for i := range per * len(levels) {
					seed := uint64(i + 1)
					seats := make([]string, n)
					for s := range seats {
						seats[s] = levels[(i+s)%len(levels)]
					}
					playLegal(t, g, seats, seed)
				}
			})
		}
	}
}

// playLegal plays one game of g between the bots named by seats (search
// levels at legalBudget iterations), failing t at the first choice that
// is not legal for its seat.
func playLegal(t *testing.T, g game.Game, seats []string, seed uint64) {
	t.Helper()
	n := len(seats)
	opening := new(game.Log)
	st, err := g.New(game.Config{Players: n, Seed: seed, Log: opening})
	if err != nil {
		t.Fatal(err)
	}
	players := make([]game.Player, n)
	for s, name := range seats {
		players[s] = legalBot(t, g, name, game.Seat(s), seed*16+uint64(s))
	}
	// Everything every seat was told, for the stand-in to be told again.
	told := &game.Log{Events: opening.Events}
	tell := func(evs []game.Event) {
		for _, e := range evs {
			for s, p := range players {
				if e.To.Has(game.Seat(s)) {
					p.Observe(e)
				}
			}
		}
	}
	tell(opening.Events)
	rng := game.NewRNG(seed ^ 0x9e3779b97f4a7c15)
	standInAt, standInSeat := rng.IntN(200), game.Seat(rng.IntN(n))
	var log game.Log
	var legal []game.Move
	var chosen [game.MaxPlayers]game.Move
	for moves := 0; !st.Over(); moves++ {
		if moves > 100_000 {
			t.Fatalf("%s %v seed %d: not over after %d moves", g.Name(), seats, seed, moves)
		}
		if moves == standInAt {
			// A table's stand-in: built now, told what its seat was told.
			p := legalBot(t, g, "easy", standInSeat, seed*16+15)
			for _, e := range told.For(standInSeat) {
				p.Observe(e)
			}
			players[standInSeat] = p
		}
		toMove := st.ToMove().List()
		for _, s := range toMove {
			m := players[s].Choose(game.KnowledgeOf(st, s))
			if legal = st.Legal(s, legal[:0]); !game.Contains(legal, m) {
				what := seats[s]
				if moves >= standInAt && s == standInSeat {
					what = "stand-in"
				}
				t.Fatalf("%s %v seed %d, move %d: seat %d (%s) chose %v, not among its legal %v (to move: %v)",
					g.Name(), seats, seed, moves, s, what, m, legal, toMove)
			}
			chosen[s] = m
		}
		s := toMove[rng.IntN(len(toMove))]
		log.Reset()
		if err := st.Apply(s, chosen[s], &log); err != nil {
			t.Fatalf("%s seed %d, move %d: seat %d's legal move refused: %v", g.Name(), seed, moves, s, err)
		}
		told.Events = append(told.Events, log.Events...)
		tell(log.Events)
	}
}

// legalBot is the bot a table seats for level, the search levels at
// legalBudget iterations.
func legalBot(t *testing.T, g game.Game, level string, s game.Seat, seed uint64) game.Player {
	t.Helper()
	name := level
	if _, search := LevelBudget(g, level); search {
		name = fmt.Sprintf("%s@%d", level, legalBudget)
	}
	p, err := New(g, name, s, seed)
	if err != nil {
		t.Fatal(err)
	}
	return p
}
