package papayoo

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"testing"

	"tapis/game"
)

var tables = []struct {
	n, each, passed int
	onesOut         bool
}{
	{3, 20, 5, false}, {4, 15, 5, false}, {5, 12, 4, false},
	{6, 10, 3, false}, {7, 8, 3, true}, {8, 7, 3, true},
}

// Cards and Deal: 40 suited cards and 20 Payoos, the table's counts per
// player, the four 1s out at 7 and 8 players.
func TestDealTable(t *testing.T) {
	for _, tc := range tables {
		t.Run(fmt.Sprintf("%dp", tc.n), func(t *testing.T) {
			for seed := uint64(0); seed < 20; seed++ {
				st, err := NewState(game.Config{Players: tc.n, Seed: seed})
				if err != nil {
					t.Fatal(err)
				}
				var all []string
				for s := 0; s < tc.n; s++ {
					v := st.view(game.Seat(s))
					if len(v.Hand) != tc.each || v.PassSize != tc.passed {
						t.Fatalf("seat %d: %d cards, pass %d; want %d and %d", s, len(v.Hand), v.PassSize, tc.each, tc.passed)
					}
					all = append(all, v.Hand...)
				}
				slices.Sort(all)
				if all = slices.Compact(all); len(all) != tc.n*tc.each {
					t.Fatalf("%d distinct cards dealt, want %d", len(all), tc.n*tc.each)
				}
				want := 60
				if tc.onesOut {
					want = 56
				}
				if len(all) != want {
					t.Fatalf("%d cards dealt, want %d", len(all), want)
				}
				for _, one := range []string{"S1", "H1", "D1", "C1"} {
					if slices.Contains(all, one) == tc.onesOut {
						t.Fatalf("%s dealt: %v, but the 1s are out: %v", one, !tc.onesOut, tc.onesOut)
					}
				}
				if !slices.Contains(all, "P1") || !slices.Contains(all, "P20") {
					t.Fatalf("the Payoo 1 and 20 are always in the deck")
				}
			}
			// A stack must respect the table: a 1 at 7 and 8 players, a
			// card twice, a hand of the wrong size are refused.
			hands := blocks(tc.n)
			if _, err := NewState(game.Config{Players: tc.n, Stacks: []json.RawMessage{stackJSON(hands, "H")}}); err != nil {
				t.Fatalf("the block deal is refused: %v", err)
			}
			bad := slices.Clone(hands[0])
			bad[0] = "S1"
			_, err := NewState(game.Config{Players: tc.n, Stacks: []json.RawMessage{stackJSON([][]string{bad}, "")}})
			if tc.onesOut != (err != nil) {
				t.Fatalf("a hand with S1: error %v; the 1s are out: %v", err, tc.onesOut)
			}
			dup := slices.Clone(hands[0])
			dup[1] = dup[0]
			if _, err := NewState(game.Config{Players: tc.n, Stacks: []json.RawMessage{stackJSON([][]string{dup}, "")}}); err == nil {
				t.Fatal("a card dealt twice was accepted")
			}
			if _, err := NewState(game.Config{Players: tc.n, Stacks: []json.RawMessage{stackJSON([][]string{hands[0][1:]}, "")}}); err == nil {
				t.Fatal("a short hand was accepted")
			}
		})
	}
}

// A stacked deal is dealt as given; the seats it leaves out get the rest.
func TestStackedDeal(t *testing.T) {
	for _, tc := range tables {
		hands := blocks(tc.n)
		st := mustNew(t, tc.n, "", stackJSON(hands, ""))
		for s := 0; s < tc.n; s++ {
			if got := st.view(game.Seat(s)).Hand; !slices.Equal(sorted(got), sorted(hands[s])) {
				t.Fatalf("%dp seat %d: dealt %v, stacked %v", tc.n, s, got, hands[s])
			}
		}
		part := mustNew(t, tc.n, "", stackJSON(hands[:1], ""))
		if got := part.view(0).Hand; !slices.Equal(sorted(got), sorted(hands[0])) {
			t.Fatalf("%dp: partial stack not dealt to seat 0", tc.n)
		}
		if err := part.Check(); err != nil {
			t.Fatal(err)
		}
	}
}

