package browser

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"slices"
	"sync/atomic"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"tapis/game"
	"tapis/server/servertest"
)

// lateView is what the late-position test reads of a game's view to know
// how far the game has gone: the round (Cabo, Papayoo, Limits), the phase,
// and the helper piles by seat (Da Capo!).
type lateView struct {
	Round   int                   `json:"round"`
	Phase   string                `json:"phase"`
	Helpers [][][]json.RawMessage `json:"helpers"`
}

// lateGame is a game played to a late position by TestBrowserLayoutLate:
// its table's bots and options (long games), when the position is late
// enough, and what the player must see then.
type lateGame struct {
	game string
	bots []string
	opts string
	late func(v lateView, me game.Seat) bool
	see  []string
	// open, when set, opens a panel at the late position, checked too.
	open string
	// pick, when set, selects a card at the late position (pressed
	// again to put it back), checked too: it must not cover the
	// player's name.
	pick string
}

// The late positions issue 26 names: Da Capo! with a helper pile of at
// least 5 cards, Limits past round 8, Papayoo's round 3, Cabo's round 3.
var lateGames = []lateGame{
	{game: "dacapo", bots: []string{"", "easy", "easy", "easy"}, opts: `{"pile_size":30,"match_target":50}`,
		late: func(v lateView, me game.Seat) bool {
			if int(me) >= len(v.Helpers) {
				return false
			}
			full := 0
			for _, h := range v.Helpers[me] {
				if len(h) >= 5 {
					full++
				}
			}
			return full >= 1
		},
		see:  []string{`#hand > *`, `.dc-mine .dc-stackwrap`, `.dc-mine .dc-hpile > :last-child`, `.dc-bpiles > *`},
		pick: `#hand > .can, #hand > .can-help`},
	{game: "limits", bots: []string{"", "random", "random", "random"},
		late: func(v lateView, _ game.Seat) bool { return v.Round >= 9 && v.Phase == "turn" },
		see:  []string{`.lim-hand > *`, `.lim-center > *`, `#actions button`}, open: `[data-action=show-accusation]`},
	{game: "papayoo", bots: []string{"", "random", "random", "random"}, opts: `{"rounds":5}`,
		late: func(v lateView, _ game.Seat) bool { return v.Round >= 3 && v.Phase == "play" },
		see:  []string{`#hand > *`, `.trickzone`, `.passinfo`}},
	{game: "cabo", bots: []string{"", "random", "random", "random"},
		late: func(v lateView, _ game.Seat) bool { return v.Round >= 3 && v.Phase == "turn" },
		see:  []string{`.player.mine .slot`, `.center .slot`, `#actions button`}},
}

// seatPlayer plays a seat over the test's own socket, at random among the
// legal moves the server sends, while the page shows the same seat.
type seatPlayer struct {
	c       *servertest.Client
	seat    game.Seat
	rng     *rand.Rand
	pending bool // a move is sent and its state not yet back
	last    servertest.Msg
}

// play sends a move for the last state read when it is the seat's turn,
// unless hold says to stop there.
func (sp *seatPlayer) play(hold func(m servertest.Msg) bool) error {
	m := sp.last
	if !sp.mine() || hold(m) || m.Status == "over" {
		return nil
	}
	sp.pending = true
	return sp.c.SendE(map[string]any{"type": "move", "move": m.Legal[sp.rng.IntN(len(m.Legal))]})
}

// mine says whether the last state read asks the seat for a move not yet
// on its way.
func (sp *seatPlayer) mine() bool {
	return !sp.pending && slices.Contains(sp.last.ToMove, sp.seat) && len(sp.last.Legal) > 0
}

// next reads the next state.
func (sp *seatPlayer) next() error {
	m, err := sp.c.NextE("state", "error")
	if err != nil {
		return err
	}
	if m.Type == "error" {
		return fmt.Errorf("error %s: %s", m.Code, m.Error)
	}
	sp.last = m
	if m.By == sp.seat {
		sp.pending = false
	}
	return nil
}

