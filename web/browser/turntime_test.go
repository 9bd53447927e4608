package browser

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
	p := newPage(t, 300*time.Millisecond, 4*time.Minute)
	p.createTable(table{game: "cabo", players: 2, bots: []string{"random"}, turn: "30"}, `#game`)
	var note string
	p.eval("the time per move", `document.querySelector('.turntime')?.textContent || ''`, &note)
	if note != "Time per move: 30 s" {
		t.Fatalf("the table says %q about its time per move", note)
	}
	// The bot may move first; then it is Alice's turn, and her clock runs.
	badge := regexp.MustCompile(`^(\d+) s$`)
	// secs waits for a countdown on Alice's seat that until says is the
	// one awaited, and returns its seconds.
	secs := func(what string, until func(n int) bool) int {
		t.Helper()
		var text string
		n := 0
		p.until(what, `document.querySelector('ul.seats li.me .clock')?.textContent || ''`, &text, func() bool {
			m := badge.FindStringSubmatch(text)
			if m == nil {
				return false
			}
			n, _ = strconv.Atoi(m[1])
			return until(n)
		})
		return n
	}
	first := secs("a countdown on Alice's seat", func(int) bool { return true })
	if first > 30 || first < 20 {
		t.Fatalf("Alice's clock shows %d s of 30", first)
	}
	var low bool
	p.eval("the clock's colour", `document.querySelector('ul.seats li.me .clock').classList.contains('low')`, &low)
	if low {
		t.Fatalf("the clock is red with %d s left", first)
	}
	// It counts down on its own, with no message from the server.
	if n := secs("Alice's clock to count down", func(n int) bool { return n < first }); n >= first {
		t.Fatalf("Alice's clock still shows %d s, as it first did", n)
	}
	p.narrow(100 * time.Millisecond)
	p.shoot("turntime-360.png")
	p.desktop()
}
