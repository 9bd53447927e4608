package browser

import (
	"fmt"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"tapis/tutorial"
)

// A card a look showed (the first look, a peek, a spy) is shown only
// while its slot holds it: once the card is replaced (a replace, a set)
// or swapped away, the slot is face down again, however soon the move
// comes after the look (issue 26: an 11 still showing where a 0 had been
// put, when the bots played fast). The page's clock is stopped, so a
// look never expires by itself: only the move may hide it. The Cabo
// tutorial's script gives the moves: a peek at the fourth card then a
// replace of it, a spy of the bot's first card then a swap of it, the
// first look's pair then a set over it.
func TestBrowserCaboLookForgotten(t *testing.T) {
	t.Parallel() // waits on conditions only: see parallel in page_test.go
	sc, ok := tutorial.For("cabo")
	if !ok {
		t.Fatal("no cabo tutorial")
	}
	p := newPage(t, 20*time.Millisecond, 6*time.Minute)
	p.run("the help page", chromedp.Navigate(p.h.URL+"/help/cabo"), chromedp.WaitVisible(`#helppage`, chromedp.ByQuery))
	p.pressWhen(`#helppage [data-action=tutorial-start]`)
	// shown reads whether a slot shows its card face up.
	shown := func(sel string) bool {
		var up bool
		p.read(fmt.Sprintf(`!!document.querySelector(%q)?.classList.contains('revealed')`, sel), &up)
		return up
	}
	untilShown := func(what, sel string) {
		var up bool
		p.until(what, fmt.Sprintf(`!!document.querySelector(%q)?.classList.contains('revealed')`, sel), &up, func() bool { return up })
	}
	// After each move of the player's (by its step's number), the slots
	// that must show their card, and those that must be face down: they
	// are checked once the next step is told, the move and the bot's
	// answer drawn.
	mine, theirs := mySlot, func(i int) string { return caboSlot(1, i) }
	after := map[int]struct{ up, down []string }{
		1:  {up: []string{mine(0), mine(1)}},                 // the first look
		3:  {up: []string{mine(3)}},                          // the peek at the 11
		5:  {down: []string{mine(3)}, up: []string{mine(0)}}, // the 11 replaced by a 0
		9:  {up: []string{theirs(0)}},                        // the spy of their 1
		11: {down: []string{theirs(0), mine(2)}},             // swapped blind
		13: {down: []string{mine(0), mine(1)}},               // the pair of 6s replaced by a set
	}
	step := 0
	for _, m := range sc.Moves {
		if m.Step == nil {
			continue
		}
		step++
		var n int
		p.until(fmt.Sprintf("step %d", step), `+(document.querySelector('#tutorial[data-mode=step]')?.dataset.step || 0)`, &n, func() bool { return n == step })
		if step == 1 {
			// The clock stops: a look stays up until a move hides it.
			var stopped bool
			p.eval("the stopped clock", `(() => { const t0 = Date.now(); Date.now = () => t0; return true; })()`, &stopped)
		}
		if prev, ok := after[step-1]; ok {
			for _, sel := range prev.up {
				untilShown(fmt.Sprintf("after step %d, %s shown", step-1, sel), sel)
			}
			for _, sel := range prev.down {
				if shown(sel) {
					p.shoot(fmt.Sprintf("tapis-cabo-look-step%d.png", step-1))
					t.Errorf("after step %d, %s still shows the card it no longer holds", step-1, sel)
				}
			}
		}
		p.playCabo(m.Move)
	}
}
