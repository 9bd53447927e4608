package dacapo

import (
	"encoding/json"
	"testing"

	"tapis/game"
	"tapis/game/gametest"
)

// No move JSON may panic the decoder, and every move it accepts encodes
// back to the same code.
func FuzzUnmarshalMove(f *testing.F) {
	for _, s := range []string{
		`{"type":"build","from":"hand","card":5,"pile":0}`,
		`{"type":"build","from":"hand","card":"J","pile":2}`,
		`{"type":"build","from":"stock","pile":1}`,
		`{"type":"build","from":"helper","index":2,"pile":0}`,
		`{"type":"build","from":"opponent","seat":3,"pile":2}`,
		`{"type":"helper","card":7,"index":1}`,
		`{"type":"helper","card":"J","index":0}`,
		`{"type":"end"}`,
		`{"type":"end","pile":0}`,
		`{"type":"build","from":"hand","card":0,"pile":0}`,
		`{"type":"build","from":"stock","pile":3}`,
		`{"type":"helper","card":7}`,
		`{"type":"build","card":null,"pile":1}`,
		`{}`, `null`, `[]`, `{"type":"pass"}`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		if m := gametest.MoveCodec(t, Game{}, data); m != 0 && !wellFormed(m) {
			t.Fatalf("%s decoded to %#x, not a well-formed move", data, uint64(m))
		}
	})
}

// No options object or stack may panic New, and every state it makes
// holds the 165 cards.
func FuzzNew(f *testing.F) {
	for _, s := range []struct {
		players int
		opts    string
		stack   string
	}{
		{2, ``, `{"stocks":[[1,"J",3]],"hands":[[4,5,6,7]],"draw":[8,9]}`},
		{6, `{"pile_size":23}`, `{"stocks":[[],[],[],[],[],[10]]}`},
		{3, `{"pile_size":5,"match_target":50}`, `{"hands":[["J","J","J","J"]]}`},
		{2, `{"pile_size":40}`, `{"draw":[1,2,3,4,5,6,7,8,9,10]}`},
		{2, `{"pile_size":-1}`, `{}`},
		{4, `null`, `null`},
		{5, `{"match_target":1e3}`, `{"stocks":[[0]]}`},
	} {
		f.Add(s.players, []byte(s.opts), []byte(s.stack), uint64(1))
	}
	f.Fuzz(func(t *testing.T, players int, opts, stack []byte, seed uint64) {
		st, err := NewState(game.Config{Players: players, Options: json.RawMessage(opts), Seed: seed, Stacks: []json.RawMessage{stack}})
		if err != nil {
			return
		}
		if err := st.Check(); err != nil {
			t.Fatalf("%s %s: %v", opts, stack, err)
		}
	})
}

// No options object may panic ParseOptions; accepted options are in range.
func FuzzOptions(f *testing.F) {
	for _, s := range []string{``, `{}`, `{"pile_size":20}`, `{"match_target":50}`, `{"pile_size":1,"match_target":0}`, `{"x":1}`, `{"pile_size":1}{}`} {
		f.Add([]byte(s), 2)
	}
	f.Fuzz(func(t *testing.T, data []byte, players int) {
		o, err := ParseOptions(json.RawMessage(data), players)
		if err != nil {
			return
		}
		if o.PileSize < 1 || o.PileSize > MaxPileSize || o.MatchTarget < 0 || players*(o.PileSize+HandSize) > DeckSize {
			t.Fatalf("%s accepted as %+v", data, o)
		}
	})
}
