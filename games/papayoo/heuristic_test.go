package papayoo_test

import (
	"encoding/json"
	"fmt"
	"reflect"
	"slices"
	"strings"
	"testing"

	"tapis/bot"
	"tapis/game"
	"tapis/games/papayoo"
)

// strength plays games with one heuristic player among random ones, the
// heuristic seat rotating, and returns the mean points per round of the
// heuristic player and of a random one.
func strength(t testing.TB, players, games int) (heur, random float64) {
	var hs, rs, rounds float64
	for g := 0; g < games; g++ {
		st, err := papayoo.NewState(game.Config{Players: players, Seed: uint64(g)})
		if err != nil {
			t.Fatal(err)
		}
		hseat := g % players
		ps := make([]game.Player, players)
		for s := range ps {
			if s == hseat {
				ps[s] = papayoo.Game{}.Heuristic(game.Seat(s), uint64(g))
			} else {
				ps[s] = bot.NewRandom(uint64(g*10 + s))
			}
		}
		if _, err := bot.Play(st, ps, 100000); err != nil {
			t.Fatal(err)
		}
		res := st.Result()
		for s, sc := range res.Scores {
			if s == hseat {
				hs += float64(sc)
			} else {
				rs += float64(sc)
			}
		}
		rounds += float64(res.Rounds)
	}
	return hs / rounds, rs / rounds / float64(players-1)
}

// One heuristic player at a table with three random ones takes at most
// half the points per round of a random player (the acceptance).
func TestHeuristicBeatsRandom(t *testing.T) {
	games := 1000
	if testing.Short() {
		games = 200
	}
	h, r := strength(t, 4, games)
	t.Logf("4 players, %d games: heuristic %.1f points/round, random %.1f", games, h, r)
	if h > r/2 {
		t.Fatalf("heuristic takes %.1f points per round, random players %.1f: not at most half", h, r)
	}
}

// The same at every table size, for the record (go test -v -run All).
func TestHeuristicAllTables(t *testing.T) {
	if testing.Short() {
		t.Skip("long")
	}
	for n := papayoo.MinPlayers; n <= papayoo.MaxPlayers; n++ {
		h, r := strength(t, n, 300)
		t.Logf("%d players: heuristic %.1f points/round, random %.1f", n, h, r)
		if h > r/2 {
			t.Errorf("%d players: heuristic %.1f points per round, random %.1f", n, h, r)
		}
	}
}

// Heuristic players alone finish games at every table size, and only
// ever choose moves the engine accepts (bot.Play fails otherwise).
func TestHeuristicTable(t *testing.T) {
	for n := papayoo.MinPlayers; n <= papayoo.MaxPlayers; n++ {
		for seed := uint64(0); seed < 10; seed++ {
			st, err := papayoo.NewState(game.Config{Players: n, Seed: seed})
			if err != nil {
				t.Fatal(err)
			}
			ps := make([]game.Player, n)
			for s := range ps {
				ps[s] = papayoo.Game{}.Heuristic(game.Seat(s), seed)
			}
			if _, err := bot.Play(st, ps, 100000); err != nil {
				t.Fatalf("%d players, seed %d: %v", n, seed, err)
			}
		}
	}
}

// The heuristic's habits on a stacked 4-player deal (die: spades, so S7
// is the Papayoo). Blocks: seat 0 S1-S10 H1-H5, seat 1 H6-H10 D1-D10,
// seat 2 C1-C10 P1-P5, seat 3 P6-P20.
func TestHeuristicHabits(t *testing.T) {
	var hands [][]string
	for s := 0; s < 4; s++ {
		var h []string
		for _, c := range []string{"S", "H", "D", "C", "P"} {
			for r := 1; r <= 20; r++ {
				name := fmt.Sprintf("%s%d", c, r)
				if (c != "P" && r > 10) || len(h) == 15 {
					continue
				}
				if i := len(hands)*15 + len(h); indexOf(c, r) == i {
					h = append(h, name)
				}
			}
		}
		hands = append(hands, h)
	}
	stack, _ := json.Marshal(map[string]any{"hands": hands, "die": "S"})
	st, err := papayoo.NewState(game.Config{Players: 4, Stacks: []json.RawMessage{stack}})
	if err != nil {
		t.Fatal(err)
	}
	ps := make([]*papayoo.Heuristic, 4)
	var log game.Log
	choose := func(s game.Seat) game.Move {
		t.Helper()
		m := ps[s].Choose(game.KnowledgeOf(st, s))
		log.Reset()
		if err := st.Apply(s, m, &log); err != nil {
			t.Fatalf("seat %d: %v", s, err)
		}
		for _, e := range log.Events {
			for k := range ps {
				if e.To.Has(game.Seat(k)) {
					ps[k].Observe(e)
				}
			}
		}
		return m
	}
	for s := range ps {
		ps[s] = papayoo.NewHeuristic(game.Seat(s), 1)
	}
	// Passing: seat 3 (all Payoos) passes its five highest; seat 0 passes
	// the 7 of spades and its highest spades.
	for st.View(0).(*papayoo.View).Phase == "pass" {
		choose(st.ToMove().First())
	}
	v3 := st.View(3).(*papayoo.View)
	if !reflect.DeepEqual(v3.MyPass, []string{"P16", "P17", "P18", "P19", "P20"}) {
		t.Fatalf("seat 3 passed %v, not its highest Payoos", v3.MyPass)
	}
	v0 := st.View(0).(*papayoo.View)
	for _, c := range []string{"S7", "S9", "S10"} {
		if !slices.Contains(v0.MyPass, c) {
			t.Fatalf("seat 0 passed %v: the 7 and the top spades should go", v0.MyPass)
		}
	}
	// Play on: whoever is void in the led suit and holds the Papayoo
	// dumps it at once; nobody wins a trick with the Papayoo when a
	// lower card of the suit would lose.
	for !st.Over() && st.Result().Rounds == 0 {
		s := st.ToMove().First()
		v := st.View(s).(*papayoo.View)
		m := choose(s)
		_, set := papayoo.MoveKind(m)
		played := cardName(set)
		hand := v.Hand
		if v.Led != "" && !hasSuit(hand, v.Led) && slices.Contains(hand, v.Papayoo) && played != v.Papayoo {
			t.Fatalf("seat %d, void in %s, kept the Papayoo and played %s", s, v.Led, played)
		}
	}
}

