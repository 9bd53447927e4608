package bot

import (
	"fmt"
	"math"
	"slices"
	"strings"
	"testing"

	"tapis/game"
	"tapis/games"
)

// position plays random moves from a new game with a log, until seat s
// must choose among several moves after at least skip moves. It returns
// the state, the seat and the events that seat was told on the way.
func position(t testing.TB, g game.Game, players int, seed uint64, skip int) (game.State, game.Seat, []game.Event) {
	t.Helper()
	var log game.Log
	st, err := g.New(game.Config{Players: players, Seed: seed, Log: &log})
	if err != nil {
		t.Fatal(err)
	}
	rng := game.NewRNG(seed)
	var told [game.MaxPlayers][]game.Event
	hear := func() {
		for _, e := range log.Events {
			for s := 0; s < players; s++ {
				if e.To.Has(game.Seat(s)) {
					told[s] = append(told[s], e)
				}
			}
		}
		log.Reset()
	}
	hear()
	var buf []game.Move
	for moves := 0; !st.Over(); moves++ {
		s := st.ToMove().First()
		buf = st.Legal(s, buf[:0])
		if moves >= skip && len(buf) > 1 {
			return st, s, told[s]
		}
		if err := st.Apply(s, buf[rng.IntN(len(buf))], &log); err != nil {
			t.Fatal(err)
		}
		hear()
	}
	return nil, 0, nil
}

// newTold returns a fresh bot called name for seat s, told events.
func newTold(t testing.TB, g game.Game, name string, s game.Seat, seed uint64, events []game.Event) game.Player {
	t.Helper()
	p, err := New(g, name, s, seed)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range events {
		p.Observe(e)
	}
	return p
}

// choose asks a fresh bot called name, told events, for its move.
func choose(t testing.TB, g game.Game, name string, st game.State, s game.Seat, events []game.Event, seed uint64) game.Move {
	t.Helper()
	p := newTold(t, g, name, s, seed, events)
	k := game.KnowledgeOf(st, s)
	if c, ok := p.(game.Cheater); ok && c.Cheats() {
		k = game.Omniscient(st, s)
	}
	return p.Choose(k)
}

// The search bot's move depends only on what its seat knows: a state
// redrawn by Sample, which differs from the true one only in what the seat
// cannot see, gets the same move for the same seed. The cheating reference
// bot, given the same pairs, must choose differently at least once, or the
// pairs would not differ in anything that matters.
func TestSearchIsHonest(t *testing.T) {
	for _, g := range games.All() {
		lo, _ := g.Players()
		for _, n := range []int{lo, 4} {
			t.Run(fmt.Sprintf("%s/%d", g.Name(), n), func(t *testing.T) {
				cheatDiffered := 0
				for seed := uint64(1); seed <= 12; seed++ {
					// Under -race the point is data races, which a few
					// positions find as well as twelve (the run without
					// -race tries all twelve): past the fourth, it stops
					// once the cheat has differed.
					if raceDetector && seed > 4 && cheatDiffered > 0 {
						break
					}
					st, s, told := position(t, g, n, seed, int(seed*7))
					if st == nil {
						continue
					}
					rng := game.NewRNG(seed + 100)
					other := st.Sample(s, &rng)
					// With and without belief-weighted sampling: the pool
					// and its weights are the seat's knowledge too; and
					// with the learned leaf evaluator (bot/learn), which
					// values only the worlds drawn from that knowledge.
					// And PIMC (bot/pimc.go), whose worlds are samples of it;
					// hard judges Papayoo's whole passes flat (bot/flat.go) on
					// samples too, and hard-plans searches them card by card.
					for _, name := range []string{"hard@150", "hard+belief@150", "hard-belief@150", "hard+learn@150", "hard+pimc@5x30", "hard+belief+pimc@5x30", "hard-plans@150"} {
						a := choose(t, g, name, st, s, told, seed)
						b := choose(t, g, name, other, s, told, seed)
						if a != b {
							t.Fatalf("seed %d, seat %d: %s chose %v on the true state and %v on a state that differs only in what it cannot know", seed, s, name, a, b)
						}
					}
					if choose(t, g, "cheat@150", st, s, told, seed) !=
						choose(t, g, "cheat@150", other, s, told, seed) {
						cheatDiffered++
					}
				}
				if cheatDiffered == 0 {
					t.Errorf("the cheating bot never chose differently on the pairs: the test cannot tell honest from not")
				}
			})
		}
	}
}

