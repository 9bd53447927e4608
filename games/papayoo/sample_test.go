package papayoo

import (
	"encoding/json"
	"reflect"
	"testing"

	"tapis/game"
)

// Two deals that look the same to seat 0 (its own hand, and the hand of
// seat n-1, which passes to it) but differ elsewhere give the same sample,
// during the pass and after it; and a pass still being chosen by another
// seat, which seat 0 cannot see, does not change the sample either.
func TestSampleDependsOnlyOnTheSeat(t *testing.T) {
	for n := 4; n <= MaxPlayers; n++ {
		a := blocks(n)
		b := blocks(n)
		b[1], b[2] = b[2], b[1]
		sa := mustNew(t, n, "", stackJSON(a, "D"))
		sb := mustNew(t, n, "", stackJSON(b, "D"))
		same := func(when string) {
			t.Helper()
			for i := uint64(0); i < 5; i++ {
				ra, rb := game.NewRNG(i), game.NewRNG(i)
				if !reflect.DeepEqual(sa.Sample(0, &ra), sb.Sample(0, &rb)) {
					t.Fatalf("%dp %s: samples for seat 0 differ", n, when)
				}
			}
		}
		same("at the deal")
		k := PassSize(n)
		do(t, sa, 2, passJSON(a[2][0]), nil) // a step seat 0 cannot see
		same("after a hidden pass step")
		for s := 0; s < n; s++ {
			if s == 2 {
				do(t, sa, 2, passJSON(a[2][1:k]...), nil)
			} else {
				do(t, sa, game.Seat(s), passJSON(a[s][:k]...), nil)
			}
			do(t, sb, game.Seat(s), passJSON(b[s][k:2*k]...), nil)
			if s == 0 {
				// Seat 0 passes the same cards in both.
				sb = mustNew(t, n, "", stackJSON(b, "D"))
				do(t, sb, 0, passJSON(a[0][:k]...), nil)
			}
			if s == n-1 {
				break
			}
			same("during the pass")
		}
		// Seat n-1 passed a[n-1][:k] in sa and b[n-1][k:2k] in sb: seat 0
		// would see a difference. Redo sb's last pass to match.
		sb = mustNew(t, n, "", stackJSON(b, "D"))
		for s := 0; s < n; s++ {
			switch s {
			case 0, n - 1:
				do(t, sb, game.Seat(s), passJSON(a[s][:k]...), nil)
			default:
				do(t, sb, game.Seat(s), passJSON(b[s][k:2*k]...), nil)
			}
		}
		same("after the pass")
	}
}

// Samples keep what the seat knows: its hand, the cards it passed (with
// its left neighbour until played), the voids shown, every played card.
func TestSampleKeepsKnowledge(t *testing.T) {
	for n := MinPlayers; n <= MaxPlayers; n++ {
		for g := uint64(0); g < 10; g++ {
			st, _ := NewState(game.Config{Players: n, Seed: g})
			rng := game.NewRNG(g)
			var buf []game.Move
			steps := 0
			for st.rounds == 0 && !st.Over() {
				to := st.ToMove()
				s := to.Nth(rng.IntN(to.Len()))
				if st.phase == phasePlay && steps%5 == 0 {
					for seat := game.Seat(0); int(seat) < n; seat++ {
						checkSample(t, st, seat, rng.Uint64())
					}
				}
				buf = st.Legal(s, buf[:0])
				if err := st.Apply(s, buf[rng.IntN(len(buf))], nil); err != nil {
					t.Fatal(err)
				}
				steps++
			}
		}
	}
}

func checkSample(t *testing.T, st *State, s game.Seat, seed uint64) {
	t.Helper()
	r := game.NewRNG(seed)
	y := st.Sample(s, &r).(*State)
	if err := y.Check(); err != nil {
		t.Fatalf("sample for seat %d: %v", s, err)
	}
	left := st.next(s)
	switch {
	case y.hands[s] != st.hands[s]:
		t.Fatalf("seat %d: the sample changed its hand", s)
	case y.hands[left]&st.pass[s] != st.hands[left]&st.pass[s]:
		t.Fatalf("seat %d: the cards it passed left its neighbour in the sample", s)
	case y.pass[s] != st.pass[s] || y.pass[st.prev(s)] != st.pass[st.prev(s)]:
		t.Fatalf("seat %d: the sample changed the passes it knows", s)
	case y.playedBy != st.playedBy || y.voids != st.voids:
		t.Fatalf("seat %d: the sample changed public cards", s)
	}
	for t2 := 0; t2 < int(st.n); t2++ {
		for k := int8(0); k < Suits; k++ {
			if st.voids[t2]&(1<<uint(k)) != 0 && y.hands[t2]&suitMask[k] != 0 {
				t.Fatalf("seat %d's sample gives seat %d a %s, though it showed a void", s, t2, suitNames[k])
			}
		}
		if count(y.hands[t2]) != count(st.hands[t2]) {
			t.Fatalf("hand sizes changed")
		}
	}
}

