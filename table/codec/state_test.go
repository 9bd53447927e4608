package codec

import (
	"bytes"
	"encoding/json"
	"math/rand/v2"
	"reflect"
	"testing"

	"tapis/game"
	"tapis/games"
	"tapis/history"
	"tapis/wire"
)

// oldState is the state message as stateFor built it before encode.go:
// encoding/json over a wire.State, the legal moves marshalled one by one.
func oldState(g game.Game, st game.State, p *StateParts, s game.Seat, evs []game.Event) []byte {
	msg := wire.State[any]{
		Type: "state", Match: p.Match, N: p.N, Status: p.Status, By: int(p.By), Standin: p.Standin,
		View: st.View(s), Legal: []json.RawMessage{}, ToMove: seatInts(p.ToMove.List()),
		Result: wire.Result{Rounds: p.Result.Rounds, Scores: p.Result.Scores, RoundScores: p.Result.RoundScores,
			Winners: seatInts(p.Result.Winners)},
		Rounds: p.Rounds, Events: []any{},
	}
	if p.TurnLeft != nil {
		msg.TurnLeft = map[int]int64{}
		for s, ms := range p.TurnLeft {
			msg.TurnLeft[int(s)] = ms
		}
	}
	if s != game.Spectator {
		for _, m := range st.Legal(s, nil) {
			if js, err := g.MarshalMove(m); err == nil {
				msg.Legal = append(msg.Legal, js)
			}
		}
	}
	for _, e := range evs {
		if e.To.Has(s) {
			msg.Events = append(msg.Events, e.Data)
		}
	}
	return Encode(msg)
}

// seatInts gives seats as the wire has them, keeping nil nil (encoding/json
// writes null for it).
func seatInts(seats []game.Seat) []int {
	if seats == nil {
		return nil
	}
	out := make([]int, len(seats))
	for i, s := range seats {
		out[i] = int(s)
	}
	return out
}

// The state messages encode.go writes are byte for byte those of
// encoding/json over a wire.State, for every seat and a spectator, at every
// position of random games of every game and table size, with and
// without a time per move.
func TestStateEncodingMatchesJSON(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	positions, over := 0, 0
	for _, g := range games.All() {
		lo, hi := g.Players()
		codec := For(g)
		for players := lo; players <= hi; players++ {
			for game_ := 0; game_ < 2; game_++ {
				var log game.Log
				st, err := g.New(game.Config{Players: players, Seed: rng.Uint64(), Log: &log})
				if err != nil {
					t.Fatal(err)
				}
				rounds := [][]int{}
				by := game.Spectator
				for n := 0; n < 3000; n++ {
					rounds = history.NoteRound(rounds, st.Result())
					status := wire.StatusPlaying
					if st.Over() {
						status = wire.StatusOver
					}
					p := StateParts{Match: 1 + game_, N: n, Status: status, By: by, Standin: by >= 0 && n%3 == 0, ToMove: st.ToMove(),
						Result: st.Result(), Rounds: rounds}
					if n%3 == 1 {
						p.TurnLeft = map[game.Seat]int64{}
						for _, s := range st.ToMove().List() {
							p.TurnLeft[s] = int64(rng.IntN(30000))
						}
					}
					e := NewStateEncoder(g, codec, st, &p, log.Events)
					for s := game.Spectator; s < game.Seat(players); s++ {
						got, want := e.Seat(s), oldState(g, st, &p, s, log.Events)
						if !bytes.Equal(got, want) {
							var a, b any
							json.Unmarshal(got, &a)
							json.Unmarshal(want, &b)
							t.Fatalf("%s, %d players, move %d, seat %d:\n got %s\nwant %s\n(equal as values: %v)",
								g.Name(), players, n, s, got, want, reflect.DeepEqual(a, b))
						}
						positions++
					}
					e.Release()
					if st.Over() {
						over++
						break
					}
					seats := st.ToMove()
					by = seats.Nth(rng.IntN(seats.Len()))
					legal := st.Legal(by, nil)
					log.Reset()
					if err := st.Apply(by, legal[rng.IntN(len(legal))], &log); err != nil {
						t.Fatal(err)
					}
				}
			}
		}
	}
	t.Logf("%d messages compared, %d games played to the end", positions, over)
}

// The move codec answers as the game's own codec: the same JSON for a
// move, the same move for the JSON it listed, and the game's error for
// JSON it never listed.
func TestMoveCodecMatchesGame(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	for _, g := range games.All() {
		codec := For(g)
		lo, _ := g.Players()
		st, err := g.New(game.Config{Players: lo, Seed: rng.Uint64()})
		if err != nil {
			t.Fatal(err)
		}
		for n := 0; n < 300 && !st.Over(); n++ {
			s := st.ToMove().First()
			for _, m := range st.Legal(s, nil) {
				want, err := g.MarshalMove(m)
				if err != nil {
					t.Fatal(err)
				}
				for range 2 { // learnt, then cached
					got, err := codec.Marshal(m)
					if err != nil || !bytes.Equal(got, want) || cap(got) != len(got) {
						t.Fatalf("%s: marshal %#x = %s, %v; want %s", g.Name(), m, got, err, want)
					}
					back, err := codec.Unmarshal(want)
					if err != nil || back != m {
						t.Fatalf("%s: unmarshal %s = %#x, %v; want %#x", g.Name(), want, back, err, m)
					}
				}
			}
			legal := st.Legal(s, nil)
			if err := st.Apply(s, legal[rng.IntN(len(legal))], nil); err != nil {
				t.Fatal(err)
			}
		}
		for _, bad := range []string{`{"type":"nope"}`, `{"type":"draw","x":1}`, `[]`, `{`} {
			_, want := g.UnmarshalMove([]byte(bad))
			if _, got := codec.Unmarshal([]byte(bad)); (got == nil) != (want == nil) || got != nil && got.Error() != want.Error() {
				t.Fatalf("%s: unmarshal %s: %v, want %v", g.Name(), bad, got, want)
			}
		}
	}
}

// AppendSeat appends to the buffer it is given exactly what Seat
// returns, each seat's message after the others' in one buffer, as the
// table's broadcast uses it (issue 28).
func TestAppendSeatIsSeat(t *testing.T) {
	for _, g := range games.All() {
		lo, hi := g.Players()
		codec := For(g)
		for players := lo; players <= hi; players++ {
			var log game.Log
			st, err := g.New(game.Config{Players: players, Seed: 7, Log: &log})
			if err != nil {
				t.Fatal(err)
			}
			p := StateParts{Match: 1, Status: wire.StatusPlaying, By: game.Spectator, ToMove: st.ToMove(), Result: st.Result(), Rounds: [][]int{}}
			e := NewStateEncoder(g, codec, st, &p, log.Events)
			buf := []byte("prefix")
			var want []byte
			want = append(want, buf...)
			for s := game.Spectator; s < game.Seat(players); s++ {
				buf = e.AppendSeat(buf, s)
				want = append(want, e.Seat(s)...)
			}
			e.Release()
			if !bytes.Equal(buf, want) {
				t.Fatalf("%s, %d players: AppendSeat's messages differ from Seat's", g.Name(), players)
			}
		}
	}
}
