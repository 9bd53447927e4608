package bot

import (
	"strings"
	"testing"

	"tapis/game"
	"tapis/games"
)

// A PIMC level's name says its worlds and their iterations, or takes the
// default worlds and the level's budget; it is a search level's option,
// with iterations only.
func TestPIMCNames(t *testing.T) {
	g := games.Named("papayoo")
	for name, want := range map[string][2]int{
		"hard+pimc@16x125":        {16, 2000},
		"hard+pimc@3000":          {DefaultWorlds, 3000},
		"hard+pimc":               {DefaultWorlds, Budgets(g).Hard},
		"normal+pimc@4x10":        {4, 40},
		"hard+belief+pimc@8x100":  {8, 800},
		"hard@2000":               {0, 2000},
		"hard+belief@16x125x":     {-1, 0},
		"hard+pimc@300ms":         {-1, 0},
		"hard+pimc@0x100":         {-1, 0},
		"hard+pimc@16x":           {-1, 0},
		"easy+pimc":               {-1, 0},
		"cheat+pimc@16x125":       {-1, 0},
		"hard@16x125":             {-1, 0},
		"hard+pimc+belief@16x125": {-1, 0},
	} {
		p, err := New(g, name, 0, 1)
		if want[0] < 0 {
			if err == nil || !strings.Contains(err.Error(), "bot:") {
				t.Errorf("%q: accepted (%v)", name, err)
			}
			continue
		}
		if err != nil {
			t.Fatalf("%q: %v", name, err)
		}
		if s := p.(*Search); s.Worlds != want[0] || s.Iterations != want[1] {
			t.Errorf("%q: %d worlds, %d iterations; want %v", name, s.Worlds, s.Iterations, want)
		}
	}
}

// A world's search finds what a move can reach there: given knowledge
// whose only world is the true state (game.Omniscient), late in a round
// of Papayoo, PIMC chooses a move whose best line, the other seats
// playing the game's policy, is worth as much as any move's, as an
// exhaustive search of the seat's own cards finds it.
func TestPIMCFindsTheWorldsBestLine(t *testing.T) {
	g := games.Named("papayoo")
	positions, choices := 0, 0
	for seed := uint64(1); seed <= 12; seed++ {
		st, s, told := position(t, g, 4, seed, 44+int(seed%4))
		if st == nil {
			continue
		}
		p := newTold(t, g, "hard+pimc@1x300", s, seed, told)
		m := p.Choose(game.Omniscient(st, s))
		best, values := bestLine(t, st, s)
		if got, ok := values[m]; !ok || got < best-1e-9 {
			t.Fatalf("seed %d: PIMC of the true world chose %v, worth %v; the best line is worth %v (%v)", seed, m, got, best, values)
		}
		positions++
		for _, v := range values {
			if v < best-1e-9 {
				// A move worse than the best: a wrong choice would show.
				choices++
				break
			}
		}
	}
	if positions < 8 || choices < 4 {
		t.Fatalf("%d positions, %d where a move is worse than another: the test tells little", positions, choices)
	}
	t.Logf("%d positions, %d where a move is worse than another", positions, choices)
}

// bestLine values each of seat s's moves in st by exhaustive search of its
// own moves to the round's end, the other seats playing the game's policy
// (what a world's search assumes), and returns the best value and each
// move's.
func bestLine(t *testing.T, st game.State, s game.Seat) (float64, map[game.Move]float64) {
	t.Helper()
	var walk func(st game.State) float64
	walk = func(st game.State) float64 {
		v := st.(game.Valuer)
		for v.Rounds() == 0 && !st.Over() {
			who := st.ToMove().First()
			if who != s {
				r := game.NewRNG(1)
				if err := st.Apply(who, st.(game.Roller).RolloutMove(&r, nil), nil); err != nil {
					t.Fatal(err)
				}
				continue
			}
			best := -1.0
			for _, m := range st.Legal(s, nil) {
				c := st.Clone()
				if err := c.Apply(s, m, nil); err != nil {
					t.Fatal(err)
				}
				best = max(best, walk(c))
			}
			return best
		}
		return v.Value(s)
	}
	values := map[game.Move]float64{}
	best := -1.0
	for _, m := range st.Legal(s, nil) {
		c := st.Clone()
		if err := c.Apply(s, m, nil); err != nil {
			t.Fatal(err)
		}
		values[m] = walk(c)
		best = max(best, values[m])
	}
	return best, values
}

// Papayoo's pass is decided as hard decides it (game.Determinable says no
// there): the same seed and iterations, the same choice; its play is
// PIMC's, which chooses otherwise than hard somewhere.
func TestPIMCOnlyWhereTheGameSays(t *testing.T) {
	g := games.Named("papayoo")
	passes, differed := 0, 0
	for seed := uint64(1); seed <= 16; seed++ {
		st, s, told := position(t, g, 4, seed, int(seed*3))
		r := game.NewRNG(1)
		play := st.Sample(s, &r).(game.Determinable).Determinable(s)
		a := choose(t, g, "hard@160", st, s, told, seed)
		b := choose(t, g, "hard+pimc@8x20", st, s, told, seed)
		switch {
		case !play:
			passes++
			if a != b {
				t.Fatalf("seed %d: at the pass hard chose %v, hard+pimc %v", seed, a, b)
			}
		case a != b:
			differed++
		}
	}
	if passes == 0 || differed == 0 {
		t.Fatalf("%d passes, PIMC differed from hard at %d plays: the test tells nothing", passes, differed)
	}
}

// The same seed, the same worlds, the same move.
func TestPIMCDeterministic(t *testing.T) {
	g := games.Named("papayoo")
	st, s, told := position(t, g, 4, 7, 40)
	first := choose(t, g, "hard+pimc@8x40", st, s, told, 9)
	if !game.Contains(st.Legal(s, nil), first) {
		t.Fatalf("an illegal move %v", first)
	}
	for i := 0; i < 3; i++ {
		if m := choose(t, g, "hard+pimc@8x40", st, s, told, 9); m != first {
			t.Fatalf("same seed and budget gave %v then %v", first, m)
		}
	}
}

// pimcLevel is the PIMC level BenchmarkLevels measures in Papayoo.
const pimcLevel = "hard+pimc@96x32"
