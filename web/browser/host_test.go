package browser

import (
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// The host's page shows a free seat's "Give to a bot", reachable by
// keyboard; choosing a level and pressing it fills the table, which starts.
func TestBrowserHostGivesSeat(t *testing.T) {
	t.Parallel() // waits on conditions only: see parallel in page_test.go
	p := newPage(t, 20*time.Millisecond, 2*time.Minute)
	p.fill(table{game: "cabo", players: 3, bots: []string{"", "random"}})
	p.create(`[data-seatbot="1"]`)
	var badge string
	p.eval("the host badge", `document.querySelector('.seats li.me .badge.host')?.textContent || ''`, &badge)
	if badge != "Host" {
		t.Fatalf("the host's seat badge reads %q", badge)
	}
	p.shootSizes("host-waiting", 200*time.Millisecond)
	// Issue 26: on a phone the control is in the window, not past its
	// right edge in a row of seats scrolled sideways.
	p.resize(390, 844)
	var out []string
	p.eval("the control in the window", `(() => { const out = [];
		for (const sel of ['[data-seatbot="1"]', '[data-seatbot-level="1"]']) {
			const e = document.querySelector(sel), r = e ? e.getBoundingClientRect() : null;
			if (!r || r.left < 0 || r.right > innerWidth + .5 || r.top < 0 || r.bottom > innerHeight + .5) out.push(sel + (r ? ' at ' + [r.left, r.top, r.right, r.bottom].map(Math.round) : ' missing'));
		}
		return out; })()`, &out)
	if len(out) > 0 {
		t.Errorf("at 390x844 the host's Give to a bot is outside the window: %q", out)
	}
	p.desktop()
	var focusable bool
	p.eval("keyboard", `(() => { const b = document.querySelector('[data-seatbot="1"]'); b.focus(); return document.activeElement === b; })()`, &focusable)
	if !focusable {
		t.Fatal("Give to a bot cannot take the keyboard's focus")
	}
	p.run("level", setValue(`[data-seatbot-level="1"]`, "easy"))
	// The page is drawn anew when a spectator comes: the level chosen
	// stays chosen.
	var id, watchers, level string
	p.eval("the table's id", `location.pathname.slice(3)`, &id)
	p.h.Dial(id, "")
	p.until("the spectator counted", `document.querySelector('#watchers .n')?.textContent || ''`, &watchers, func() bool { return watchers == "1" })
	p.eval("the level", `document.querySelector('[data-seatbot-level="1"]').value`, &level)
	if level != "easy" {
		t.Errorf("after the page was drawn again the level reads %q, want the one chosen, easy", level)
	}
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
