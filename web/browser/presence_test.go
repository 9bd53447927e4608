package browser

import (
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"tapis/server/servertest"
)

// A player whose page goes away (here, to the home page of the same
// server: the table's page may stay in the browser's back/forward cache,
// alive but hidden) gives up the seat at once, so a stand-in plays for
// them; going back brings them back to their seat, which is theirs again.
func TestBrowserPresence(t *testing.T) {
	cfg := servertest.Unlimited()
	// Slow bots, so that the match is far from over when Alice is back;
	// a short grace period, so that the stand-in comes at once.
	cfg.BotDelay = 500 * time.Millisecond
	cfg.AwayAfter = 300 * time.Millisecond
	// Silence is not what takes Alice's seat here (TestPresence tests
	// that), but her page closing its socket as it is hidden: with the
	// usual 40 s a page kept in the cache with its socket open would lose
	// the seat within the test's waits too. The spectator below, which
	// sends nothing, stays.
	cfg.Presence = 10 * time.Minute
	p := newPageWith(t, cfg, 4*time.Minute)
	p.createTable(table{game: "cabo", players: 2, bots: []string{"random"}}, `#game`)
	// The generic screen, whose every legal move is a button, lets Alice
	// move whatever the phase when she is back.
	p.run("generic screen", chromedp.Evaluate(`location.search = '?screen=generic'`, nil))
	var id string
	p.until("the generic screen", `document.querySelector('#game .generic') ? location.pathname.split('/').pop() : ''`, &id,
		func() bool { return id != "" })
	spec := p.h.Dial(id, "")
	alice := func(m servertest.TableMsg) servertest.SeatView { s, _ := m.SeatAt(0); return s }
	spec.Within(servertest.Patience, "Alice at her seat", func(m servertest.TableMsg) bool { return alice(m).Connected })

	// A mark on this page's window: it is there after going back only if
	// the browser kept the page, hidden, rather than loading it anew.
	p.run("leave", chromedp.Evaluate(`window.tapisKept = true`, nil),
		chromedp.Navigate(p.h.URL+"/"), chromedp.WaitVisible(`#create`, chromedp.ByQuery))
	spec.Within(servertest.Patience, "Alice away and a stand-in at her seat", func(m servertest.TableMsg) bool {
		s, ok := m.SeatAt(0)
		return ok && !s.Connected && s.Standin
	})
	spec.Within(servertest.Patience, "a move made for Alice", func(m servertest.TableMsg) bool { return m.Type == "state" && m.By == 0 })

	// history.back, not chromedp.NavigateBack, which waits for a load
	// event that a page taken from the cache does not fire.
	p.run("go back", chromedp.Evaluate(`history.back()`, nil))
	var back struct {
		Seat string `json:"seat"`
		Away bool   `json:"away"`
		Kept bool   `json:"kept"`
		Ws   bool   `json:"ws"`
	}
	p.until("Alice's page back at her seat", `(() => {
		const tb = document.querySelector('#table'), me = document.querySelector('ul.seats li.me');
		return {seat: tb ? tb.dataset.seat : '', away: !me || me.classList.contains('away'),
			kept: window.tapisKept === true, ws: !document.querySelector('.banner')};
	})()`, &back, func() bool { return back.Seat == "0" && !back.Away && back.Ws })
	spec.Within(servertest.Patience, "Alice back, without a stand-in", func(m servertest.TableMsg) bool {
		s, ok := m.SeatAt(0)
		return ok && s.Connected && !s.Standin
	})
	// The cache is what this test is about: a page loaded anew would
	// have closed its socket however the page is written.
	if !back.Kept {
		t.Fatal("the browser loaded the table's page anew instead of taking it from its back/forward cache")
	}

	// The seat is hers: the table waits for her move, and the move she
	// clicks is played. No stand-in moves for her once she is back, so
	// the next move by seat 0 the spectator sees is hers. The page shows
	// what it had when it was hidden until the server's new state comes,
	// and a move clicked on that is refused (as stale, or not sent at
	// all): Alice clicks again, as a person would, until one is played.
	var at []float64
	moved := false
	p.until("Alice's own move to be played", `(() => {
		const g = document.querySelector('#game');
		const b = g && g.dataset.myturn === '1' && document.querySelector('[data-action=move]:not(:disabled)');
		if (!b) return [];
		b.scrollIntoView({block: 'center'});
		const r = b.getBoundingClientRect();
		return [r.left + r.width / 2, r.top + r.height / 2];
	})()`, &at, func() bool {
		for m, ok := spec.Ready(); ok && !moved; m, ok = spec.Ready() {
			moved = m.Type == "state" && m.By == 0
		}
		if !moved && len(at) == 2 {
			p.run("Alice moves", chromedp.MouseClickXY(at[0], at[1]))
		}
		return moved
	})
}
