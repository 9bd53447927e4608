package browser

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"

	"tapis/server/servertest"
)

// histView is what the history test reads of the viewer.
type histView struct {
	Pos   string   `json:"pos"`
	Cards []string `json:"cards"` // the rendered cards' labels and text
	Move  string   `json:"move"`
	Hands int      `json:"hands"` // seats listed with every card shown
}

const readHist = `(() => ({
	pos: document.querySelector('#hist-pos')?.textContent || '',
	move: document.querySelector('#hist-move')?.textContent || '',
	cards: [...document.querySelectorAll('#game [aria-label], #game .svgcard, #hist-all .hist-card')]
		.map(e => (e.getAttribute('aria-label') || '') + '|' + e.textContent.trim()),
	hands: document.querySelectorAll('#hist-all ul.hist-hands li').length,
}))()`

// A match played to its end has a page, linked from the table's end: its
// viewer steps forward and back with the buttons and the keyboard, and the
// cards shown change with the position; "every card shown" lists every
// seat's hand. An unfinished match's page says it is not over.
func TestBrowserHistory(t *testing.T) {
	t.Parallel() // waits on conditions only: see parallel in page_test.go
	p := newPage(t, 20*time.Millisecond, 4*time.Minute)
	ann := p.h.Create("papayoo", []string{"", "random", "random"}, "Ann", `{"rounds":1}`)
	c := p.h.Dial(ann.Table, ann.Token)
	// A running match's page refuses to show it.
	c.Next("state")
	p.run("running match's page", chromedp.Navigate(fmt.Sprintf("%s/m/%s/1", p.h.URL, ann.Table)))
	var code string
	p.until("the page to refuse the running match", `document.querySelector('#history-error')?.dataset.code || ''`, &code,
		func() bool { return code == "not_over" })
	if m, err := servertest.PlayRandom(c, ann.Seat, 1, 1<<30); err != nil || m.Status != "over" {
		t.Fatalf("%v %+v", err, m)
	}
	// The table's end links to the match's page.
	p.run("the table", chromedp.Navigate(p.h.URL+"/t/"+ann.Table))
	var href string
	p.until("the replay link", `document.querySelector('[data-action=replay]')?.getAttribute('href') || ''`, &href,
		func() bool { return href != "" })
	if want := "/m/" + ann.Table + "/1"; href != want {
		t.Fatalf("the replay link goes to %q, want %q", href, want)
	}
	p.click(`[data-action=replay]`)
	var v histView
	read := func(what string, ok func() bool) {
		t.Helper()
		p.until(what, readHist, &v, ok)
	}
	read("the viewer at the deal", func() bool { return v.Pos != "" && len(v.Cards) > 0 })
	if !strings.HasPrefix(v.Pos, "Move 0 of ") {
		t.Fatalf("the viewer opens at %q", v.Pos)
	}
	deal := v
	// The first moves may change nothing this seat sees (another seat's
	// pass): step on until the cards change, then back once.
	moved := 0
	for moved = 1; moved <= 12; moved++ {
		p.click(`[data-step=next]`)
		want := fmt.Sprintf("Move %d ", moved)
		read(want, func() bool { return strings.HasPrefix(v.Pos, want) })
		if fmt.Sprint(v.Cards) != fmt.Sprint(deal.Cards) {
			break
		}
	}
	if moved > 12 || v.Move == deal.Move {
		t.Fatalf("12 moves on, the cards did not change: %q", v.Cards)
	}
	p.shootSizes("history", 200*time.Millisecond)
	p.click(`[data-step=prev]`)
	back := fmt.Sprintf("Move %d ", moved-1)
	read("one move back", func() bool { return strings.HasPrefix(v.Pos, back) })
	if fmt.Sprint(v.Cards) != fmt.Sprint(deal.Cards) {
		t.Fatalf("one move back, the cards are %q, not %q", v.Cards, deal.Cards)
	}
	// The keyboard: End, ← and →, Home.
	p.run("focus the page", chromedp.Evaluate(`document.activeElement?.blur()`, nil))
	p.run("End", chromedp.KeyEvent(kb.End))
	read("the end", func() bool { return v.Pos != deal.Pos && !strings.HasPrefix(v.Pos, "Move 0 ") })
	end := v
	p.run("←", chromedp.KeyEvent(kb.ArrowLeft))
	read("one back from the end", func() bool { return v.Pos != end.Pos })
	if fmt.Sprint(v.Cards) == fmt.Sprint(end.Cards) {
		t.Fatalf("one move back from the end, the cards are the same: %q", v.Cards)
	}
	p.run("→", chromedp.KeyEvent(kb.ArrowRight))
	read("the end again", func() bool { return v.Pos == end.Pos })
	p.run("Home", chromedp.KeyEvent(kb.Home))
	read("the start", func() bool { return strings.HasPrefix(v.Pos, "Move 0 ") })
	// Every card shown: every seat's hand, 15 or 20 cards each at the deal.
	p.run("every card", setValue(`#hist-seat`, "all"))
	read("every hand", func() bool { return v.Hands == 3 })
	p.run("→", chromedp.KeyEvent(kb.ArrowRight))
	read("every hand one move on", func() bool { return strings.HasPrefix(v.Pos, "Move 1 ") && v.Hands == 3 })
	p.shootSizes("history-all", 200*time.Millisecond)
}