// Same seed and iteration budget, same move; a time budget also answers.
func TestSearchDeterministic(t *testing.T) {
	for _, g := range games.All() {
		st, s, told := position(t, g, 2+boolInt(g.Name() == "papayoo"), 3, 10)
		first := choose(t, g, "normal@300", st, s, told, 9)
		for i := 0; i < 3; i++ {
			if m := choose(t, g, "normal@300", st, s, told, 9); m != first {
				t.Fatalf("%s: same seed and budget gave %v then %v", g.Name(), first, m)
			}
		}
		if m := choose(t, g, "hard@20ms", st, s, told, 9); !game.Contains(st.Legal(s, nil), m) {
			t.Fatalf("%s: a timed search chose an illegal move %v", g.Name(), m)
		}
	}
}

func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}

func TestNewBudgets(t *testing.T) {
	g := games.Named("cabo")
	for _, name := range []string{"random@5", "easy@5", "hard@0", "hard@-3", "hard@fast", "hard@", "genius@5"} {
		if _, err := New(g, name, 0, 1); err == nil {
			t.Errorf("%q was accepted", name)
		} else if !strings.Contains(err.Error(), "bot:") {
			t.Errorf("%q: error %q does not say where it comes from", name, err)
		}
	}
	for name, iters := range map[string]int{"hard@2000": 2000, "normal@7": 7, "cheat@50": 50, "hard@300ms": 0} {
		p, err := New(g, name, 0, 1)
		if err != nil {
			t.Fatalf("%q: %v", name, err)
		}
		if s := p.(*Search); s.Iterations != iters || s.Cheat != strings.HasPrefix(name, "cheat") {
			t.Errorf("%q: %d iterations, cheat %v", name, s.Iterations, s.Cheat)
		}
	}
	for _, name := range Offered {
		if strings.HasPrefix(name, "cheat") {
			t.Fatalf("the cheating bot is offered at tables")
		}
	}
}

// With RollOthers, only the searching seat's moves become tree edges in a
// game whose policy models the others (Papayoo); without it, or in a game
// that does not ask for it (Limits), the other seats' replies are edges.
func TestRollOthersKeepsOnlyOwnEdges(t *testing.T) {
	for _, tc := range []struct {
		game       string
		players    int
		rollOthers bool
		othersSeen bool
	}{{"papayoo", 4, true, false}, {"papayoo", 4, false, true}, {"limits", 2, true, true}} {
		g := games.Named(tc.game)
		st, s, told := position(t, g, tc.players, 2, 30)
		search := newTold(t, g, "hard@400", s, 3, told).(*Search)
		search.RollOthers = tc.rollOthers
		search.Choose(game.KnowledgeOf(st, s))
		others := false
		for _, e := range search.edges {
			others = others || e.seat != s
		}
		if others != tc.othersSeen {
			t.Errorf("%s, RollOthers %v: other seats' moves in the tree: %v, want %v", tc.game, tc.rollOthers, others, tc.othersSeen)
		}
	}
}

// Widening, a node tries the playout policy's move first and admits
// others only as its visits grow; without it, every move it considers is
// tried.
func TestWidenStartsFromThePolicy(t *testing.T) {
	g := games.Named("cabo")
	for seed := uint64(1); seed <= 6; seed++ {
		st, s, told := position(t, g, 2, seed, 20)
		// The moves the search considers: Cabo leaves out the claims its
		// seat has seen to fail (game.Pruner).
		legal := len(st.(game.Pruner).Prune(s, st.Legal(s, nil)))
		for _, widen := range []bool{true, false} {
			search := newTold(t, g, "hard@30", s, seed, told).(*Search)
			search.Widen, search.Prior = widen, nil
			search.Choose(game.KnowledgeOf(st, s))
			root, visits := 0, 0.0
			for e := search.nodes[0].edge; e >= 0; e = search.edges[e].next {
				root++
				visits += search.edges[e].visits
			}
			t.Logf("seed %d widen %v: %d of %d legal moves at the root", seed, widen, root, legal)
			switch {
			case widen && float64(root) > 2+math.Sqrt(visits):
				t.Errorf("seed %d: widening, the root has %d edges after %v visits", seed, root, visits)
			case !widen && root != min(legal, 30):
				t.Errorf("seed %d: not widening, the root tried %d of %d moves in 30 iterations", seed, root, legal)
			}
		}
	}
}

