package server_test

import (
	"regexp"
	"strconv"
	"testing"
	"time"
)

// A table with a time per move, chosen on the home page: the seat that
// must act shows its seconds left, counting down, and the table says
// what the time per move is; at 360 px nothing sticks out.
func TestBrowserTurnTime(t *testing.T) {
	p := newPage(t, 300*time.Millisecond, 60*time.Second)
	p.createTable(table{game: "cabo", players: 2, bots: []string{"random"}, turn: "30"}, `#game`)
	var note string
	p.eval("the time per move", `document.querySelector('.turntime')?.textContent || ''`, &note)
	if note != "Time per move: 30 s" {
		t.Fatalf("the table says %q about its time per move", note)
	}
	// The bot may move first; then it is Alice's turn, and her clock runs.
	badge := regexp.MustCompile(`^(\d+) s$`)
	secs := func() int {
		t.Helper()
		for i := 0; i < 200; i++ {
			var text string
			p.eval("Alice's clock", `document.querySelector('ul.seats li.me .clock')?.textContent || ''`, &text)
			if m := badge.FindStringSubmatch(text); m != nil {
				n, _ := strconv.Atoi(m[1])
				return n
			}
			p.wait(50 * time.Millisecond)
		}
		t.Fatal("no countdown on Alice's seat")
		return 0
	}
	first := secs()
	if first > 30 || first < 20 {
		t.Fatalf("Alice's clock shows %d s of 30", first)
	}
	var low bool
	p.eval("the clock's colour", `document.querySelector('ul.seats li.me .clock').classList.contains('low')`, &low)
	if low {
		t.Fatalf("the clock is red with %d s left", first)
	}
	// It counts down on its own, with no message from the server.
	for i := 0; ; i++ {
		if n := secs(); n < first {
			break
		}
		if i == 60 {
			t.Fatalf("Alice's clock still shows %d s after 3 s", first)
		}
		p.wait(50 * time.Millisecond)
	}
	p.narrow(100 * time.Millisecond)
	p.shoot("turntime-360.png")
	p.desktop()
}