// lateScript lists what lies outside the window: fitScript's checks for
// sels, the newest line of the log, and the buttons of an open panel.
func lateScript(sels []string) string {
	return `(() => {
  // Every card at its place; an endless pulse cannot finish.
  for (const a of document.getAnimations()) try { a.finish(); } catch { /* infinite */ }
  const out = ` + fitScript(append(sels, `#log li:last-child`)) + `;
  const W = window.innerWidth, H = window.innerHeight;
  if (document.documentElement.scrollWidth > W) {
    // What widens the page: the element that reaches furthest right.
    let far = null, right = W;
    const clipped = e => { for (let a = e.parentElement; a; a = a.parentElement) if (getComputedStyle(a).overflowX !== 'visible') return a !== document.documentElement && a !== document.body; return false; };
    for (const e of document.querySelectorAll('body *')) { const r = e.getBoundingClientRect(); if (r.right > right && !clipped(e)) { right = r.right; far = e; } }
    if (far) out.push('widest: ' + far.outerHTML.slice(0, 120));
  }
  // Issue 26, layouts: on a phone no seat's chip is clipped at the
  // window's edge ("Bot 3 (norm"), no bot's name is cut ("Bot 2 (n…"),
  // the header's name keeps room to be read ("Ni… gu…"), and the host's
  // "Give to a bot" is in the window; in Papayoo no played card lies
  // over the last trick's row.
  if (W <= 420) {
    for (const li of document.querySelectorAll('.tablebar ul.seats li')) {
      const r = li.getBoundingClientRect();
      if (r.left < -0.5 || r.right > W + 0.5 || li.scrollWidth > li.clientWidth + 1) out.push('seat chip clipped: ' + li.textContent.slice(0, 30));
    }
    for (const e of document.querySelectorAll('ul.seats .nm, .pname > span:first-child, .oname .nm, .mystats .nm, .lim-name, .dc-name, .played .who'))
      if (/^(Bot|Robot) \d+ \(/.test(e.title || e.textContent) && !e.classList.contains('two') && e.scrollWidth > e.clientWidth + 1)
        out.push('bot name cut: ' + e.textContent);
    const me = document.querySelector('#me .nm');
    // Cut: shortened (an ellipsis) to a stub; a short name is narrow whole.
    if (me && me.scrollWidth > me.clientWidth + 1 && me.clientWidth < 64) out.push('header name cut to ' + me.clientWidth + ' px');
    for (const b of document.querySelectorAll('.seatbot button, .seatbot select')) {
      const r = b.getBoundingClientRect();
      if (r.left < 0 || r.right > W + 0.5) out.push('give to a bot at ' + Math.round(r.left) + '..' + Math.round(r.right));
    }
  }
  // A panel over the table shows all of its width: a results table wider
  // than the panel scrolls sideways, its last column cut ("This roun").
  for (const e of document.querySelectorAll('.overlay .card-panel'))
    if (e.scrollWidth > e.clientWidth + 1) out.push('the panel scrolls sideways by ' + (e.scrollWidth - e.clientWidth) + ' px');
  // A selected card never covers its player's name and score ("<name>
  // (you) 0 pts").
  for (const c of document.querySelectorAll('#game .selected')) {
    const r = c.getBoundingClientRect();
    for (const n of document.querySelectorAll('.dc-player.mine .dc-pname, .player.mine .pname, .lim-me .lim-pname, .mystats')) {
      const a = n.getBoundingClientRect();
      if (r.bottom > a.top + 0.5 && r.top < a.bottom - 0.5 && r.right > a.left && r.left < a.right) out.push('a selected card over ' + n.textContent);
    }
  }
  const last = document.querySelector('.lasttrick');
  if (last) {
    const a = last.getBoundingClientRect();
    for (const c of document.querySelectorAll('.trick .played')) {
      const r = c.getBoundingClientRect();
      if (r.bottom > a.top + 0.5 && r.top < a.bottom - 0.5 && r.right > a.left && r.left < a.right) out.push('a played card over the last trick');
    }
  }
  for (const b of document.querySelectorAll('#overlay button, #overlay a.button, dialog[open] button')) {
    const r = b.getBoundingClientRect();
    if (r.width === 0 || r.top < 0 || r.left < 0 || r.bottom > H + 0.5 || r.right > W + 0.5)
      out.push('panel button ' + b.textContent + ' at ' + [r.left, r.top, r.right, r.bottom].map(Math.round).join(','));
    const at = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
    if (r.width && at && at !== b && !b.contains(at)) out.push('panel button ' + b.textContent + ' covered by ' + at.outerHTML.slice(0, 80));
  }
  return out;
})()`
}

// checkSizes photographs the window at each of layoutSizes as
// late-<name>-<w>x<h>.png and checks that what sels name, the newest log
// line and any open panel's buttons are in it.
func (p *page) checkSizes(name string, sels []string) {
	p.t.Helper()
	p.checkAt("late-"+name, layoutSizes, lateScript(sels))
}

// checkAt photographs the window at each of sizes as
// <name>-<w>x<h>.png and fails the test with what script, run there,
// lists as outside the window.
func (p *page) checkAt(name string, sizes [][2]int, script string) {
	p.t.Helper()
	for _, sz := range sizes {
		p.resize(sz[0], sz[1])
		// The page may still be settling (the log scrolled to its newest
		// line, a name fitted to its chip), the later on a loaded machine:
		// what lies outside is read until nothing does, and a layout
		// that stays broken fails after untilLimit.
		var bad []string
		var err error
		p.poll(func() bool {
			bad = nil
			err = chromedp.Run(p.ctx, chromedp.Evaluate(script, &bad))
			return err == nil && len(bad) == 0
		})
		if err != nil {
			p.t.Fatalf("%s at %dx%d: the page could not be read: %v", name, sz[0], sz[1], err)
		}
		var png []byte
		p.run("screenshot", chromedp.CaptureScreenshot(&png))
		p.save(fmt.Sprintf("%s-%dx%d.png", name, sz[0], sz[1]), png)
		if len(bad) > 0 {
			p.t.Errorf("%s at %dx%d: outside the window: %q", name, sz[0], sz[1], bad)
		}
	}
	p.desktop()
}

