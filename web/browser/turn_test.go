package browser

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"net/http"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"

	"tapis/server/servertest"
)

// tabTo presses Tab until the focused element matches sel, as a keyboard
// player moves through the page, and fails if it never does.
func (p *page) tabTo(sel string) {
	p.t.Helper()
	for range 120 {
		var on bool
		p.eval("focus", fmt.Sprintf(`!!document.activeElement && document.activeElement.matches(%q)`, sel), &on)
		if on {
			return
		}
		p.run("Tab", chromedp.KeyEvent(kb.Tab))
	}
	var at string
	p.eval("focus", `document.activeElement ? document.activeElement.outerHTML.slice(0, 120) : ''`, &at)
	p.t.Fatalf("120 Tabs never reached %s; the focus is on %s", sel, at)
}

func (p *page) enter() {
	p.t.Helper()
	p.run("Enter", chromedp.KeyEvent(kb.Enter))
}

// fakeAlerts stands in for the page's sound and notifications, counting
// them: headless chromium plays nothing and shows no notification. The
// page is made to say it is hidden, as a tab in the background does.
const fakeAlerts = `(() => {
  window.__beeps = 0; window.__notes = [];
  window.AudioContext = class {
    constructor() { this.currentTime = 0; this.destination = {}; }
    resume() {} close() {}
    createOscillator() { window.__beeps++; return { frequency: {}, connect: g => g, start() {}, stop() {} }; }
    createGain() { return { gain: { setValueAtTime() {}, exponentialRampToValueAtTime() {} }, connect: d => d }; }
  };
  window.Notification = class { constructor(title, o) { window.__notes.push(title + ' | ' + o.body); } close() {} };
  window.Notification.permission = 'default';
  window.Notification.requestPermission = () => { window.__asked = true; window.Notification.permission = 'granted'; return Promise.resolve('granted'); };
  Object.defineProperty(document, 'hidden', { configurable: true, get: () => true });
  return true;
})()`

type kbPage struct {
	tableState
	Turn   string   `json:"turn"`
	Drawn  string   `json:"drawn"`
	Title  string   `json:"title"`
	Icon   string   `json:"icon"`
	Beeps  int      `json:"beeps"`
	Notes  []string `json:"notes"`
	Mine   []string `json:"mine"`   // my cards' labels
	Others []string `json:"others"` // the other seats' cards' labels
	Silent []string `json:"silent"` // buttons of the game with no name
	Log    []string `json:"log"`
}

var readKb = readTable(`turn: d.turn || '', drawn: d.drawn || '', title: document.title,
    icon: document.querySelector('link[rel=icon]').getAttribute('href'),
    beeps: window.__beeps || 0, notes: window.__notes || [],
    mine: q('.player.mine .slot').map(e => e.getAttribute('aria-label')),
    others: q('.opponents .slot').map(e => e.getAttribute('aria-label')),
    silent: q('#game button').filter(b => !(b.getAttribute('aria-label') || b.textContent.trim())).map(b => b.outerHTML.slice(0, 80)),
    log: q('#log li').map(e => e.textContent)`)

