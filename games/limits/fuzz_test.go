package limits

import (
	"encoding/json"
	"testing"

	"tapis/game"
	"tapis/game/gametest"
)

// No move JSON may panic the decoder, and every move it accepts encodes
// back to itself.
func FuzzUnmarshalMove(f *testing.F) {
	for _, s := range []string{
		`{"type":"hide","cards":["red"]}`,
		`{"type":"hide","cards":["red","green"]}`,
		`{"type":"hide","cards":["green","red"]}`,
		`{"type":"place","card":"blue"}`,
		`{"type":"exchange","color":"green"}`,
		`{"type":"accuse","seat":2}`,
		`{"type":"accuse","seat":-1}`,
		`{"type":"hide","cards":[]}`,
		`{"type":"place","card":"blue","seat":1}`,
		`{"type":"pass"}`,
		`{}`, `null`, `[]`, `{"type":"place","card":"blue"} {}`,
	} {
		f.Add([]byte(s))
	}
	g := Game{}
	f.Fuzz(func(t *testing.T, data []byte) {
		if m := gametest.MoveCodec(t, g, data); m != 0 && !wellFormed(m) {
			t.Fatalf("%s decoded to %#x, not a well-formed move", data, uint64(m))
		}
	})
}

// No stack may panic New; an accepted one gives a sound state that plays.
func FuzzNewStack(f *testing.F) {
	for _, s := range []string{
		`{"hands":[["red","red","blue","blue","green","green"],["purple","purple","purple","yellow","yellow","yellow"]],"draw":["red","blue"],"limits":[3,1]}`,
		`{"draw":["green","green","green","green","green","green","green","green","green","green","green","green"]}`,
		`{"limits":[24,23,22,21,20,19,18,17,16,15]}`,
		`{"hands":[["red"]]}`, `{"limits":[0]}`, `{"limits":[3,3]}`, `{}`, `null`, `[]`, `{"draw":["pink"]}`,
	} {
		f.Add([]byte(s), uint8(2))
		f.Add([]byte(s), uint8(3))
	}
	f.Fuzz(func(t *testing.T, data []byte, players uint8) {
		n := 2 + int(players)%5
		st, err := NewState(game.Config{Players: n, Seed: 3, Stacks: []json.RawMessage{data}})
		if err != nil {
			return
		}
		if err := st.Check(); err != nil {
			t.Fatalf("%s: %v", data, err)
		}
		r := game.NewRNG(1)
		var buf []game.Move
		for i := 0; i < 200 && !st.Over(); i++ {
			to := st.ToMove()
			s := to.Nth(r.IntN(to.Len()))
			buf = st.Legal(s, buf[:0])
			if err := st.Apply(s, buf[r.IntN(len(buf))], nil); err != nil {
				t.Fatal(err)
			}
			if err := st.Check(); err != nil {
				t.Fatal(err)
			}
		}
	})
}

// No options object may panic; only an empty one is accepted.
func FuzzOptions(f *testing.F) {
	for _, s := range []string{`{}`, `null`, ``, `{"hand_size":5}`, `[]`, `{} {}`, `"x"`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		if _, err := ParseOptions(data); err != nil {
			return
		}
		if _, err := NewState(game.Config{Players: 4, Options: data}); err != nil {
			t.Fatalf("options %q parsed but New refused them: %v", data, err)
		}
	})
}
