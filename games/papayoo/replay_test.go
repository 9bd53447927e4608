package papayoo_test

import (
	"encoding/json"
	"slices"
	"strings"
	"testing"

	"tapis/game"
	"tapis/games"
)

// A scripted game in REPLAY.md's format, played through the registry and
// the Game interface only, as `tapis replay` does: stacked hands and die,
// passes whole and one card at a time, refused moves recorded and skipped.
func TestReplayScript(t *testing.T) {
	const script = `{
	  "game": "papayoo", "players": 3, "options": {"rounds": 1}, "seed": 42,
	  "rounds": [{"hands": [
	    ["S1","S2","S3","S4","S5","S6","S7","S8","S9","S10","H1","H2","H3","H4","H5","H6","H7","H8","H9","H10"],
	    ["D1","D2","D3","D4","D5","D6","D7","D8","D9","D10","C1","C2","C3","C4","C5","C6","C7","C8","C9","C10"],
	    ["P1","P2","P3","P4","P5","P6","P7","P8","P9","P10","P11","P12","P13","P14","P15","P16","P17","P18","P19","P20"]
	  ], "die": "C"}],
	  "moves": [
	    {"seat": 1, "move": {"type": "play", "card": "D1"}},
	    {"seat": 0, "move": {"type": "pass", "cards": ["S10","S9","S8","S7","H10"]}},
	    {"seat": 1, "move": {"type": "pass", "cards": ["C10"]}},
	    {"seat": 1, "move": {"type": "pass", "cards": ["D10","D9","D8","D7"]}},
	    {"seat": 2, "move": {"type": "pass", "cards": ["P20","P19","P18","P17"]}},
	    {"seat": 2, "move": {"type": "pass", "cards": ["P20","P19","P18","P17","P16"]}},
	    {"seat": 0, "move": {"type": "play", "card": "H1"}},
	    {"seat": 2, "move": {"type": "play", "card": "P1"}},
	    {"seat": 1, "move": {"type": "play", "card": "S7"}},
	    {"seat": 1, "move": {"type": "play", "card": "H10"}},
	    {"seat": 2, "move": {"type": "play", "card": "C10"}}
	  ]
	}`
	var in struct {
		Game    string            `json:"game"`
		Players int               `json:"players"`
		Options json.RawMessage   `json:"options"`
		Seed    uint64            `json:"seed"`
		Rounds  []json.RawMessage `json:"rounds"`
		Moves   []struct {
			Seat game.Seat       `json:"seat"`
			Move json.RawMessage `json:"move"`
		} `json:"moves"`
	}
	if err := json.Unmarshal([]byte(script), &in); err != nil {
		t.Fatal(err)
	}
	g := games.Named(in.Game)
	if g == nil {
		t.Fatal("papayoo is not registered")
	}
	st, err := g.New(game.Config{Players: in.Players, Options: in.Options, Seed: in.Seed, Stacks: in.Rounds})
	if err != nil {
		t.Fatal(err)
	}
	var rejected []int
	var reasons []string
	for i, m := range in.Moves {
		mv, err := g.UnmarshalMove(m.Move)
		if err == nil {
			err = st.Apply(m.Seat, mv, nil)
		}
		if err != nil {
			rejected = append(rejected, i)
			reasons = append(reasons, err.Error())
		}
	}
	if !slices.Equal(rejected, []int{0, 4, 7, 8}) {
		t.Fatalf("rejected %v: %v", rejected, reasons)
	}
	for i, want := range []string{"passes 5 cards first", "exactly 5", "seat 1's turn", "must follow hearts"} {
		if !strings.Contains(reasons[i], want) {
			t.Fatalf("rejection %d: %q, want %q", i, reasons[i], want)
		}
	}
	// H10 (passed by seat 0 to seat 1) beats H1, C10 is off suit: seat 1
	// wins a trick of no points and leads.
	var v struct {
		Die, Papayoo string
		Taken        []int
		ToMove       []game.Seat `json:"to_move"`
		Received     []string
	}
	data, _ := json.Marshal(st.View(1))
	if err := json.Unmarshal(data, &v); err != nil {
		t.Fatal(err)
	}
	if v.Die != "C" || v.Papayoo != "C7" || !slices.Equal(v.Taken, []int{0, 0, 0}) || !slices.Equal(v.ToMove, []game.Seat{1}) {
		t.Fatalf("view after the script: %s", data)
	}
	if !slices.Equal(v.Received, []string{"S7", "S8", "S9", "S10", "H10"}) {
		t.Fatalf("seat 1 received %v", v.Received)
	}
}