// Voids so tight that shuffle-and-deal almost never fits still give a
// correct deal (the one-card-at-a-time fallback), and every solution can
// come out.
func TestDealUnknownTightVoids(t *testing.T) {
	set := suitMask[Payoo]&(1<<45-1) | suitMask[0]&(1<<5-1) | suitMask[1]&(1<<15-1)
	// 5 Payoos, 5 spades, 5 hearts. Seat 0: 5 cards, Payoo only; seat 1:
	// 5 cards, no Payoo and no hearts; seat 2: 5 cards, anything.
	need := [MaxPlayers]int{5, 5, 5}
	allowed := [MaxPlayers]uint8{1 << Payoo, 0b11101 &^ (1 << 1), 0b11111}
	seen := map[uint64]bool{}
	for i := uint64(0); i < 300; i++ {
		r := game.NewRNG(i)
		var deal [MaxPlayers]uint64
		dealUnknown(&deal, set, need, allowed, &[MaxPlayers]uint64{}, 3, &r)
		if deal[0] != suitMask[Payoo]&set || deal[1] != suitMask[0]&set || deal[2] != suitMask[1]&set {
			t.Fatalf("deal %v breaks the voids", [3][]string{names(deal[0]), names(deal[1]), names(deal[2])})
		}
		seen[deal[2]] = true
	}
	// Looser: seat 1 may also take hearts; several deals are possible.
	allowed[1] |= 1 << 1
	for i := uint64(0); i < 300; i++ {
		r := game.NewRNG(i)
		var deal [MaxPlayers]uint64
		dealUnknown(&deal, set, need, allowed, &[MaxPlayers]uint64{}, 3, &r)
		if deal[0]|deal[1]|deal[2] != set || count(deal[0]) != 5 || count(deal[1]) != 5 ||
			deal[0] != suitMask[Payoo]&set || deal[1]&suitMask[Payoo] != 0 {
			t.Fatalf("bad deal %v", [3][]string{names(deal[0]), names(deal[1]), names(deal[2])})
		}
		seen[deal[2]] = true
	}
	if len(seen) < 50 {
		t.Fatalf("only %d different deals", len(seen))
	}
}

// A sample's own future (die rolls, later deals, stacked rounds) comes
// from r, not from the state's seed or stacks.
func TestSampleFuture(t *testing.T) {
	st := mustNew(t, 4, "", stackJSON(blocks(4), "C"), stackJSON(blocks(4), "C"))
	r := game.NewRNG(5)
	y := st.Sample(0, &r).(*State)
	if y.stacks != nil {
		t.Fatal("a sample keeps the scripted future")
	}
	raw, _ := json.Marshal(y.Dump())
	if len(raw) == 0 {
		t.Fatal("no dump")
	}
}

// Without voids, a sample deals the unknown cards uniformly: a card seat
// 0 cannot see is with each other seat about equally often.
func TestSampleUniform(t *testing.T) {
	st := mustNew(t, 4, "", stackJSON(blocks(4), ""))
	c := card(t, "P20") // with seat 3 in truth
	var where [MaxPlayers]int
	const draws = 3000
	for i := uint64(0); i < draws; i++ {
		r := game.NewRNG(i)
		y := st.Sample(0, &r).(*State)
		for s := 1; s < 4; s++ {
			if y.hands[s]&(1<<uint(c)) != 0 {
				where[s]++
			}
		}
	}
	for s := 1; s < 4; s++ {
		if where[s] < draws/3-150 || where[s] > draws/3+150 {
			t.Fatalf("P20 went to seats 1-3 %v times in %d samples", where[1:4], draws)
		}
	}
}

// A spectator's sample redraws every hand and pass and keeps what is
// public.
func TestSampleSpectator(t *testing.T) {
	for n := MinPlayers; n <= MaxPlayers; n++ {
		st, _ := NewState(game.Config{Players: n, Seed: 3})
		passFirst(t, st)
		for i := 0; i < n+1; i++ {
			s := st.ToMove().First()
			do(t, st, s, playJSON(legalCards(st, s)[0]), nil)
		}
		r := game.NewRNG(1)
		y := st.Sample(game.Spectator, &r).(*State)
		if err := y.Check(); err != nil {
			t.Fatal(err)
		}
		if y.hands == st.hands || y.playedBy != st.playedBy || y.ToMove() != st.ToMove() {
			t.Fatalf("%dp: spectator sample kept the hands or changed public cards", n)
		}
	}
}
