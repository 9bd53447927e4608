package analysis

import (
	"encoding/json"
	"reflect"
	"testing"

	"tapis/bot"
	"tapis/game"
	"tapis/games"
	"tapis/store"
)

// testPlayouts is the decisions' budget in the tests: the server's is the
// hard level's, slower than a test needs to tell a blunder.
const testPlayouts = 400

// blunderMatch plays a one-round Papayoo match of three, seat 1 a bot and
// seats 0 and 2 people played by the heuristic, except that at the first
// decision of seat 0 where the moves' values (judged from its knowledge,
// on a seed of the test's own) lie far apart, seat 0 plays the worst: a
// deliberate blunder. It returns the match as the store keeps it and the
// position the blunder reached.
func blunderMatch(t *testing.T, seed uint64) (store.Saved, int) {
	t.Helper()
	g := games.Named("papayoo")
	opts := json.RawMessage(`{"rounds":1}`)
	st, err := g.New(game.Config{Players: 3, Options: opts, Seed: seed})
	if err != nil {
		t.Fatal(err)
	}
	var ps []game.Player
	for s := range 3 {
		p, err := bot.New(g, "easy", game.Seat(s), seed+uint64(s))
		if err != nil {
			t.Fatal(err)
		}
		ps = append(ps, p)
	}
	m := &store.Match{No: 1, Seed: seed, Over: true}
	blunder := 0
	var log game.Log
	for !st.Over() {
		s := st.ToMove().First()
		k := game.KnowledgeOf(st, s)
		mv := ps[s].Choose(k)
		if legal := k.Legal(nil); s == 0 && blunder == 0 && len(legal) > 2 {
			vals := bot.Assess(k, legal, 300, seed^0xabcdef, nil, nil)
			lo, hi := 0, 0
			for i, v := range vals {
				if v < vals[lo] {
					lo = i
				}
				if v > vals[hi] {
					hi = i
				}
			}
			if vals[hi]-vals[lo] >= 0.3 {
				mv, blunder = legal[lo], len(m.Moves)+1
			}
		}
		b, err := g.MarshalMove(mv)
		if err != nil {
			t.Fatal(err)
		}
		log.Reset()
		if err := st.Apply(s, mv, &log); err != nil {
			t.Fatal(err)
		}
		for _, e := range log.Events {
			for i, p := range ps {
				if e.To.Has(game.Seat(i)) {
					p.Observe(e)
				}
			}
		}
		m.Moves = append(m.Moves, store.Move{Seat: int(s), Move: b})
	}
	if blunder == 0 {
		t.Fatalf("seed %d: no decision of seat 0 had moves far enough apart for a blunder", seed)
	}
	seats := []store.Seat{{Name: "Ann"}, {Name: "easy", Bot: "easy"}, {Name: "Bo"}}
	return store.Saved{Table: store.Table{ID: "tb", Game: "papayoo", Players: 3, Options: opts, Seats: seats}, Match: m}, blunder
}

// A deliberate blunder is found and flagged, as the costliest move of its
// player, the only blunder of the match; only people's decisions are
// judged (seat 1 is a bot).
func TestBlunderFlagged(t *testing.T) {
	sv, at := blunderMatch(t, 7)
	a := Analyzer{Playouts: testPlayouts}
	rep, err := a.Analyze(games.Named("papayoo"), sv)
	if err != nil {
		t.Fatal(err)
	}
	var found *Decision
	worst := map[game.Seat]float64{}
	for i, d := range rep.Moves {
		if d.Seat == 1 {
			t.Fatalf("the bot's move %d was judged", d.N)
		}
		if sv.Match.Moves[d.N-1].Seat != int(d.Seat) {
			t.Fatalf("decision %d is said to be seat %d's, the match's move is seat %d's", d.N, d.Seat, sv.Match.Moves[d.N-1].Seat)
		}
		if d.N == at {
			found = &rep.Moves[i]
		}
		worst[d.Seat] = max(worst[d.Seat], d.Cost)
	}
	if found == nil {
		t.Fatalf("the blunder (move %d) was not judged: %+v", at, rep.Moves)
	}
	if found.Mark != MarkBlunder || found.Cost < BlunderCost || found.Cost != worst[0] || found.BestMove == nil {
		t.Fatalf("the blunder at %d: %+v; seat 0's worst cost %.3f", at, *found, worst[0])
	}
	if len(rep.Players) != 2 || rep.Players[0].Seat != 0 || rep.Players[1].Seat != 2 {
		t.Fatalf("players %+v, want seats 0 and 2", rep.Players)
	}
	p0, p2 := rep.Players[0], rep.Players[2-1]
	if p0.Blunders != 1 || p0.Accuracy >= 100 || p0.Decisions == 0 || p2.Blunders != 0 || p2.Decisions == 0 {
		t.Fatalf("summaries %+v and %+v: one blunder, seat 0's", p0, p2)
	}
	t.Logf("blunder at move %d: cost %.3f; accuracy %.1f (seat 0) and %.1f (seat 2); %d decisions judged",
		at, found.Cost, p0.Accuracy, p2.Accuracy, len(rep.Moves))
}

