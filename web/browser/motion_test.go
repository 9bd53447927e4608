package browser

import (
	"encoding/json"
	"fmt"
	"slices"
	"testing"
	"time"

	"github.com/chromedp/cdproto/emulation"
	cdpruntime "github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/chromedp"

	"tapis/server/servertest"
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

// Issue 26: a card in flight passes under a panel over the table (and
// the header, the chat): a card is made to travel on the home page, with
// motion.js, while a panel covers the table, and half-way through its
// travel the panel, not the card, is what shows where the card is.
func TestBrowserFlightUnderPanels(t *testing.T) {
	p := newPage(t, 0, 2*time.Minute)
	p.run("home page", chromedp.Navigate(p.h.URL+"/"), chromedp.WaitVisible(`#create`, chromedp.ByQuery))
	var got struct {
		Flying int    `json:"flying"`
		Top    string `json:"top"`
	}
	p.run("a card travels under a panel", chromedp.Evaluate(`import('/static/motion.js').then(m => {
		const root = document.createElement('div'), card = document.createElement('div');
		card.dataset.key = 'test:card';
		card.style.cssText = 'position: relative; width: 80px; height: 110px; background: red';
		root.append(card);
		document.querySelector('main').prepend(root);
		const at = m.before(root);
		card.style.marginLeft = '300px';
		const ov = document.createElement('div');
		ov.className = 'overlay'; ov.id = 'overlay';
		ov.innerHTML = '<div class="card-panel">a panel</div>';
		document.body.append(ov);
		m.after(root, at);
		const flying = document.getAnimations().filter(a => a.id === m.ID);
		for (const a of flying) { a.pause(); a.currentTime = 150; }
		const r = card.getBoundingClientRect();
		const top = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
		return {flying: flying.length, top: top === card ? 'the card' : top ? top.className || top.tagName : 'nothing'};
	})`, &got, func(e *cdpruntime.EvaluateParams) *cdpruntime.EvaluateParams { return e.WithAwaitPromise(true) }))
	if got.Flying != 1 {
		t.Fatalf("%d cards in flight, want 1", got.Flying)
	}
	if got.Top != "overlay" && got.Top != "card-panel" {
		t.Errorf("half-way through its travel, %s shows over the panel", got.Top)
	}
}

// Issue 26: Papayoo says who takes a trick once its last card has landed,
// not while it is still on its way: the page is caught on the redraw that
// completes a trick while that card travels (motion.js), and the trick's
// caption is hidden then, and shown once the travels are finished.
//
// The bots wait a little before each move, as at a real table: the page
// draws at most once a frame, and a trick taken and the next one's lead
// arriving in the same frame are drawn as one (the person would see only
// the second anyway).
func TestBrowserTrickTakenAfterLanding(t *testing.T) {
	p := newPage(t, 100*time.Millisecond, 3*time.Minute)
	g := lateGame{game: "papayoo", bots: []string{"", "random", "random", "random"}}
	s, sp := p.sitAt(g, 5)
	sp.playUntil(t, func(m servertest.Msg) bool {
		var v lateView
		json.Unmarshal(m.View, &v)
		return v.Phase == "play"
	})
	p.openSeat(s, g.game)
	var ready bool
	p.until("the trick on the page", `!!document.querySelector('.trickzone')`, &ready, func() bool { return ready })
	p.eval("watch the trick's end", `window.tapisTaken = new Promise(done => {
		const ob = new MutationObserver(() => {
			const zone = document.querySelector('.trickzone.done');
			const flying = document.getAnimations().filter(a => a.id === 'tapis-motion' && a.playState === 'running');
			if (!zone || !flying.length) return;
			ob.disconnect();
			const shown = () => getComputedStyle(zone.querySelector(':scope > .caption')).visibility;
			const during = shown();
			for (const a of document.getAnimations()) try { a.finish(); } catch { /* an endless pulse */ }
			done({during, after: shown(), caption: zone.querySelector(':scope > .caption').textContent});
		});
		ob.observe(document.getElementById('main'), {childList: true, subtree: true});
	}), true`, nil)
	stop := sp.playOn()
	var got struct{ During, After, Caption string }
	p.run("a trick taken", chromedp.Evaluate(`window.tapisTaken`, &got, func(e *cdpruntime.EvaluateParams) *cdpruntime.EvaluateParams { return e.WithAwaitPromise(true) }))
	stop()
	if got.During != "hidden" {
		t.Errorf("while the trick's last card travels, its caption %q is %s", got.Caption, got.During)
	}
	if got.After != "visible" {
		t.Errorf("once the cards have landed, the trick's caption %q is %s", got.Caption, got.After)
	}
}
