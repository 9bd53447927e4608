package browser

import (
	"fmt"
	"math"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"
)

// guideState is what the guide test reads of the guided first turn.
type guideState struct {
	Mode    string      `json:"mode"` // "offer", "steps", or "" with no guide
	Step    int         `json:"step"` // from 1, in mode steps
	Of      int         `json:"of"`
	Text    string      `json:"text"`
	Hint    string      `json:"hint"` // the table's hint line
	Box     []float64   `json:"box"`  // the bubble: left, top, right, bottom
	Ring    []float64   `json:"ring"` // the outline, [] when hidden
	Targets [][]float64 `json:"targets"`
	W       float64     `json:"w"`
	H       float64     `json:"h"`
	Covered []string    `json:"covered"` // the player's controls whose centre the bubble hides
	Stored  string      `json:"stored"`  // localStorage's memory of the offer, for game
	Lang    string      `json:"lang"`
}

// readGuide reads a guideState for game; targets are the rectangles of
// the elements sel names (the first of each), for where the outline is.
func readGuide(game string, sels ...string) string {
	return fmt.Sprintf(`(() => {
  const b = document.querySelector('#guide'), r = document.querySelector('.guide-ring');
  const rect = e => { const x = e.getBoundingClientRect(); return [x.left, x.top, x.right, x.bottom]; };
  const covered = [...document.querySelectorAll('.player.mine .slot, #actions button, #game [data-player="0"] button')].filter(e => {
    const x = e.getBoundingClientRect(), at = document.elementFromPoint(x.left + x.width / 2, x.top + x.height / 2);
    return b && at && b.contains(at);
  }).map(e => e.dataset.slot ? 'slot ' + e.dataset.slot : e.dataset.action || e.textContent);
  return {mode: b ? b.dataset.mode : '', step: b ? +b.dataset.step : 0, of: b ? +b.dataset.of : 0, text: b ? b.textContent : '',
    hint: document.querySelector('#hint')?.textContent || '', box: b ? rect(b) : [],
    ring: r && r.style.display !== 'none' ? rect(r) : [],
    targets: %s.map(s => document.querySelector(s)).map(e => e ? rect(e) : []),
    w: document.documentElement.clientWidth, h: window.innerHeight, covered,
    stored: localStorage.getItem('tapis.guide.%s') || '', lang: document.documentElement.lang};
})()`, jsList(sels), game)
}

func jsList(ss []string) string {
	q := make([]string, len(ss))
	for i, s := range ss {
		q[i] = fmt.Sprintf("%q", s)
	}
	return "[" + strings.Join(q, ",") + "]"
}

// outlines says whether the outline ring is drawn around the rectangle r
// (4 px outside it, as guide.js draws it), once its transition is over.
func outlines(ring, r []float64) bool {
	if len(ring) != 4 || len(r) != 4 {
		return false
	}
	for i, d := range []float64{-4, -4, 4, 4} {
		if math.Abs(ring[i]-(r[i]+d)) > 1.5 {
			return false
		}
	}
	return true
}

// inside says whether the bubble is wholly inside the window.
func (g guideState) inside() bool {
	return len(g.Box) == 4 && g.Box[0] >= 0 && g.Box[1] >= 0 && g.Box[2] <= g.W && g.Box[3] <= g.H
}