// Passing: everyone passes that many cards to the left neighbour, all at
// once; nobody sees what they receive before their own pass is in, and
// nothing moves until every pass is in.
func TestPassLeftSimultaneous(t *testing.T) {
	for _, tc := range tables {
		t.Run(fmt.Sprintf("%dp", tc.n), func(t *testing.T) {
			hands := blocks(tc.n)
			st := mustNew(t, tc.n, "", stackJSON(hands, ""))
			var log game.Log
			k := tc.passed
			// Seat 0 chooses one card at a time, the others at once;
			// seats commit in reverse order, so that some receive from
			// seats already committed before they commit themselves.
			for i := 0; i < k-1; i++ {
				do(t, st, 0, passJSON(hands[0][i]), &log)
				if v := st.view(0); len(v.MyPass) != i+1 || !st.ToMove().Has(0) {
					t.Fatalf("after %d steps: my_pass %v, still to move %v", i+1, v.MyPass, st.ToMove().Has(0))
				}
			}
			for s := tc.n - 1; s >= 0; s-- {
				if s == 0 {
					do(t, st, 0, passJSON(hands[0][k-1]), &log)
				} else {
					do(t, st, game.Seat(s), passJSON(hands[s][:k]...), &log)
				}
				if s == 0 {
					break
				}
				// Nothing has moved: hands as dealt, nothing received,
				// no die yet.
				for r := 0; r < tc.n; r++ {
					v := st.view(game.Seat(r))
					if !slices.Equal(sorted(v.Hand), sorted(hands[r])) || v.Received != nil || v.Die != "" || v.Phase != "pass" {
						t.Fatalf("seat %d sees %v, received %v, die %q before every pass is in", r, v.Hand, v.Received, v.Die)
					}
				}
				if st.ToMove().Has(game.Seat(s)) || !st.ToMove().Has(0) {
					t.Fatalf("to move %v after seat %d passed", st.ToMove().List(), s)
				}
				refuse(t, st, game.Seat(s), passJSON(hands[s][k]), "already passed")
			}
			for r := 0; r < tc.n; r++ {
				from := (r + tc.n - 1) % tc.n
				var want []string
				want = append(want, hands[r][k:]...)
				want = append(want, hands[from][:k]...)
				v := st.view(game.Seat(r))
				if !slices.Equal(sorted(v.Hand), sorted(want)) {
					t.Fatalf("seat %d holds %v after the pass, want %v", r, v.Hand, sorted(want))
				}
				if !slices.Equal(sorted(v.Received), sorted(hands[from][:k])) || !slices.Equal(sorted(v.MyPass), sorted(hands[r][:k])) {
					t.Fatalf("seat %d: received %v, passed %v", r, v.Received, v.MyPass)
				}
				// The receiver's events named the passed cards only at
				// the transfer, after its own pass.
				own := -1
				for i, e := range log.For(game.Seat(r)) {
					ev := e.Data.(Event)
					if ev.Type == "pass" && ev.Seat == game.Seat(r) {
						own = i
					}
					if ev.Type == "received" && own < 0 {
						t.Fatalf("seat %d received cards before its own pass", r)
					}
					if ev.Type != "received" && ev.Seat != game.Seat(r) && len(ev.Cards) > 0 {
						t.Fatalf("seat %d was told %+v", r, ev)
					}
				}
			}
			if st.ToMove() != game.Only(0) || st.view(0).Die == "" {
				t.Fatalf("after the pass: to move %v, die %q; the dealer leads", st.ToMove().List(), st.view(0).Die)
			}
		})
	}
}

func TestPassRefused(t *testing.T) {
	for _, tc := range tables {
		hands := blocks(tc.n)
		st := mustNew(t, tc.n, "", stackJSON(hands, ""))
		k := tc.passed
		refuse(t, st, 0, passJSON(hands[0][:k-1]...), fmt.Sprintf("exactly %d", k))
		refuse(t, st, 0, passJSON(hands[0][:k+1]...), fmt.Sprintf("exactly %d", k))
		refuse(t, st, 0, passJSON(hands[1][0]), "do not hold")
		refuse(t, st, 0, playJSON(hands[0][0]), "passes")
		do(t, st, 0, passJSON(hands[0][0]), nil)
		refuse(t, st, 0, passJSON(hands[0][0]), "already chosen")
		refuse(t, st, 0, passJSON(hands[0][1:k+1]...), "give the")
		refuse(t, st, game.Seat(tc.n), passJSON(hands[0][1]), "not at this table")
	}
}

