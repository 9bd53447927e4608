package replay

import (
	"encoding/json"
	"strings"
	"testing"

	"tapis/games"
)

func run(t *testing.T, script string) (Output, error) {
	t.Helper()
	s, err := Read(strings.NewReader(script))
	if err != nil {
		return Output{}, err
	}
	return Run(s, games.Named)
}

func TestRefusedMovesAreListedAndSkipped(t *testing.T) {
	out, err := run(t, `{"game":"cabo","players":3,"options":{"hand_size":4},"seed":42,
		"rounds":[{"hands":[[1,2,3,4],[5,6,7,8],[9,10,11,12]],"discard":4,"draw":[13,0]}],
		"moves":[
		  {"seat":0,"move":{"type":"peek_initial","slots":[0,1]}},
		  {"seat":1,"move":{"type":"draw"}},
		  {"seat":1,"move":{"type":"peek_initial","slots":[2,3]}},
		  {"seat":2,"move":{"type":"peek_initial","slots":[0,3]}},
		  {"seat":2,"move":{"type":"draw"}},
		  {"seat":0,"move":{"type":"fly"}},
		  {"seat":0,"move":{"type":"draw"}},
		  {"seat":0,"move":{"type":"replace","slots":[3]}}]}`)
	if err != nil {
		t.Fatal(err)
	}
	if out.Applied != 5 || len(out.Rejected) != 3 {
		t.Fatalf("applied %d, rejected %v", out.Applied, out.Rejected)
	}
	for i, want := range []struct {
		index int
		text  string
	}{{1, "initial peek"}, {4, "seat 0's turn"}, {5, "unknown type"}} {
		r := out.Rejected[i]
		if r.Index != want.index || !strings.Contains(r.Error, want.text) {
			t.Errorf("rejection %d: %+v, want index %d mentioning %q", i, r, want.index, want.text)
		}
	}
	if out.Round != 0 || out.Over || len(out.Winners) != 0 || len(out.RoundScores) != 0 {
		t.Errorf("unexpected progress: %+v", out)
	}
	if len(out.ToMove) != 1 || out.ToMove[0] != 1 {
		t.Errorf("to_move %v, want [1]", out.ToMove)
	}
	state, _ := json.Marshal(out.State)
	if !strings.Contains(string(state), `"hands":[[1,2,3,13]`) {
		t.Errorf("the dump does not show the stacked, replaced hand: %s", state)
	}
}

// A finished game: scores, round scores and winners.
func TestScriptToTheEnd(t *testing.T) {
	moves := `{"seat":0,"move":{"type":"peek_initial","slots":[0,1]}},
		{"seat":1,"move":{"type":"peek_initial","slots":[0,1]}},
		{"seat":0,"move":{"type":"cabo"}},
		{"seat":1,"move":{"type":"draw"}},{"seat":1,"move":{"type":"discard"}}`
	hands := `{"hands":[[0,1,1,3],[12,12,11,11]],"discard":4}`
	out, err := run(t, `{"game":"cabo","players":2,"seed":1,"rounds":[`+hands+`,`+hands+`,`+hands+`],
		"moves":[`+moves+`,`+moves+`,`+moves+`]}`)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := json.Marshal(out)
	got := string(b)
	for _, want := range []string{`"round":3`, `"over":true`, `"scores":[0,138]`, `"round_scores":[0,46]`, `"winners":[0]`, `"to_move":[]`, `"rejected":[]`} {
		if !strings.Contains(got, want) {
			t.Errorf("output lacks %s: %s", want, got)
		}
	}
}

func TestInvalidScripts(t *testing.T) {
	for _, tc := range []struct{ script, want string }{
		{`{"game":"cabo",`, "bad JSON"},
		{`{"game":"chess","players":2,"moves":[]}`, "unknown game"},
		{`{"game":"cabo","players":2,"options":{"jokers":true},"moves":[]}`, "jokers"},
		{`{"game":"cabo","players":9,"moves":[]}`, "players"},
		{`{"game":"cabo","players":2,"rounds":[{"hands":[[13,13,13,0],[1,2,3,4]]}],"moves":[]}`, "only 2"},
		{`{"game":"cabo","players":2,"moves":[],"extra":1}`, "extra"},
		{`{"game":"cabo","players":2,"moves":[]} {}`, "data after"},
	} {
		if _, err := run(t, tc.script); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: error %v, want one mentioning %q", tc.script, err, tc.want)
		}
	}
}

// FuzzReplay: no script makes the reader or the run panic.
func FuzzReplay(f *testing.F) {
	f.Add(`{"game":"cabo","players":2,"seed":3,"moves":[{"seat":0,"move":{"type":"peek_initial","slots":[0,1]}}]}`)
	f.Add(`{"game":"cabo","players":3,"rounds":[{"hands":[[1,2,3,4]],"draw":[0]}],"moves":[{"seat":7,"move":{"type":"draw"}}]}`)
	f.Add(`{"game":"cabo","players":2,"options":{"hand_size":6},"moves":[{"seat":0,"move":null}]}`)
	f.Fuzz(func(t *testing.T, script string) {
		s, err := Read(strings.NewReader(script))
		if err != nil {
			return
		}
		if len(s.Moves) > 2000 {
			return
		}
		_, _ = Run(s, games.Named)
	})
}

// REPLAY.md: every move names its seat; a move without one, or with a seat
// that is not a number of the table, is refused (never played as seat 0)
// and the script goes on.
func TestMovesMustNameTheirSeat(t *testing.T) {
	for _, tc := range []struct{ step, want string }{
		{`{"move":{"type":"peek_initial","slots":[0,1]}}`, `no "seat"`},
		{`{"seat":null,"move":{"type":"peek_initial","slots":[0,1]}}`, `no "seat"`},
		{`{"seat":"0","move":{"type":"peek_initial","slots":[0,1]}}`, `seat "0" is not a seat number`},
		{`{"seat":0.5,"move":{"type":"peek_initial","slots":[0,1]}}`, `seat 0.5 is not a seat number`},
		{`{"seat":2,"move":{"type":"peek_initial","slots":[0,1]}}`, `seat 2 is not at this table`},
		{`{"seat":-1,"move":{"type":"peek_initial","slots":[0,1]}}`, `seat -1 is not at this table`},
	} {
		out, err := run(t, `{"game":"cabo","players":2,"seed":1,"moves":[`+tc.step+`,
			{"seat":1,"move":{"type":"peek_initial","slots":[0,1]}}]}`)
		if err != nil {
			t.Fatalf("%s: the script was refused whole: %v", tc.step, err)
		}
		if out.Applied != 1 || len(out.Rejected) != 1 || out.Rejected[0].Index != 0 || !strings.Contains(out.Rejected[0].Error, tc.want) {
			t.Errorf("%s: applied %d, rejected %+v; want move 0 refused saying %q", tc.step, out.Applied, out.Rejected, tc.want)
		}
		// Seat 0 has not peeked: nothing was played for it.
		if len(out.ToMove) != 1 || out.ToMove[0] != 0 {
			t.Errorf("%s: to_move %v, want seat 0 still to peek", tc.step, out.ToMove)
		}
	}
}

// A step's unknown fields and a script's trailing data are errors.
func TestStrictScript(t *testing.T) {
	for _, script := range []string{
		`{"game":"cabo","players":2,"moves":[{"seat":0,"sea":1,"move":{"type":"draw"}}]}`,
		`{"game":"cabo","players":2,"moves":[]}}`,
		`{"game":"cabo","players":2,"moves":[]} {}`,
	} {
		if _, err := run(t, script); err == nil {
			t.Errorf("%s was accepted", script)
		}
	}
}