// A Cabo turn played with the keyboard only: Tab to a control, Enter to
// act, a focus ring on what has the focus, every card named for screen
// readers. The tab's title and icon say when it is the player's turn, and
// the sound and notification, once switched on, come once a turn.
func TestBrowserKeyboardTurn(t *testing.T) {
	t.Parallel() // waits on conditions only: see parallel in page_test.go
	p := newPage(t, 700*time.Millisecond, 4*time.Minute)
	p.createTable(table{game: "cabo", players: 2, bots: []string{"easy"}}, `#game`)
	var st kbPage
	// Everyone peeks first: it is Alice's turn at once.
	p.until("the turn title", readKb, &st, func() bool { return st.Phase == "peek" && st.MyTurn == "1" })
	if st.Title != "● Your turn — Tapis" || !strings.HasPrefix(st.Icon, "data:image/svg+xml,") {
		t.Fatalf("at Alice's turn the tab reads %q with the icon %.40q", st.Title, st.Icon)
	}
	var ok bool
	p.eval("fakes", fakeAlerts, &ok)

	// The switches, off at first, turned on with the keyboard, in the
	// settings (issue 26), which Escape closes.
	p.tabTo(`[data-action=settings]`)
	p.enter()
	p.run("the settings", chromedp.WaitVisible(`#settings`, chromedp.ByQuery))
	for _, sw := range []string{"sound", "notify"} {
		sel := fmt.Sprintf(`#settings [data-action=%s]`, sw)
		var pressed string
		p.eval("switch", fmt.Sprintf(`document.querySelector(%q).getAttribute('aria-pressed')`, sel), &pressed)
		if pressed != "false" {
			t.Fatalf("the %s switch starts %s", sw, pressed)
		}
		p.tabTo(sel)
		p.enter()
		p.until("the "+sw+" switch on", fmt.Sprintf(`document.querySelector(%q).getAttribute('aria-pressed')`, sel), &pressed,
			func() bool { return pressed == "true" })
	}
	p.run("Escape", chromedp.KeyEvent(kb.Escape))
	var open bool
	p.until("the settings closed", `!!document.querySelector('#settings')`, &open, func() bool { return !open })
	var kept struct {
		Sound, Notify string
		Asked         bool
	}
	p.eval("remembered", `({sound: localStorage.getItem('tapis.sound'), notify: localStorage.getItem('tapis.notify'), asked: !!window.__asked})`, &kept)
	if kept.Sound != "1" || kept.Notify != "1" || !kept.Asked {
		t.Fatalf("the switches are remembered as %+v", kept)
	}

	// The peek: two of Alice's cards, then Look.
	for _, slot := range []int{0, 1} {
		sel := fmt.Sprintf(`.player.mine .slot[data-slot="%d"]`, slot)
		p.tabTo(sel)
		p.enter()
		var on bool
		p.until("the card chosen", fmt.Sprintf(`document.querySelector(%q).classList.contains('selected')`, sel), &on, func() bool { return on })
		// The table was drawn anew; the focus stayed on the card.
		p.eval("focus kept", fmt.Sprintf(`document.activeElement.matches(%q)`, sel), &on)
		if !on {
			t.Fatalf("after choosing %s with the keyboard the focus left it", sel)
		}
	}
	p.tabTo(`[data-action=look]`)
	p.enter()

	p.until("Alice's turn to draw", readKb, &st, func() bool { return st.Phase == "turn" && st.MyTurn == "1" })
	for _, l := range st.Mine {
		if !regexp.MustCompile(`^Your card \d(, unknown|: \d+)$`).MatchString(l) {
			t.Fatalf("Alice's card is labelled %q", l)
		}
	}
	for _, l := range st.Others {
		if !regexp.MustCompile(`^Bot 2 \(easy\)’s card \d(, unknown|: \d+)$`).MatchString(l) {
			t.Fatalf("the bot's card is labelled %q", l)
		}
	}
	if len(st.Mine) != 4 || len(st.Others) != 4 || len(st.Silent) > 0 {
		t.Fatalf("cards: %d mine, %d the bot's; buttons with no name: %q", len(st.Mine), len(st.Others), st.Silent)
	}

	// Tab to the draw pile, which shows a focus ring; Enter draws.
	p.tabTo(`[data-action=drawpile]`)
	var ring struct{ Style, Width, Label string }
	p.eval("focus ring", `(() => { const e = document.activeElement, s = getComputedStyle(e);
		return {style: s.outlineStyle, width: s.outlineWidth, label: e.getAttribute('aria-label')}; })()`, &ring)
	if ring.Style != "solid" || ring.Width != "3px" || !strings.HasPrefix(ring.Label, "Draw pile, ") {
		t.Fatalf("the focused draw pile: %+v", ring)
	}
	p.enter()
	p.until("the drawn card", readKb, &st, func() bool { return st.Phase == "drawn" && st.MyTurn == "1" })
	var drawn string
	p.eval("drawn label", `document.querySelector('#drawn').getAttribute('aria-label')`, &drawn)
	if drawn != "Drawn card: "+st.Drawn {
		t.Fatalf("the drawn card %s is labelled %q", st.Drawn, drawn)
	}
	card := st.Drawn // st is read again below, with no drawn card
	// Tab to a choice (discard the card), Enter.
	p.tabTo(`[data-action=discard]`)
	p.enter()
	p.until("the bot's turn", readKb, &st, func() bool { return st.Turn == "1" })
	// "an 8", "an 11": the article as the number is said.
	article := "a "
	if card == "8" || card == "11" || card == "18" {
		article = "an "
	}
	// Said to Alice: "You discarded", not "Alice (you) discarded" (issue 26).
	if !slices.ContainsFunc(st.Log, func(l string) bool { return strings.HasPrefix(l, "You discarded "+article+card) }) {
		t.Fatalf("the log does not tell of Alice's discard: %q", st.Log)
	}
	if st.Title != "Tapis" || st.Icon != "/static/back.svg" {
		t.Fatalf("at the bot's turn the tab reads %q with the icon %.40q", st.Title, st.Icon)
	}
	beeps, notes := st.Beeps, len(st.Notes)

	// Alice's next turn: one sound (two notes) and one notification, the
	// tab being hidden; drawing, still her turn, brings no more.
	p.until("Alice's next turn", readKb, &st, func() bool { return st.Phase == "turn" && st.MyTurn == "1" })
	if st.Beeps != beeps+2 || len(st.Notes) != notes+1 || st.Notes[len(st.Notes)-1] != "Your turn | It is your turn to play (Cabo)." {
		t.Fatalf("at her turn: %d notes played (before %d), notifications %q (before %d)", st.Beeps, beeps, st.Notes, notes)
	}
	if st.Title != "● Your turn — Tapis" {
		t.Fatalf("the title reads %q", st.Title)
	}
	p.tabTo(`[data-action=drawpile]`)
	p.enter()
	p.until("the drawn card", readKb, &st, func() bool { return st.Phase == "drawn" && st.MyTurn == "1" })
	if st.Beeps != beeps+2 || len(st.Notes) != notes+1 {
		t.Fatalf("the same turn sounded again: %d notes, %d notifications", st.Beeps, len(st.Notes))
	}
}