// In a game with a horizon (Da Capo), the tree keeps only the root's
// moves and playouts stop a few turns on, where Value judges the position
// in between 0 and 1; without it, playouts reach the game's end and pay
// whole or split wins only.
func TestHorizonBoundsTheSearch(t *testing.T) {
	g := games.Named("dacapo")
	for seed := uint64(1); seed <= 4; seed++ {
		st, s, told := position(t, g, 2, seed, 10)
		for _, horizon := range []bool{true, false} {
			search := newTold(t, g, "hard@200", s, seed, told).(*Search)
			// The tree of single moves (hard plans whole turns here).
			search.Horizon, search.Plans = horizon, false
			search.Choose(game.KnowledgeOf(st, s))
			between := 0
			for _, e := range search.edges {
				if r := e.reward * 2; r != math.Trunc(r) {
					between++
				}
			}
			switch {
			case horizon && len(search.nodes) != 1:
				t.Errorf("seed %d: a tree of depth 1 has %d nodes", seed, len(search.nodes))
			case horizon && between == 0:
				t.Errorf("seed %d: with the horizon, every reward is a whole game's", seed)
			case !horizon && between > 0:
				t.Errorf("seed %d: without the horizon, %d edges have rewards of unfinished games", seed, between)
			case !horizon && len(search.nodes) == 1:
				t.Errorf("seed %d: without the horizon, the tree never grew below the root", seed)
			}
		}
	}
}

// A search with Yield set calls it every yieldEvery iterations, and chooses
// exactly what the same search without it chooses: yielding is the host's
// scheduling, never part of the decision.
func TestYieldChangesNothing(t *testing.T) {
	for _, g := range games.All() {
		st, s, told := position(t, g, 2+boolInt(g.Name() == "papayoo"), 5, 12)
		want := choose(t, g, "normal@300", st, s, told, 11)
		p := newTold(t, g, "normal@300", s, 11, told)
		sp, ok := p.(*Search)
		if !ok {
			t.Fatalf("%s: normal@300 is a %T, not a search", g.Name(), p)
		}
		calls := 0
		sp.Yield = func() { calls++ }
		if m := sp.Choose(game.KnowledgeOf(st, s)); m != want {
			t.Fatalf("%s: with Yield the search chose %v, without %v", g.Name(), m, want)
		}
		if calls != 300/yieldEvery {
			t.Fatalf("%s: Yield called %d times in 300 iterations, want %d", g.Name(), calls, 300/yieldEvery)
		}
	}
}

// In a simultaneous phase a search bot that is not the first seat to move
// searches its own moves: the root's edges are all its seat's, and what it
// chooses is legal for it. It used to search the first seat's moves in
// sampled hands instead, and Limits' bots sent a hide of cards they did
// not hold (issue 26).
func TestSearchRootIsItsOwnSeat(t *testing.T) {
	g := games.Named("limits")
	for seed := uint64(1); seed <= 20; seed++ {
		// Every seat hides at once at the start of a round; the last
		// seat is never the first of them.
		st, err := g.New(game.Config{Players: 2, Seed: seed})
		if err != nil {
			t.Fatal(err)
		}
		me := game.Seat(1)
		if !st.ToMove().Has(0) || !st.ToMove().Has(me) {
			t.Fatalf("seed %d: a round does not begin with both seats hiding: %v", seed, st.ToMove())
		}
		p := NewSearch(200, 0, seed)
		m := p.Choose(game.KnowledgeOf(st, me))
		for e := p.nodes[0].edge; e >= 0; e = p.edges[e].next {
			if s := p.edges[e].seat; s != me {
				t.Fatalf("seed %d: the root holds a move of seat %d, not of the searching seat %d", seed, s, me)
			}
		}
		if !game.Contains(st.Legal(me, nil), m) {
			t.Fatalf("seed %d: chose %v, not among %v", seed, m, st.Legal(me, nil))
		}
	}
}

// A game's exploration constant (game.Explorer) is a constant of the game:
// the same on the true state and on every state its seats might sample,
// so that it cannot carry what a seat does not know into the search, and
// the search plays with it rather than its own C.
func TestSearchExplorationIsTheGames(t *testing.T) {
	named := 0
	for _, g := range games.All() {
		st, s, told := position(t, g, 2+boolInt(g.Name() == "papayoo"), 5, 12)
		x, ok := st.(game.Explorer)
		p := newTold(t, g, "normal@50", s, 3, told).(*Search)
		p.Choose(game.KnowledgeOf(st, s))
		if !ok {
			if p.c != p.C {
				t.Errorf("%s names no exploration constant, yet the search used %v, not its C %v", g.Name(), p.c, p.C)
			}
			continue
		}
		named++
		want := x.Exploration()
		if !(want > 0 && want <= 2) {
			t.Errorf("%s: exploration constant %v, not in (0, 2]", g.Name(), want)
		}
		rng := game.NewRNG(7)
		for i := 0; i < 20; i++ {
			if got := st.Sample(s, &rng).(game.Explorer).Exploration(); got != want {
				t.Fatalf("%s: exploration %v on a sample, %v on the true state", g.Name(), got, want)
			}
		}
		if p.c != want {
			t.Errorf("%s: the search explored with %v, not the game's %v", g.Name(), p.c, want)
		}
	}
	if named == 0 {
		t.Errorf("no game names an exploration constant: the test tests nothing")
	}
}

