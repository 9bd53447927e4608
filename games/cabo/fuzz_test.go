package cabo

import (
	"encoding/json"
	"testing"

	"tapis/game"
	"tapis/game/gametest"
)

// FuzzUnmarshalMove: no input panics, and whatever decodes re-encodes to a
// move that decodes to the same code.
func FuzzUnmarshalMove(f *testing.F) {
	for _, s := range []string{
		`{"type":"peek_initial","slots":[0,1]}`, `{"type":"take_discard","slots":[2]}`,
		`{"type":"draw"}`, `{"type":"replace","slots":[0,3]}`, `{"type":"discard"}`,
		`{"type":"peek","slot":1}`, `{"type":"spy","seat":2,"slot":0}`,
		`{"type":"swap","a":{"seat":0,"slot":1},"b":{"seat":2,"slot":0}}`, `{"type":"cabo"}`,
		`{"type":"swap","a":{"seat":9,"slot":-1}}`, `{"type":"replace","slots":[0,0]}`, `[]`, `null`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) { gametest.MoveCodec(t, Game{}, data) })
}

// FuzzNew: no options object or stack makes New panic, and what it
// accepts is a sound state.
func FuzzNew(f *testing.F) {
	f.Add(2, []byte(`{"hand_size":6}`), []byte(`{"hands":[[1,2,3,4,5,6]],"discard":4,"draw":[13,0]}`))
	f.Add(5, []byte(`{"max_resets":null}`), []byte(`{"hands":[[13,13,12,12]]}`))
	f.Add(3, []byte(``), []byte(`{}`))
	f.Fuzz(func(t *testing.T, players int, opts, stack []byte) {
		st, err := NewState(game.Config{Players: players, Options: json.RawMessage(opts), Stacks: []json.RawMessage{stack}})
		if err != nil {
			return
		}
		if err := st.Check(); err != nil {
			t.Fatalf("accepted a broken state: %v", err)
		}
	})
}