// sheetPage is what the score sheet test reads.
type sheetPage struct {
	Rows   int      `json:"rows"`
	Totals []string `json:"totals"`
	Ring   bool     `json:"ring"`
	Bar    bool     `json:"bar"`
	Rank   []string `json:"rank"`
	New    string   `json:"new"`
	Again  bool     `json:"again"`
	Kind   string   `json:"kind"`
}

const readSheet = `(() => {
  const q = s => [...document.querySelectorAll(s)];
  const sheet = document.querySelector('#sheet, #overlay .sheet');
  return {
    rows: sheet ? sheet.querySelectorAll('tbody tr').length : -1,
    totals: sheet ? [...sheet.querySelectorAll('tfoot td')].map(e => e.textContent) : [],
    ring: !!document.querySelector('ul.seats li.me .clock .ring'),
    bar: !!document.querySelector('#game [data-player="0"] > .turnbar'),
    rank: sheet ? [...sheet.querySelectorAll('.sheet-rank li')].map(e => e.dataset.seat + (e.classList.contains('sheet-win') ? 'w' : '')) : [],
    new: (document.querySelector('#overlay [data-action=new-table]') || {}).textContent || '',
    again: !!document.querySelector('#overlay [data-action=again]'),
    kind: (document.querySelector('#overlay') || {dataset: {}}).dataset.kind || '',
  };
})()`

// playWS plays random moves for seat 0 over c until done says stop.
func playWS(t *testing.T, c *servertest.Client, rng *rand.Rand, done func(servertest.Sheet) bool) servertest.Sheet {
	t.Helper()
	pending := false
	for {
		s, err := c.NextSheet()
		if err != nil {
			t.Fatal(err)
		}
		if done(s) {
			return s
		}
		if s.By == 0 {
			pending = false
		}
		if !pending && slices.Contains(s.ToMove, 0) && len(s.Legal) > 0 {
			pending = true
			c.Send(map[string]any{"type": "move", "move": s.Legal[rng.IntN(len(s.Legal))]})
		}
	}
}