// A first Cabo table against a bot offers the guided turn; its first step
// points at the player's cards, on a phone and a laptop, beside them
// rather than over them; looking at two cards (the step done) moves it on,
// in the words of the hint line and in French too; Next moves it on, Skip
// closes it; the next table does not offer it again. Declining is
// remembered too, Escape closes it, and another game has its own, shorter
// guide.
func TestBrowserGuide(t *testing.T) {
	t.Parallel() // waits on conditions only: see parallel in page_test.go
	p := newPage(t, 20*time.Millisecond, 8*time.Minute)
	p.dir = screenshotDir(p.dir)
	cabo := table{game: "cabo", players: 2, bots: []string{"easy"}}
	const mine, center = `.player.mine`, `#game .center`
	read := readGuide("cabo", mine, center, `#actions`)
	var g guideState
	wait := func(what string, ok func() bool) { t.Helper(); p.until(what, read, &g, ok) }

	p.createTable(cabo, `#game`)
	wait("the offer", func() bool { return g.Mode == "offer" })
	// Cabo has a tutorial (tutorial_test.go): it is offered first, the
	// tour of the screen beside it.
	if g.Text != "New to Cabo? Learn it by playing the tutorial: a few minutes against a bot, every rule on the way.No thanksJust the screenPlay the tutorial" || g.Stored != "offered" {
		t.Errorf("the offer reads %q, remembered as %q", g.Text, g.Stored)
	}
	if len(g.Covered) > 0 {
		t.Errorf("the offer hides %q", g.Covered)
	}
	p.click(`[data-action=guide-yes]`)
	for _, size := range []struct{ w, h int64 }{{390, 844}, {1366, 768}} {
		p.run("viewport", chromedp.EmulateViewport(size.w, size.h))
		wait(fmt.Sprintf("step 1 on the player's cards at %d×%d", size.w, size.h), func() bool {
			return g.W == float64(size.w) && g.Mode == "steps" && g.Step == 1 && outlines(g.Ring, g.Targets[0])
		})
		if !g.inside() {
			t.Errorf("at %d×%d the bubble is at %v, not inside the window", size.w, size.h, g.Box)
		}
		if len(g.Covered) > 0 {
			t.Errorf("at %d×%d the bubble hides %q", size.w, size.h, g.Covered)
		}
		if g.Of != 4 || !strings.Contains(g.Text, "These are your cards") || !strings.Contains(g.Text, g.Hint) || g.Hint == "" {
			t.Errorf("step 1 of %d reads %q; the hint line %q", g.Of, g.Text, g.Hint)
		}
		p.shoot(fmt.Sprintf("tapis-guide-cabo-%d.png", size.w))
	}
	p.desktop()

	// Doing the step: looking at two cards, clicked through the guide.
	p.click(mine + ` .slot[data-slot="0"]`)
	p.click(mine + ` .slot[data-slot="1"]`)
	p.click(`[data-action=look]`)
	wait("step 2 on the piles, in the hint line's words", func() bool {
		return g.Step == 2 && outlines(g.Ring, g.Targets[1]) && strings.HasPrefix(g.Hint, "Your turn: draw a card") && strings.Contains(g.Text, g.Hint)
	})
	p.click(`#lang`)
	wait("step 2 in French", func() bool { return g.Lang == "fr" && strings.HasPrefix(g.Text, "Étape 2 sur 4La pioche") })
	p.run("phone", chromedp.EmulateViewport(390, 844))
	wait("step 2 at 390 px", func() bool { return g.W == 390 && outlines(g.Ring, g.Targets[1]) })
	if !g.inside() || len(g.Covered) > 0 {
		t.Errorf("at 390 px step 2's bubble is at %v and hides %q", g.Box, g.Covered)
	}
	p.shoot("tapis-guide-cabo-step2-fr-390.png")
	p.desktop()
	p.click(`#lang`)
	wait("step 2 in English again", func() bool { return g.Lang == "en" && strings.HasPrefix(g.Text, "Step 2 of 4") })

	p.click(`[data-action=guide-next]`)
	wait("step 3 on the buttons", func() bool { return g.Step == 3 && outlines(g.Ring, g.Targets[2]) })
	p.click(`[data-action=guide-skip]`)
	wait("the guide skipped", func() bool { return g.Mode == "" && len(g.Ring) == 0 })
	if g.Stored != "skipped" {
		t.Errorf("after Skip the guide is remembered as %q", g.Stored)
	}

	// The guide runs in the same redraw as the hint line: once the line
	// is there, an offer would be too.
	noOffer := func(why string) {
		t.Helper()
		p.createTable(cabo, `#game`)
		wait(why+": the hint line", func() bool { return g.Hint != "" })
		if g.Mode != "" {
			t.Errorf("%s: the guide is offered again (%q)", why, g.Text)
		}
	}
	noOffer("a second table")

	// Declined: remembered as well.
	p.eval("forget the guide", `localStorage.removeItem('tapis.guide.cabo')`, nil)
	p.createTable(cabo, `#game`)
	wait("the offer again", func() bool { return g.Mode == "offer" })
	p.click(`[data-action=guide-no]`)
	wait("the offer declined", func() bool { return g.Mode == "" && g.Stored == "no" })
	noOffer("a table after declining")

	// Escape closes it at any step.
	p.eval("forget the guide", `localStorage.removeItem('tapis.guide.cabo')`, nil)
	p.createTable(cabo, `#game`)
	wait("the offer once more", func() bool { return g.Mode == "offer" })
	p.click(`[data-action=guide-yes]`)
	wait("step 1", func() bool { return g.Step == 1 })
	p.run("Escape", chromedp.KeyEvent(kb.Escape))
	wait("the guide closed by Escape", func() bool { return g.Mode == "" && len(g.Ring) == 0 && g.Stored == "yes" })

	// Another game: two steps, the player's place then the hint line.
	pr := readGuide("papayoo", `#game [data-player="0"]`, `#hint`)
	p.createTable(table{game: "papayoo", players: 3, bots: []string{"easy", "easy"}}, `#game`)
	p.until("Papayoo's offer", pr, &g, func() bool { return g.Mode == "offer" && strings.HasPrefix(g.Text, "New to Papayoo?") })
	p.click(`[data-action=guide-yes]`)
	p.until("Papayoo's step 1", pr, &g, func() bool { return g.Step == 1 && g.Of == 2 && outlines(g.Ring, g.Targets[0]) })
	if !g.inside() {
		t.Errorf("Papayoo's bubble is at %v, not inside the window", g.Box)
	}
	p.shoot("tapis-guide-papayoo.png")
	p.click(`[data-action=guide-next]`)
	p.until("Papayoo's step 2", pr, &g, func() bool { return g.Step == 2 && outlines(g.Ring, g.Targets[1]) && strings.Contains(g.Text, "Done") })
	p.click(`[data-action=guide-next]`)
	p.until("Papayoo's guide done", pr, &g, func() bool { return g.Mode == "" && g.Stored == "yes" })
}