// Papayoo: the die is rolled after the pass; it names a plain suit, each
// on two of its eight faces, and the 7 of that suit is the Papayoo.
func TestDie(t *testing.T) {
	var faces [Suits]int
	const games = 800
	for seed := uint64(0); seed < games; seed++ {
		st, _ := NewState(game.Config{Players: 4, Seed: seed})
		if st.view(0).Die != "" || st.die != none {
			t.Fatal("the die is rolled before the pass")
		}
		passFirst(t, st)
		v := st.view(game.Spectator)
		d := strings.Index(suitLetters, v.Die)
		if d < 0 || d >= Payoo || v.Papayoo != v.Die+"7" {
			t.Fatalf("die %q, papayoo %q", v.Die, v.Papayoo)
		}
		faces[d]++
	}
	for d := 0; d < Payoo; d++ {
		if faces[d] < games/4-70 || faces[d] > games/4+70 {
			t.Fatalf("die suits %v over %d rolls: not one in four", faces, games)
		}
	}
	for _, die := range []string{"P", "X", "", "HH", "h"} {
		raw := json.RawMessage(`{"die":"` + die + `"}`)
		if _, err := NewState(game.Config{Players: 4, Stacks: []json.RawMessage{raw}}); err == nil {
			t.Fatalf("die %q accepted", die)
		}
	}
	for _, die := range []string{"S", "H", "D", "C"} {
		st := mustNew(t, 5, "", json.RawMessage(`{"die":"`+die+`"}`))
		passFirst(t, st)
		if v := st.view(1); v.Die != die || v.Papayoo != die+"7" {
			t.Fatalf("stacked die %s: rolled %s, papayoo %s", die, v.Die, v.Papayoo)
		}
	}
}

// The dealer rotates each round (round 1: seat 0) and leads the first
// trick; the game lasts `rounds` rounds, by default one per player.
func TestDealerRotatesAndLeads(t *testing.T) {
	for _, tc := range tables {
		for _, opts := range []string{"", `{"rounds":2}`, fmt.Sprintf(`{"rounds":%d}`, tc.n+3)} {
			want := tc.n
			fmt.Sscanf(opts, `{"rounds":%d}`, &want)
			st := mustNew(t, tc.n, opts)
			for round := 1; !st.Over(); round++ {
				v := st.view(game.Spectator)
				if v.Round != round || v.Dealer != game.Seat((round-1)%tc.n) {
					t.Fatalf("%dp round %d: view says round %d, dealer %d", tc.n, round, v.Round, v.Dealer)
				}
				passFirst(t, st)
				if st.ToMove() != game.Only(v.Dealer) {
					t.Fatalf("%dp round %d: %v leads, not the dealer %d", tc.n, round, st.ToMove().List(), v.Dealer)
				}
				for !st.Over() && st.rounds < round {
					s := st.ToMove().First()
					do(t, st, s, playJSON(legalCards(st, s)[0]), nil)
				}
			}
			if res := st.Result(); res.Rounds != want {
				t.Fatalf("%dp %s: %d rounds, want %d", tc.n, opts, res.Rounds, want)
			}
		}
	}
}

// Tricks: players play clockwise and must follow the led suit if they
// can, with no obligation to play higher; one who cannot plays any card.
func TestFollowSuit(t *testing.T) {
	for _, tc := range tables {
		for seed := uint64(0); seed < 30; seed++ {
			st, _ := NewState(game.Config{Players: tc.n, Seed: seed})
			passFirst(t, st)
			lead := legalCards(st, 0)
			if len(lead) != tc.each {
				t.Fatalf("%dp: the leader may play %d cards, holds %d", tc.n, len(lead), tc.each)
			}
			led := lead[len(lead)-1]
			do(t, st, 0, playJSON(led), nil)
			s := game.Seat(1)
			if st.ToMove() != game.Only(s) {
				t.Fatalf("%dp: seat %v plays after seat 0", tc.n, st.ToMove().List())
			}
			refuse(t, st, 2, playJSON(st.view(2).Hand[0]), "turn")
			hand := st.view(s).Hand
			var follow, other []string
			for _, c := range hand {
				if c[0] == led[0] {
					follow = append(follow, c)
				} else {
					other = append(other, c)
				}
			}
			got := legalCards(st, s)
			switch {
			case len(follow) > 0:
				// Every card of the suit, lower ones included.
				if !slices.Equal(sorted(got), sorted(follow)) {
					t.Fatalf("%dp: %s led, seat 1 holds %v, may play %v", tc.n, led, hand, got)
				}
				if len(other) > 0 {
					refuse(t, st, s, playJSON(other[0]), "must follow "+suitNames[strings.IndexByte(suitLetters, led[0])])
				}
			default:
				if !slices.Equal(sorted(got), sorted(hand)) {
					t.Fatalf("%dp: seat 1 is void in %c but may play only %v", tc.n, led[0], got)
				}
			}
			refuse(t, st, s, playJSON(st.view(2).Hand[0]), "do not hold")
		}
	}
}