// sitAt creates a table of g's game, bots and options, with the person
// (the test) at the first seat, played over the test's own socket.
func (p *page) sitAt(g lateGame, seed uint64) (servertest.Seat, *seatPlayer) {
	p.t.Helper()
	s := p.h.Create(g.game, g.bots, "Maximilienne-Alexandrina", g.opts)
	return s, &seatPlayer{c: p.h.Dial(s.Table, s.Token), seat: s.Seat, rng: rand.New(rand.NewPCG(seed, 26))}
}

// playUntil plays the seat until it is to move in a position where
// reached says so; the game must not end before.
func (sp *seatPlayer) playUntil(t *testing.T, reached func(m servertest.Msg) bool) {
	t.Helper()
	for {
		if err := sp.next(); err != nil {
			t.Fatal(err)
		}
		if sp.last.Status == "over" {
			t.Fatalf("the game ended before the position awaited: %s", sp.last.View)
		}
		if sp.mine() && reached(sp.last) {
			return
		}
		if err := sp.play(reached); err != nil {
			t.Fatal(err)
		}
	}
}

// playOn plays the seat on another goroutine until the game ends or the
// returned stop is called; stop closes the socket (the bots may have no
// message to send) and waits for the goroutine to end.
func (sp *seatPlayer) playOn() (stop func()) {
	var halt atomic.Bool
	done := make(chan struct{})
	go func() {
		defer close(done)
		for !halt.Load() && sp.last.Status != "over" {
			if sp.play(func(servertest.Msg) bool { return halt.Load() }) != nil || sp.next() != nil {
				return
			}
		}
	}()
	return func() {
		halt.Store(true)
		sp.c.Conn.CloseNow()
		<-done
	}
}

// openSeat opens the person's page at seat s's table, on that seat, the
// guide's offer (a first-time player's) declined.
func (p *page) openSeat(s servertest.Seat, game string) {
	p.t.Helper()
	tok, _ := json.Marshal(map[string]any{"seat": s.Seat, "token": s.Token})
	p.run("the person's page", chromedp.Navigate(p.h.URL+"/"),
		chromedp.Evaluate(fmt.Sprintf(`localStorage.setItem('tapis.seat.%s', %q); localStorage.setItem('tapis.guide.%s', 'no')`, s.Table, tok, game), nil),
		chromedp.Navigate(p.h.URL+"/t/"+s.Table), chromedp.WaitVisible(`#game`, chromedp.ByQuery))
}

// TestBrowserLayoutLate plays each game to a late position (issue 26: Da
// Capo! with helper piles of 5 cards or more, Limits past round 8,
// Papayoo's round 3, Cabo's round 3), the test playing the person's seat
// over its own socket with bots that move at once, then opens the
// person's page there and checks at each of layoutSizes that the hand,
// the piles, the actions and the newest log line are in the window
// without scrolling. It plays on to the next panel over the table (a
// round's, an accusation's or the game's end) and checks its buttons the
// same way.
func TestBrowserLayoutLate(t *testing.T) {
	t.Parallel() // waits on conditions only: see parallel in page_test.go
	p := newPage(t, 0, 20*time.Minute)
	for i, g := range lateGames {
		t.Run(g.game, func(t *testing.T) {
			p.t = t
			s, sp := p.sitAt(g, uint64(i)+1)
			sp.playUntil(t, func(m servertest.Msg) bool {
				var v lateView
				json.Unmarshal(m.View, &v)
				return g.late(v, sp.seat)
			})
			p.openSeat(s, g.game)
			var st tableState
			p.until("my turn at the late position", readTable(""), &st, func() bool { return st.MyTurn == "1" })
			p.checkSizes(g.game, g.see)
			if g.pick != "" {
				// A card selected (issue 26: it covered "<name> (you)
				// 0 pts" on a phone), then put back.
				p.click(g.pick)
				var n int
				p.until("a card selected", `document.querySelectorAll('#game .selected').length`, &n, func() bool { return n > 0 })
				p.checkSizes(g.game+"-picked", g.see)
				p.click(`#game .selected`)
			}
			if g.open != "" {
				// A panel opened there: a late round's accusation, told
				// at length, with its buttons in the window.
				p.click(g.open)
				p.checkSizes(g.game+"-open", nil)
				p.click(`[data-action=close-overlay]`)
			}

			// On to the next panel: the test plays the seat again until
			// the page shows a panel over the table, then stops.
			stop := sp.playOn()
			var panel string
			p.until("a panel over the table", `(document.querySelector('#overlay') || {dataset: {}}).dataset.kind || ''`, &panel,
				func() bool { return panel != "" })
			stop()
			p.checkSizes(g.game+"-"+panel, nil)
		})
		p.t = t
	}
	t.Logf("screenshots in %s", p.dir)
}
