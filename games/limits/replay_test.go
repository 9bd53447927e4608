package limits_test

import (
	"fmt"
	"strings"
	"testing"

	"tapis/game"
	"tapis/games/limits"
	"tapis/replay"
)

// A REPLAY.md script of Limits, with a stacked deal: the moves and stacks
// of the public format play as the rules say, refused moves are listed.
func TestReplayScript(t *testing.T) {
	s, err := replay.Read(strings.NewReader(`{"game":"limits","players":2,"seed":7,
	 "rounds":[{"hands":[["green","green","green","blue","blue","blue"],["red","red","red","red","purple","green"]],
	            "draw":["yellow","yellow"],"limits":[6,7]}],
	 "moves":[{"seat":0,"move":{"type":"hide","cards":["blue","blue"]}},
	          {"seat":1,"move":{"type":"hide","cards":["red","red"]}},
	          {"seat":1,"move":{"type":"place","card":"red"}},
	          {"seat":0,"move":{"type":"place","card":"green"}},
	          {"seat":1,"move":{"type":"accuse","seat":0}}]}`))
	if err != nil {
		t.Fatal(err)
	}
	out, err := replay.Run(s, func(string) game.Game { return limits.Game{} })
	if err != nil {
		t.Fatal(err)
	}
	if out.Applied != 4 || len(out.Rejected) != 1 || !strings.Contains(out.Rejected[0].Error, "seat 0's turn") {
		t.Fatalf("applied %d, rejected %+v", out.Applied, out.Rejected)
	}
	if out.Round != 1 || fmt.Sprint(out.Scores) != "[-2 1]" || fmt.Sprint(out.ToMove) != "[0 1]" {
		t.Fatalf("round %d, scores %v, to move %v", out.Round, out.Scores, out.ToMove)
	}
}
