package bot

import (
	"strings"
	"testing"

	"tapis/game"
	"tapis/games"
)

// A Phased bot is named by a level and +Lpass; it cheats when either part
// does, and nothing else takes the ending.
func TestPhasedNames(t *testing.T) {
	g := games.Named("papayoo")
	for name, cheat := range map[string]bool{
		"hard+cheatpass":           true,
		"cheat+hardpass@2000":      true,
		"hard+easypass":            false,
		"normal+hardpass@50":       false,
		"cheat+hard5":              true,
		"hard+cheat-futurepass":    true,
		"cheat-future+hard-plans5": true,
	} {
		p, err := New(g, name, 0, 1)
		if err != nil {
			t.Fatalf("%q: %v", name, err)
		}
		ph, ok := p.(*Phased)
		if !ok {
			t.Fatalf("%q: a %T", name, p)
		}
		if ph.Cheats() != cheat {
			t.Errorf("%q cheats: %v, want %v", name, ph.Cheats(), cheat)
		}
	}
	for _, name := range []string{"hard+foopass", "foo+hardpass", "hard+cheatpass+belief", "hard+pass"} {
		if _, err := New(g, name, 0, 1); err == nil || !strings.Contains(err.Error(), "bot:") {
			t.Errorf("%q: accepted (%v)", name, err)
		}
	}
	if p, err := New(g, "cheat+hard12@500", 0, 1); err != nil || p.(*Phased).From != 12 {
		t.Errorf("cheat+hard12@500: not from the 12th choice (%v)", err)
	}
	if p, err := New(g, "hard+hard@5000pass", 0, 1); err != nil || p.(*Phased).Early.(*Search).Iterations != 5000 || p.(*Phased).Late.(*Search).Iterations != Budgets(g).Hard {
		t.Errorf("hard+hard@5000pass: not 5000 at the pass and hard's at the play (%v)", err)
	}
	if p, err := New(g, "cheat+hardpass@2000", 0, 1); err != nil || p.(*Phased).Early.(*Search).Iterations != 2000 {
		t.Errorf("cheat+hardpass@2000: the pass's budget is not 2000 (%v)", err)
	}
}

// Each part plays where it should: at Papayoo's pass (game.Determinable
// says no) the early part chooses exactly as that level alone would, and
// at the play the late one. The honest part of a cheating Phased bot,
// given the true state, chooses as it does from a state that differs only
// in what its seat cannot know: it sees its seat's knowledge, nothing more.
func TestPhasedParts(t *testing.T) {
	g := games.Named("papayoo")
	passes, plays := 0, 0
	for seed := uint64(1); seed <= 16; seed++ {
		st, s, told := position(t, g, 4, seed, int(seed*3))
		play := atPlay(st, s)
		honest, cheat := "hard@120", "cheat@120"
		if play {
			plays++
		} else {
			passes++
		}
		// cheat+hardpass: hard at the pass, the cheat at the play.
		m := choose(t, g, "cheat+hardpass@120", st, s, told, seed)
		want := choose(t, g, cheat, st, s, told, seed)
		if !play {
			want = choose(t, g, honest, st, s, told, seed)
			rng := game.NewRNG(seed + 100)
			other := st.Sample(s, &rng)
			if o := choose(t, g, "cheat+hardpass@120", other, s, told, seed); o != m {
				t.Fatalf("seed %d: the honest pass chose %v on the true state, %v on a redrawn one", seed, m, o)
			}
		}
		if m != want {
			t.Fatalf("seed %d (play %v): cheat+hardpass chose %v, its part %v", seed, play, m, want)
		}
		// hard+cheatpass: the reverse.
		m = choose(t, g, "hard+cheatpass@120", st, s, told, seed)
		want = choose(t, g, honest, st, s, told, seed)
		if !play {
			want = choose(t, g, cheat, st, s, told, seed)
		}
		if m != want {
			t.Fatalf("seed %d (play %v): hard+cheatpass chose %v, its part %v", seed, play, m, want)
		}
	}
	if passes == 0 || plays == 0 {
		t.Fatalf("%d passes, %d plays: the test tells little", passes, plays)
	}
}

// tagged is a random player that notes its tag in a shared log at each
// choice, and whether the game let a search determinize it there.
type tagged struct {
	*Random
	tag byte
	log *[]byte
}

func (p tagged) Choose(k game.Knowledge) game.Move {
	r := game.NewRNG(1)
	tag := p.tag
	if !k.Sample(&r).(game.Determinable).Determinable(k.Seat()) {
		tag = 'p' // the pass
	}
	*p.log = append(*p.log, tag)
	return p.Random.Choose(k)
}

// +LN hands the seat's first N choices after the pass to the early part,
// every round: a whole game of Papayoo goes pass, N early plays, late
// plays, round after round.
func TestPhasedFrom(t *testing.T) {
	g := games.Named("papayoo")
	st, err := g.New(game.Config{Players: 4, Seed: 3})
	if err != nil {
		t.Fatal(err)
	}
	var log []byte
	players := []game.Player{
		&Phased{Early: tagged{NewRandom(1), 'e', &log}, Late: tagged{NewRandom(2), 'l', &log}, From: 3},
		NewRandom(3), NewRandom(4), NewRandom(5),
	}
	if _, err := Play(st, players, 100000); err != nil {
		t.Fatal(err)
	}
	rounds := strings.FieldsFunc(string(log), func(r rune) bool { return r == 'p' })
	if len(rounds) != 4 {
		t.Fatalf("%d rounds in %q", len(rounds), log)
	}
	for _, r := range rounds {
		if !strings.HasPrefix(r, "eee") || strings.Contains(r[3:], "e") || len(r) < 4 {
			t.Fatalf("a round's plays went %q; want eee then l's (%q)", r, log)
		}
	}
}

