package papayoo

import (
	"encoding/json"
	"testing"

	"tapis/game"
	"tapis/game/gametest"
)

// No move JSON may panic the decoder; whatever decodes encodes back to
// the same move.
func FuzzUnmarshalMove(f *testing.F) {
	for _, s := range []string{
		`{"type":"pass","cards":["S7","P20","H1","C9","D2"]}`,
		`{"type":"play","card":"H3"}`,
		`{"type":"pass","cards":["P1"]}`,
		`{"type":"pass","cards":["S7","S7"]}`,
		`{"type":"play","card":"P21"}`,
		`{"type":"play","card":"H0"}`,
		`{"type":"play","cards":["H3"]}`,
		`{"type":"peek"}`,
		`{}`, `null`, `[]`, `{"type":"play","card":"H+3"}`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) { gametest.MoveCodec(t, Game{}, data) })
}

// No stack may panic New; an accepted stack gives a consistent state.
func FuzzStack(f *testing.F) {
	f.Add(4, []byte(`{"hands":[["S1","S2","S3","S4","S5","S6","S7","S8","S9","S10","H1","H2","H3","H4","H5"]],"die":"H"}`))
	f.Add(3, []byte(`{"die":"S"}`))
	f.Add(7, []byte(`{"hands":[["S1","S2","S3","S4","S5","S6","S7","S8"]]}`))
	f.Add(8, []byte(`{"hands":[],"die":"P"}`))
	f.Add(5, []byte(`{"hands":[["P1"]],"extra":1}`))
	f.Add(6, []byte(`[1,2]`))
	f.Fuzz(func(t *testing.T, n int, data []byte) {
		st, err := NewState(game.Config{Players: n, Seed: 1, Stacks: []json.RawMessage{data}})
		if err != nil {
			return
		}
		if err := st.Check(); err != nil {
			t.Fatalf("stack %s: %v", data, err)
		}
	})
}

// No options object may panic New.
func FuzzOptions(f *testing.F) {
	for _, s := range []string{`{"rounds":4}`, `{"rounds":0}`, `{"rounds":-1}`, `{"rounds":null}`, `{"round":3}`, `{}`, `null`, `{"rounds":"4"}`, `{"rounds":4}{}`} {
		f.Add(4, []byte(s))
	}
	f.Fuzz(func(t *testing.T, n int, data []byte) {
		st, err := NewState(game.Config{Players: n, Options: data})
		if err != nil {
			return
		}
		if st.opt.Rounds < 1 || st.opt.Rounds > MaxRounds {
			t.Fatalf("options %s gave %d rounds", data, st.opt.Rounds)
		}
	})
}

// Every options and player count of the table, explicitly.
func TestOptions(t *testing.T) {
	for _, tc := range []struct {
		n    int
		opts string
		want int
		ok   bool
	}{
		{4, ``, 4, true}, {7, `null`, 7, true}, {3, `{}`, 3, true}, {5, `{"rounds":2}`, 2, true},
		{4, `{"rounds":0}`, 0, false}, {4, `{"rounds":40}`, 40, true}, {4, `{"rounds":41}`, 0, false}, {4, `{"rounds":1000}`, 0, false}, {4, `{"round":2}`, 0, false},
		{4, `{"rounds":"2"}`, 0, false}, {2, ``, 0, false}, {9, ``, 0, false},
	} {
		st, err := NewState(game.Config{Players: tc.n, Options: json.RawMessage(tc.opts)})
		if (err == nil) != tc.ok {
			t.Fatalf("%d players, %s: error %v", tc.n, tc.opts, err)
		}
		if err == nil && st.opt.Rounds != tc.want {
			t.Fatalf("%d players, %s: %d rounds, want %d", tc.n, tc.opts, st.opt.Rounds, tc.want)
		}
	}
}