// A game's Pruner judges from the seat's knowledge alone: on the true
// state and on every state the seat might sample, it keeps the same
// moves, so pruning carries nothing the seat does not know into the
// search's choice; and what it keeps is legal and never empty.
func TestPruneIsTheSeats(t *testing.T) {
	pruned := 0
	for _, g := range games.All() {
		for seed := uint64(1); seed <= 12; seed++ {
			st, s, _ := position(t, g, 2+boolInt(g.Name() == "papayoo"), seed, 4+int(seed)*3)
			pr, ok := st.(game.Pruner)
			if !ok {
				break
			}
			legal := st.Legal(s, nil)
			want := pr.Prune(s, append([]game.Move(nil), legal...))
			if len(want) == 0 {
				t.Fatalf("%s seed %d: pruned every move of %v", g.Name(), seed, legal)
			}
			for _, m := range want {
				if !game.Contains(legal, m) {
					t.Fatalf("%s seed %d: kept %v, not legal", g.Name(), seed, m)
				}
			}
			if len(want) < len(legal) {
				pruned++
			}
			rng := game.NewRNG(seed)
			for i := 0; i < 20; i++ {
				got := st.Sample(s, &rng).(game.Pruner).Prune(s, append([]game.Move(nil), legal...))
				if !slices.Equal(got, want) {
					t.Fatalf("%s seed %d: a sample keeps %v, the true state %v", g.Name(), seed, got, want)
				}
			}
		}
	}
	if pruned == 0 {
		t.Errorf("no position pruned a move: the test tests nothing")
	}
}

// A game's plans (game.Planner) are the seat's: on the true state and on
// every state the seat might sample, the same plans in the same order.
func TestPlansAreTheSeats(t *testing.T) {
	planned := 0
	for _, g := range games.All() {
		for seed := uint64(1); seed <= 12; seed++ {
			st, s, _ := position(t, g, 2+boolInt(seed%2 == 0 || g.Name() == "papayoo"), seed, 4+int(seed)*5)
			pl, ok := st.(game.Planner)
			if !ok {
				break
			}
			want, wantEnds := pl.Plans(s, nil, nil)
			if len(wantEnds) > 1 {
				planned++
			}
			rng := game.NewRNG(seed)
			for i := 0; i < 20; i++ {
				got, ends := st.Sample(s, &rng).(game.Planner).Plans(s, nil, nil)
				if !slices.Equal(got, want) || !slices.Equal(ends, wantEnds) {
					t.Fatalf("%s seed %d: a sample's plans %v %v, the true state's %v %v", g.Name(), seed, got, ends, want, wantEnds)
				}
			}
		}
	}
	if planned == 0 {
		t.Errorf("no position had several plans: the test tests nothing")
	}
}

// A search that plans whole turns plays its chosen plan out: the moves
// after the first come from the plan, without searching again, and a
// table that moved otherwise makes it search anew.
func TestSearchFollowsItsPlan(t *testing.T) {
	g := games.Named("dacapo")
	followed := 0
	for seed := uint64(1); seed <= 20; seed++ {
		st, s, told := position(t, g, 2, seed, int(seed)*3)
		p := newTold(t, g, "hard@100", s, seed, told).(*Search)
		if !p.Plans {
			t.Fatal("hard does not plan whole turns")
		}
		m := p.Choose(game.KnowledgeOf(st, s))
		if p.plan.at == 0 {
			continue // a plan of one move, or the turn's last
		}
		rest := append([]game.Move(nil), p.plan.moves[1:]...)
		if m != p.plan.moves[0] {
			t.Fatalf("seed %d: chose %v, its plan starts %v", seed, m, p.plan.moves[0])
		}
		y := st.Clone()
		if err := y.Apply(s, m, nil); err != nil {
			t.Fatal(err)
		}
		p.Iterations = 1 << 30 // a search now would never end
		if got := p.Choose(game.KnowledgeOf(y, s)); got != rest[0] {
			t.Fatalf("seed %d: second move %v, the plan's %v", seed, got, rest[0])
		}
		followed++
		// Asked about another position (the first move not made), it
		// forgets the plan and searches.
		p.Iterations = 50
		p.plan.at = 1
		if p.Choose(game.KnowledgeOf(st, s)); p.plan.at > 1 {
			t.Fatalf("seed %d: followed its plan from a position it did not expect", seed)
		}
	}
	if followed == 0 {
		t.Fatal("no plan of several moves in 20 positions")
	}
}
