package dacapo_test

import (
	"fmt"
	"strings"
	"testing"

	"tapis/game"
	"tapis/games/dacapo"
	"tapis/replay"
)

// A REPLAY.md script of Da Capo!, with a stacked deal and every form of
// move: builds from the personal pile, an opponent's pile, the hand and a
// helper pile, and helper moves. Refused moves are listed and skipped; the
// last personal card wins.
func TestReplayScript(t *testing.T) {
	s, err := replay.Read(strings.NewReader(`{"game":"dacapo","players":2,"options":{"pile_size":3},"seed":7,
	 "rounds":[{"stocks":[[1,5,9],[2,9,9]],"hands":[[3,"J",4,7],[6,6,6,6]],"draw":[8,10]}],
	 "moves":[{"seat":0,"move":{"type":"build","from":"stock","pile":0}},
	          {"seat":1,"move":{"type":"build","from":"hand","card":6,"pile":0}},
	          {"seat":0,"move":{"type":"build","from":"opponent","seat":1,"pile":0}},
	          {"seat":0,"move":{"type":"build","from":"hand","card":3,"pile":0}},
	          {"seat":0,"move":{"type":"helper","card":7,"index":1}},
	          {"seat":1,"move":{"type":"helper","card":6,"index":0}},
	          {"seat":0,"move":{"type":"build","from":"helper","index":1,"pile":0}},
	          {"seat":0,"move":{"type":"build","from":"hand","card":4,"pile":0}},
	          {"seat":0,"move":{"type":"build","from":"stock","pile":0}},
	          {"seat":0,"move":{"type":"build","from":"hand","card":"J","pile":0}},
	          {"seat":0,"move":{"type":"build","from":"helper","index":1,"pile":0}},
	          {"seat":0,"move":{"type":"build","from":"hand","card":8,"pile":0}},
	          {"seat":0,"move":{"type":"build","from":"stock","pile":0}}]}`))
	if err != nil {
		t.Fatal(err)
	}
	out, err := replay.Run(s, func(string) game.Game { return dacapo.Game{} })
	if err != nil {
		t.Fatal(err)
	}
	if out.Applied != 11 || len(out.Rejected) != 2 ||
		!strings.Contains(out.Rejected[0].Error, "seat 0's turn") ||
		!strings.Contains(out.Rejected[1].Error, "a 7 does not go on building pile 0 at 3") {
		t.Fatalf("applied %d, rejected %+v", out.Applied, out.Rejected)
	}
	if !out.Over || out.Round != 1 || fmt.Sprint(out.Scores) != "[2 0]" || fmt.Sprint(out.Winners) != "[0]" || len(out.ToMove) != 0 {
		t.Fatalf("over %v, round %d, scores %v, winners %v, to move %v", out.Over, out.Round, out.Scores, out.Winners, out.ToMove)
	}
}

// The move end in a REPLAY.md script: five players with piles of 29 hold
// the whole deck, so seat 0's emptied hand cannot be refilled; seat 1's 5
// still fits, and seat 0 stops with {"type":"end"}. Seat 1, with cards,
// may not.
func TestReplayEnd(t *testing.T) {
	s, err := replay.Read(strings.NewReader(`{"game":"dacapo","players":5,"options":{"pile_size":29},"seed":3,
	 "rounds":[{"stocks":[[9],[5]],"hands":[[1,2,3,4],[8,8,8,8]]}],
	 "moves":[{"seat":0,"move":{"type":"build","from":"hand","card":1,"pile":0}},
	          {"seat":0,"move":{"type":"build","from":"hand","card":2,"pile":0}},
	          {"seat":0,"move":{"type":"build","from":"hand","card":3,"pile":0}},
	          {"seat":0,"move":{"type":"build","from":"hand","card":4,"pile":0}},
	          {"seat":0,"move":{"type":"end"}},
	          {"seat":1,"move":{"type":"end"}}]}`))
	if err != nil {
		t.Fatal(err)
	}
	out, err := replay.Run(s, func(string) game.Game { return dacapo.Game{} })
	if err != nil {
		t.Fatal(err)
	}
	if out.Applied != 5 || len(out.Rejected) != 1 || !strings.Contains(out.Rejected[0].Error, "dacapo: end: you still hold 4 cards") {
		t.Fatalf("applied %d, rejected %+v", out.Applied, out.Rejected)
	}
	if fmt.Sprint(out.ToMove) != "[1]" {
		t.Fatalf("to move %v, want seat 1", out.ToMove)
	}
}
