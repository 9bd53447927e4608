package browser

import (
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// The host's page shows a free seat's "Give to a bot", reachable by
// keyboard; choosing a level and pressing it fills the table, which starts.
func TestBrowserHostGivesSeat(t *testing.T) {
	p := newPage(t, 20*time.Millisecond, 2*time.Minute)
	p.fill(table{game: "cabo", players: 3, bots: []string{"", "random"}})
	p.create(`[data-seatbot="1"]`)
	var badge string
	p.eval("the host badge", `document.querySelector('.seats li.me .badge.host')?.textContent || ''`, &badge)
	if badge != "Host" {
		t.Fatalf("the host's seat badge reads %q", badge)
	}
	p.shootSizes("host-waiting", 200*time.Millisecond)
	var focusable bool
	p.eval("keyboard", `(() => { const b = document.querySelector('[data-seatbot="1"]'); b.focus(); return document.activeElement === b; })()`, &focusable)
	if !focusable {
		t.Fatal("Give to a bot cannot take the keyboard's focus")
	}
	p.run("level", setValue(`[data-seatbot-level="1"]`, "easy"))
	p.click(`[data-seatbot="1"]`)
	var st struct {
		Status string
		Seat1  string
		Left   int
	}
	p.until("the table started with the bot", `(() => ({status: document.querySelector('#table')?.dataset.status || '',
		seat1: document.querySelectorAll('.seats li')[1]?.textContent || '',
		left: document.querySelectorAll('[data-seatbot]').length}))()`, &st,
		func() bool { return st.Status == "playing" && st.Left == 0 })
	if st.Seat1 != "Bot 2 (easy)" {
		t.Fatalf("seat 2 reads %q after the host gave it to an easy bot", st.Seat1)
	}
	p.run("game", chromedp.WaitVisible(`#game`, chromedp.ByQuery))
	p.shootSizes("host-playing", 200*time.Millisecond)
}