// One trick of each kind on a stacked 4-player deal: a plain suit led
// (the highest of the led suit wins, not a higher Payoo), the Payoo suit
// led (Payoo is a suit: it must be followed), the Papayoo discarded.
// Points: each Payoo its number, the Papayoo 40, any other card 0.
func TestTricks4(t *testing.T) {
	st := mustNew(t, 4, "", stackJSON(blocks(4), "S"))
	passFirst(t, st)
	// seat 0: S6-S10 H1-H5 P6-P10; seat 1: S1-S5 D1-D10;
	// seat 2: H6-H10 C6-C10 P1-P5; seat 3: C1-C5 P11-P20.
	var log game.Log
	do(t, st, 0, playJSON("S6"), &log)
	do(t, st, 1, playJSON("S5"), &log) // lower: allowed
	do(t, st, 2, playJSON("P5"), &log) // void in spades
	do(t, st, 3, playJSON("P20"), &log)
	if st.taken != [MaxPlayers]int{25} || st.ToMove() != game.Only(0) {
		t.Fatalf("S6 should win 25 points and lead: taken %v, to move %v", st.taken, st.ToMove().List())
	}
	if ev := log.Events[len(log.Events)-1].Data.(Event); ev.Type != "trick" || ev.Seat != 0 || *ev.Points != 25 {
		t.Fatalf("trick event %+v", ev)
	}
	do(t, st, 0, playJSON("P6"), nil)
	do(t, st, 1, playJSON("D10"), nil) // no Payoo
	refuse(t, st, 2, playJSON("H6"), "must follow payoo")
	do(t, st, 2, playJSON("P4"), nil)
	do(t, st, 3, playJSON("P11"), nil)
	if st.taken[3] != 21 || st.ToMove() != game.Only(3) {
		t.Fatalf("P11 should win 6+4+11: taken %v, to move %v", st.taken, st.ToMove().List())
	}
	do(t, st, 3, playJSON("C1"), nil)
	do(t, st, 0, playJSON("S7"), nil) // the Papayoo: the die said S
	do(t, st, 1, playJSON("D1"), nil)
	do(t, st, 2, playJSON("C6"), nil)
	if st.taken[2] != 40 || st.ToMove() != game.Only(2) {
		t.Fatalf("C6 should take the Papayoo's 40: taken %v", st.taken)
	}
	// Another 7 is worth nothing.
	do(t, st, 2, playJSON("H6"), nil)
	do(t, st, 3, playJSON("C2"), nil)
	do(t, st, 0, playJSON("H5"), nil)
	do(t, st, 1, playJSON("D7"), nil)
	if st.taken != [MaxPlayers]int{25, 0, 40, 21} || st.ToMove() != game.Only(2) {
		t.Fatalf("H6 should win a trick worth 0: taken %v", st.taken)
	}
}

// Information: every played card and who played it, trick winners, the
// die and points taken are public, a spectator included; hands and passes
// are not.
func TestPublicInformation(t *testing.T) {
	for _, tc := range tables {
		st := mustNew(t, tc.n, "", stackJSON(blocks(tc.n), "D"))
		passFirst(t, st)
		var played []Played
		for i := 0; i < tc.n; i++ {
			s := st.ToMove().First()
			c := legalCards(st, s)[0]
			do(t, st, s, playJSON(c), nil)
			played = append(played, Played{Seat: s, Card: c})
			if i < tc.n-1 {
				if v := st.view(game.Spectator); !slices.Equal(v.Trick, played) {
					t.Fatalf("%dp: spectator sees trick %v, played %v", tc.n, v.Trick, played)
				}
			}
		}
		v := st.view(game.Spectator)
		if v.LastTrick == nil || !slices.Equal(v.LastTrick.Cards, played) || v.LastTrick.Winner != st.ToMove().First() {
			t.Fatalf("%dp: spectator's last trick %+v, played %v", tc.n, v.LastTrick, played)
		}
		if v.Die != "D" || v.Papayoo != "D7" || v.Taken[v.LastTrick.Winner] != v.LastTrick.Points {
			t.Fatalf("%dp: spectator sees die %q, taken %v", tc.n, v.Die, v.Taken)
		}
		if v.Hand != nil || v.MyPass != nil || v.Received != nil {
			t.Fatalf("%dp: a spectator sees a hand or a pass", tc.n)
		}
		for s := 0; s < tc.n; s++ {
			if got := st.view(game.Seat(s)).HandSizes; got[s] != tc.each-1 {
				t.Fatalf("%dp: hand sizes %v", tc.n, got)
			}
		}
	}
}
