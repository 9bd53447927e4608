package browser

import (
	"fmt"
	"slices"
	"testing"
	"time"

	"github.com/chromedp/cdproto/emulation"
	cdpruntime "github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/chromedp"
)

// moved is what the page had in flight right after a redraw: the keys of
// motion.js's travels (id tapis-motion) and how many animations of any
// kind ran.
type moved struct {
	Keys []string `json:"keys"`
	All  int      `json:"all"`
}

// watchRedraw arms the page to catch the first redraw of the table after
// which cond (a script expression) holds, and to record what was then in
// flight. The MutationObserver's callback runs once the redraw's script
// is done, motion.js's travels started, and before any of them can end:
// no sleep and no race with a travel's 300 ms. caught reads the record.
func (p *page) watchRedraw(cond string) {
	p.t.Helper()
	p.eval("watch the next redraw", fmt.Sprintf(`window.tapisMoved = new Promise(done => {
		const ob = new MutationObserver(() => {
			if (!(%s)) return;
			ob.disconnect();
			const all = document.getAnimations();
			done({keys: all.filter(a => a.id === 'tapis-motion' && a.playState === 'running').map(a => a.effect.target.dataset.key),
				all: all.length});
		});
		ob.observe(document.getElementById('main'), {childList: true, subtree: true});
	}), true`, cond), nil)
}

func (p *page) caught(what string) moved {
	p.t.Helper()
	var m moved
	p.run(what, chromedp.Evaluate(`window.tapisMoved`, &m, func(e *cdpruntime.EvaluateParams) *cdpruntime.EvaluateParams { return e.WithAwaitPromise(true) }))
	return m
}

// Issue 15: in Cabo a drawn card travels from the draw pile, a discarded
// one from the drawn card's place to the discard pile; with
// prefers-reduced-motion: reduce nothing moves at all.
func TestBrowserCardsTravel(t *testing.T) {
	p := newPage(t, 20*time.Millisecond, 3*time.Minute)
	p.createTable(table{game: "cabo", players: 2}, `#game`)
	// drawTurn plays on (the initial look, a round's panel) until the
	// person may draw.
	drawTurn := func() {
		t.Helper()
		var st caboPage
		for range 200 {
			p.untilTurn(readCabo, &st, &st.tableState, "round")
			switch {
			case st.Status == "over":
				t.Fatal("the game ended before the person's turn")
			case st.Overlay == "round":
				p.click(`[data-action=close-overlay]`)
			case st.Phase == "peek":
				p.caboLook(st)
			case st.Phase == "turn":
				return
			default:
				t.Fatalf("the person's turn in phase %q", st.Phase)
			}
		}
		t.Fatal("no turn to draw in 200 steps")
	}
	// drawAndDiscard draws and discards, and says what was in flight
	// right after each of the two moves came back from the server.
	drawAndDiscard := func() (drew, discarded moved) {
		t.Helper()
		drawTurn()
		p.watchRedraw(`document.getElementById('drawn')`)
		if !p.click(`[data-action=drawpile]`) {
			t.Fatal("the draw pile cannot be clicked on the person's turn")
		}
		drew = p.caught("the drawn card")
		p.watchRedraw(`!document.getElementById('drawn') && document.querySelector('#game').dataset.phase !== 'drawn'`)
		if !p.click(`[data-action=discard]`) {
			t.Fatal("no Discard button with a drawn card")
		}
		discarded = p.caught("the discarded card")
		return
	}

	drew, discarded := drawAndDiscard()
	if !slices.Contains(drew.Keys, "cabo:drawn") {
		t.Errorf("a drawn card does not travel from the draw pile: in flight %q", drew.Keys)
	}
	if !slices.Contains(discarded.Keys, "cabo:discard") {
		t.Errorf("a discarded card does not travel to the discard pile: in flight %q", discarded.Keys)
	}

	p.run("ask for less motion", emulation.SetEmulatedMedia().WithFeatures([]*emulation.MediaFeature{{Name: "prefers-reduced-motion", Value: "reduce"}}))
	drew, discarded = drawAndDiscard()
	for _, m := range []moved{drew, discarded} {
		if len(m.Keys) > 0 || m.All > 0 {
			t.Errorf("with reduced motion, %d animations run after a move, travels %q", m.All, m.Keys)
		}
	}
}