// A page opened in the middle of a match has the whole score sheet, on
// demand from the header, its totals the server's; the seat on the clock
// shows its time as a ring and a bar; at the match's end the game's panel
// holds the final ranking with Play again and New table. Photographed at
// 390x844 and 1366x768.
func TestBrowserScoreSheet(t *testing.T) {
	t.Parallel() // waits on conditions only: see parallel in page_test.go
	p := newPage(t, -1, 10*time.Minute)
	var r servertest.Seat
	if code := p.h.Post("/api/tables", map[string]any{"game": "papayoo", "players": 4, "bots": []string{"", "random", "random", "random"},
		"name": "Alice", "turn_seconds": 60}, &r); code != http.StatusCreated {
		t.Fatalf("create: %d", code)
	}
	rng := rand.New(rand.NewPCG(3, 4))
	c := p.h.Dial(r.Table, r.Token)
	mid := playWS(t, c, rng, func(s servertest.Sheet) bool { return s.Result.Rounds >= 2 && slices.Contains(s.ToMove, 0) })
	c.Conn.CloseNow()
	<-c.Done()
	tok, _ := json.Marshal(map[string]any{"seat": r.Seat, "token": r.Token})
	p.run("open the table", chromedp.Navigate(p.h.URL+"/"),
		chromedp.Evaluate(fmt.Sprintf(`localStorage.setItem('tapis.seat.%s', %q); localStorage.setItem('tapis.lang', 'en')`, r.Table, tok), nil),
		chromedp.Navigate(p.h.URL+"/t/"+r.Table), chromedp.WaitVisible(`#game`, chromedp.ByQuery))
	var sp sheetPage
	p.until("the clock's ring and bar", readSheet, &sp, func() bool { return sp.Ring && sp.Bar })
	p.click(`[data-action=sheet]`)
	p.until("the score sheet", readSheet, &sp, func() bool { return sp.Rows >= 0 })
	want := []string{}
	for _, x := range mid.Result.Scores {
		want = append(want, fmt.Sprint(x))
	}
	if sp.Rows != len(mid.Rounds) || sp.Rows != mid.Result.Rounds || !slices.Equal(sp.Totals, want) {
		t.Fatalf("the sheet has %d rounds and totals %q; the server %d rounds, scores %q", sp.Rows, sp.Totals, mid.Result.Rounds, want)
	}
	shots := func(name string) {
		t.Helper()
		for _, vp := range [][2]int64{{390, 844}, {1366, 768}} {
			p.run("viewport", chromedp.EmulateViewport(vp[0], vp[1]))
			var w int64
			p.until("the page's width", `window.innerWidth`, &w, func() bool { return w == vp[0] })
			p.shoot(fmt.Sprintf("%s-%d.png", name, vp[0]), chromedp.Sleep(300*time.Millisecond))
		}
	}
	shots("sheet")
	p.run("close the sheet", chromedp.KeyEvent(kb.Escape))
	p.until("the sheet closed", readSheet, &sp, func() bool { return sp.Rows < 0 })
	shots("ring")

	// The rest of the match, played over another connection of the seat.
	c = p.h.Dial(r.Table, r.Token)
	end := playWS(t, c, rng, func(s servertest.Sheet) bool { return s.Status == "over" })
	p.until("the final panel", readSheet, &sp, func() bool { return sp.Kind == "over" && len(sp.Rank) > 0 })
	if sp.Rows != end.Result.Rounds || len(sp.Rank) != 4 || !strings.HasSuffix(sp.Rank[0], "w") || sp.New != "New table" || !sp.Again {
		t.Fatalf("the final panel: %+v; the server: %d rounds, winners %v", sp, end.Result.Rounds, end.Result.Winners)
	}
	// Papayoo's lowest score wins: the ranking goes up.
	prev := -1 << 30
	for _, e := range sp.Rank {
		var s int
		fmt.Sscan(strings.TrimSuffix(e, "w"), &s)
		if end.Result.Scores[s] < prev {
			t.Fatalf("the ranking %q is not by score %v", sp.Rank, end.Result.Scores)
		}
		prev = end.Result.Scores[s]
	}
	shots("over")
}