// The analysis of a seat uses only what that seat knew: judged from a
// state drawn from each seat's knowledge (every card it could not see
// dealt again) instead of the true one, every decision gets the same
// values, hence the same report.
func TestAnalysisHonest(t *testing.T) {
	sv, _ := blunderMatch(t, 11)
	g := games.Named("papayoo")
	a := Analyzer{Playouts: 120}
	want, err := a.Analyze(g, sv)
	if err != nil {
		t.Fatal(err)
	}
	draws := 0
	a.know = func(st game.State, s game.Seat) game.Knowledge {
		draws++
		r := game.NewRNG(uint64(draws) * 7919)
		return game.KnowledgeOf(st.Sample(s, &r), s)
	}
	got, err := a.Analyze(g, sv)
	if err != nil {
		t.Fatal(err)
	}
	if draws == 0 || !reflect.DeepEqual(got, want) {
		t.Fatalf("judged from another deal the seats could not tell apart (%d decisions), the report changed:\n%+v\nwant\n%+v", draws, got.Moves, want.Moves)
	}
}

// The accuracy curve and the marks: the best move is 100, a blunder near
// nothing, and the marks follow the thresholds.
func TestAccuracyAndMarks(t *testing.T) {
	if a := AccuracyOf(0); a < 99.99 || a > 100 {
		t.Fatalf("accuracy of the best move: %v", a)
	}
	if a := AccuracyOf(0.05); a < 75 || a > 85 {
		t.Fatalf("accuracy of a 5-point slip: %v", a)
	}
	if a := AccuracyOf(0.6); a > 5 {
		t.Fatalf("accuracy of a 60-point blunder: %v", a)
	}
	for cost, want := range map[float64]string{0: "", 0.049: "", 0.05: MarkInaccuracy, 0.1: MarkMistake, 0.25: MarkBlunder} {
		if got := MarkOf(cost); got != want {
			t.Errorf("MarkOf(%v) = %q, want %q", cost, got, want)
		}
	}
}

// A decision with many legal moves compares the move played and at most
// MaxCandidates-1 others, each once.
func TestCandidates(t *testing.T) {
	legal := make([]game.Move, 60)
	for i := range legal {
		legal[i] = game.Move(i + 1)
	}
	c := candidates(nil, legal, 17, 3)
	if len(c) != MaxCandidates || c[0] != 17 {
		t.Fatalf("candidates %v", c)
	}
	seen := map[game.Move]bool{}
	for _, m := range c {
		if seen[m] {
			t.Fatalf("%d twice in %v", m, c)
		}
		seen[m] = true
	}
	if c := candidates(nil, legal[:5], 3, 1); len(c) != 5 || c[0] != 3 {
		t.Fatalf("few moves: %v", c)
	}
}

// The coach's hint uses only its seat's knowledge: the hard bot, told the
// same events, given a state drawn from that seat's knowledge instead of
// the true one, hints the same move with the same value.
func TestHintHonest(t *testing.T) {
	g := games.Named("papayoo")
	st, err := g.New(game.Config{Players: 3, Options: json.RawMessage(`{"rounds":1}`), Seed: 5})
	if err != nil {
		t.Fatal(err)
	}
	var log game.Log
	var told []game.Event
	r := game.NewRNG(9)
	const s = game.Seat(0)
	// The pass and a few tricks, at random, until seat 0 is to play.
	for n := 0; n < 25 || !st.ToMove().Has(s); n++ {
		m := st.ToMove().First()
		l := st.Legal(m, nil)
		log.Reset()
		if err := st.Apply(m, l[r.IntN(len(l))], &log); err != nil {
			t.Fatal(err)
		}
		for _, e := range log.Events {
			if e.To.Has(s) {
				told = append(told, e)
			}
		}
	}
	hint := func(k game.Knowledge) (game.Move, float64) {
		p, err := bot.New(g, "hard@200", s, 3)
		if err != nil {
			t.Fatal(err)
		}
		for _, e := range told {
			p.Observe(e)
		}
		return Hint(k, p, 4)
	}
	m1, v1 := hint(game.KnowledgeOf(st, s))
	d := game.NewRNG(77)
	m2, v2 := hint(game.KnowledgeOf(st.Sample(s, &d), s))
	if m1 != m2 || v1 != v2 || v1 <= 0 || v1 >= 1 {
		t.Fatalf("hint from the true state %v (%.4f), from a drawn one %v (%.4f)", m1, v1, m2, v2)
	}
}

// A decision's budget is hard's at the table's size: the same at two
// seats, fewer at more in the games whose hard search shrinks there (a
// playout costs more), so that analysing a 4-player Cabo match costs
// about what its moves did.
func TestBudgetFollowsTheTableSize(t *testing.T) {
	for _, name := range []string{"cabo", "dacapo", "papayoo", "limits"} {
		g := games.Named(name)
		hard, _ := bot.LevelBudget(g, "hard")
		hs := bot.Budgets(g).HardSeats
		if got := Budget(g, 2); got != max(hard, MinSamples*2) {
			t.Errorf("%s at 2 seats: %d, want hard's %d", name, got, hard)
		}
		want := hard
		if hs > 0 && hs < 4 {
			want = hard * hs / 4
		}
		if got := Budget(g, 4); got != max(want, MinSamples*2) {
			t.Errorf("%s at 4 seats: %d, want %d", name, got, want)
		}
	}
	if Budget(games.Named("cabo"), 4) >= Budget(games.Named("cabo"), 2) {
		t.Error("Cabo's analysis does not shrink at 4 seats, as its hard search does")
	}
}