// cheat-future sees every card but not the future: given the true state
// and the same state with its future randomness redrawn (Papayoo's die,
// rolled after the pass), it chooses the same; the plain cheat, which
// rolls the true state's die in every world, chooses otherwise at some
// pass, or the test would tell nothing.
func TestBlindCheatIgnoresTheFuture(t *testing.T) {
	g := games.Named("papayoo")
	passes, differed := 0, 0
	for seed := uint64(1); seed <= 24; seed++ {
		st, s, told := position(t, g, 4, seed, int(seed%5))
		if st == nil {
			continue
		}
		other := st.Clone()
		other.Reseed(seed + 1000)
		if a, b := choose(t, g, "cheat-future@200", st, s, told, seed), choose(t, g, "cheat-future@200", other, s, told, seed); a != b {
			t.Fatalf("seed %d: cheat-future chose %v, and %v with another future", seed, a, b)
		}
		if !atPlay(st, s) {
			passes++
		}
		if choose(t, g, "cheat@200", st, s, told, seed) != choose(t, g, "cheat@200", other, s, told, seed) {
			differed++
		}
	}
	if passes == 0 || differed == 0 {
		t.Fatalf("%d passes, the cheat differed %d times: the test tells nothing", passes, differed)
	}
}

// In Da Capo! the future is also the order of the cards face down (the
// personal piles below their tops, the draw pile), which nobody has seen:
// cheat-future, which sees every hand, chooses the same with those cards
// in another order, and the plain cheat, which knows what each pile will
// turn up, otherwise at some position.
func TestBlindCheatIgnoresTheCardsFaceDown(t *testing.T) {
	g := games.Named("dacapo")
	tried, differed := 0, 0
	for seed := uint64(1); seed <= 16; seed++ {
		st, s, told := position(t, g, 2, seed, int(seed%7)*3)
		if st == nil {
			continue
		}
		other := st.Clone()
		other.Reseed(seed + 1000)
		tried++
		if a, b := choose(t, g, "cheat-future@200", st, s, told, seed), choose(t, g, "cheat-future@200", other, s, told, seed); a != b {
			t.Fatalf("seed %d: cheat-future chose %v, and %v with the cards face down in another order", seed, a, b)
		}
		if choose(t, g, "cheat@200", st, s, told, seed) != choose(t, g, "cheat@200", other, s, told, seed) {
			differed++
		}
	}
	if tried == 0 || differed == 0 {
		t.Fatalf("%d positions, the cheat differed %d times: the test tells nothing", tried, differed)
	}
}

// -plans turns whole turns off for hard and the cheats, and only them.
func TestNoPlansNames(t *testing.T) {
	g := games.Named("papayoo")
	for name, blind := range map[string]bool{"hard-plans": false, "cheat-plans": false, "cheat-future-plans": true, "cheat-future": true} {
		p, err := New(g, name, 0, 1)
		if err != nil {
			t.Fatalf("%q: %v", name, err)
		}
		if s := p.(*Search); s.Plans == strings.HasSuffix(name, "-plans") || s.Blind != blind {
			t.Errorf("%q: plans %v, blind %v", name, s.Plans, s.Blind)
		}
	}
	for _, name := range []string{"normal-plans", "easy-plans", "hard-future"} {
		if _, err := New(g, name, 0, 1); err == nil {
			t.Errorf("%q: accepted", name)
		}
	}
}

// A search's Early budget is searched where the game says a decision
// cannot be determinized yet (Papayoo's pass), its Iterations elsewhere;
// a budget given by name has no Early.
func TestEarlyBudget(t *testing.T) {
	g := games.Named("papayoo")
	p := &Search{Iterations: 100, Early: 300}
	passes, plays := 0, 0
	for seed := uint64(1); seed <= 12; seed++ {
		st, s, told := position(t, g, 4, seed, int(seed*3))
		want := 300
		if atPlay(st, s) {
			want = 100
			plays++
		} else {
			passes++
		}
		if got := p.budgetHere(game.KnowledgeOf(st, s)); got != want {
			t.Fatalf("seed %d: %d iterations, want %d", seed, got, want)
		}
		// Honest: the same knowledge, the same choice, with its early
		// budget as without.
		rng := game.NewRNG(seed + 100)
		other := st.Sample(s, &rng)
		var moves [2]game.Move
		for i, world := range []game.State{st, other} {
			b := newTold(t, g, "hard@60", s, seed, told).(*Search)
			b.Early = 150
			moves[i] = b.Choose(game.KnowledgeOf(world, s))
		}
		if moves[0] != moves[1] {
			t.Fatalf("seed %d: chose %v on the true state, %v on a redrawn one", seed, moves[0], moves[1])
		}
	}
	if passes == 0 || plays == 0 {
		t.Fatalf("%d passes, %d plays", passes, plays)
	}
	if b, err := New(g, "hard@2000", 0, 1); err != nil || b.(*Search).Early != 0 {
		t.Errorf("hard@2000 has an early budget (%v)", err)
	}
	if b, err := New(g, "hard", 0, 1); err != nil || b.(*Search).Early != Budgets(g).HardEarly {
		t.Errorf("hard's early budget is not its game's (%v)", err)
	}
}

// atPlay reports whether the game lets a search determinize seat s's
// decision in st (Papayoo: the play, not the pass).
func atPlay(st game.State, s game.Seat) bool {
	r := game.NewRNG(1)
	return st.Sample(s, &r).(game.Determinable).Determinable(s)
}