func indexOf(suit string, r int) int {
	if suit == "P" {
		return 40 + r - 1
	}
	return strings.Index("SHDC", suit)*10 + r - 1
}

func hasSuit(hand []string, suit string) bool {
	for _, c := range hand {
		if c[:1] == suit {
			return true
		}
	}
	return false
}

func cardName(set uint64) string {
	for c := int8(0); c < papayoo.DeckSize; c++ {
		if set&(1<<uint(c)) != 0 {
			return papayoo.CardName(c)
		}
	}
	return ""
}

// Over many shuffled deals at every table size, the heuristic always
// dumps the Papayoo when void in the led suit, and never wins a trick
// that carries points when it could have played under it.
func TestHeuristicDumpsAndDucks(t *testing.T) {
	dumps, ducks := 0, 0
	for n := papayoo.MinPlayers; n <= papayoo.MaxPlayers; n++ {
		for g := uint64(0); g < 30; g++ {
			st, _ := papayoo.NewState(game.Config{Players: n, Seed: g})
			ps := make([]*papayoo.Heuristic, n)
			for s := range ps {
				ps[s] = papayoo.NewHeuristic(game.Seat(s), g)
			}
			var log game.Log
			for !st.Over() {
				s := st.ToMove().First()
				v := st.View(s).(*papayoo.View)
				m := ps[s].Choose(game.KnowledgeOf(st, s))
				if kind, set := papayoo.MoveKind(m); kind == papayoo.Play && len(v.Trick) > 0 {
					c := cardName(set)
					best, pts := topOf(v)
					switch {
					case !hasSuit(v.Hand, v.Led) && slices.Contains(v.Hand, v.Papayoo):
						dumps++
						if c != v.Papayoo {
							t.Fatalf("%dp seat %d: void in %s with the Papayoo, played %s", n, s, v.Led, c)
						}
					case pts > 0 && hasUnder(v.Hand, v.Led, best) && c[:1] == v.Led && rankOf(c) > best:
						t.Fatalf("%dp seat %d: took a trick of %d points with %s, could duck under %d", n, s, pts, c, best)
					case pts > 0 && hasUnder(v.Hand, v.Led, best):
						ducks++
					}
				}
				log.Reset()
				if err := st.Apply(s, m, &log); err != nil {
					t.Fatal(err)
				}
				for _, e := range log.Events {
					for k := range ps {
						if e.To.Has(game.Seat(k)) {
							ps[k].Observe(e)
						}
					}
				}
			}
		}
	}
	if dumps < 50 || ducks < 50 {
		t.Fatalf("only %d dumps and %d ducks seen", dumps, ducks)
	}
}

func rankOf(c string) int {
	var r int
	fmt.Sscanf(c[1:], "%d", &r)
	return r
}

// topOf is the best rank of the led suit on the trick and its points.
func topOf(v *papayoo.View) (best, pts int) {
	for _, p := range v.Trick {
		if p.Card[:1] == v.Led && rankOf(p.Card) > best {
			best = rankOf(p.Card)
		}
		switch {
		case p.Card == v.Papayoo:
			pts += 40
		case p.Card[0] == 'P':
			pts += rankOf(p.Card)
		}
	}
	return best, pts
}

func hasUnder(hand []string, suit string, best int) bool {
	for _, c := range hand {
		if c[:1] == suit && rankOf(c) < best {
			return true
		}
	}
	return false
}
