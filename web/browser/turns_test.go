package browser

import (
	"strings"
	"testing"
	"time"

	cdpruntime "github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/chromedp"
)

// The home page shows the tables where it is the player's turn first,
// above their other tables, and the tab's title counts them (issue 29,
// GET /api/me/turns).
func TestBrowserYourTurn(t *testing.T) {
	t.Parallel() // waits on conditions only: see parallel in page_test.go
	p := newPage(t, -1, 3*time.Minute)
	p.home()
	p.setName("Ada")
	// Two Cabo tables against a bot, made by Ada's session and never
	// opened: each deals at once, and Ada has to peek at both; the second
	// has a time per move, so a deadline.
	var made int
	p.run("two tables", chromedp.Evaluate(`(async () => {
		let n = 0;
		for (const turn of [0, 60]) {
			const r = await fetch('/api/tables', {method: 'POST', headers: {'Content-Type': 'application/json'},
				body: JSON.stringify({game: 'cabo', players: 2, bots: ['', 'random'], turn_seconds: turn})});
			if (r.status === 201) n++;
		}
		return n;
	})()`, &made, func(e *cdpruntime.EvaluateParams) *cdpruntime.EvaluateParams { return e.WithAwaitPromise(true) }))
	if made != 2 {
		t.Fatalf("%d tables made, want 2", made)
	}
	var title string
	p.until("the title to count two turns", `document.title`, &title, func() bool { return title == "(2) Tapis" })
	var shown string
	p.until("Your turn above Your tables", text(`#mytables`), &shown, func() bool {
		return strings.HasPrefix(shown, "Your turn") && strings.Count(shown, "Cabo") == 2
	})
	if !strings.Contains(shown, "before") {
		t.Errorf("no deadline shown: %q", shown)
	}
	p.shootSizes("yourturn", 100*time.Millisecond)
	p.click(`#lang`)
	p.until("in French", text(`#yourturn-title`), &shown, func() bool { return shown == "À vous de jouer" })
	p.shootSizes("yourturn-fr", 100*time.Millisecond)
	p.click(`#lang`)

	// Opening a table leaves the count off the table page's title.
	p.click(`#yourturn a`)
	p.until("the table's title", `document.title`, &title, func() bool { return !strings.HasPrefix(title, "(") })
}
