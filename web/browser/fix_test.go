package browser

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/input"
	"github.com/chromedp/cdproto/network"
	cdpruntime "github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/chromedp"

	"tapis/game"
	"tapis/games"
	"tapis/limit"
	"tapis/server/servertest"
)

// The two sizes every game is photographed and checked at: a phone
// (390×844) and a laptop (1366×768).
var sizes = [][2]int{{390, 844}, {1366, 768}}

// resize shows the page at w×h and waits for the page to know it.
func (p *page) resize(w, h int) {
	p.t.Helper()
	p.run("resize", chromedp.EmulateViewport(int64(w), int64(h)))
	var inner int
	p.until(fmt.Sprintf("the page to be %d px wide", w), `window.innerWidth`, &inner, func() bool { return inner == w })
	// The page lays itself out again for the new width (the header's
	// buttons shrink or grow): a click aimed before that would land
	// beside its button. Two reads alike in a row say it is done.
	var at, last string
	p.until("the page laid out again", `JSON.stringify([...document.querySelectorAll('header button, #game, #chat')].map(e => {
		const r = e.getBoundingClientRect(); return [Math.round(r.x), Math.round(r.y), Math.round(r.width), Math.round(r.height)]; }))`,
		&at, func() bool { same := at == last; last = at; return same })
	// A table's names are measured for the new width in the frame after
	// the resize (names.js): a bot's name cut at one line until then.
	var names int
	p.until("the names measured at the new width", `document.querySelector('#game') ? +(document.documentElement.dataset.namesWidth || 0) : window.innerWidth`,
		&names, func() bool { return names == w })
}

// shootSizes photographs what a player sees of the page (the window, not
// the whole scrolled page) at each of sizes, as base-390.png and
// base-1366.png in the test's folder, then goes back to the desktop.
func (p *page) shootSizes(base string, settle time.Duration) {
	p.t.Helper()
	for _, sz := range sizes {
		p.resize(sz[0], sz[1])
		var png []byte
		p.run("screenshot "+base, chromedp.Sleep(settle), chromedp.CaptureScreenshot(&png))
		p.save(fmt.Sprintf("%s-%d.png", base, sz[0]), png)
	}
	p.desktop()
}

// save writes a photograph into the test's folder.
func (p *page) save(name string, png []byte) {
	p.t.Helper()
	if err := os.WriteFile(filepath.Join(p.dir, name), png, 0o644); err != nil {
		p.t.Fatal(err)
	}
}

// langReachable checks, at each of sizes, that the language button is
// the element under its own centre and that a click on it switches the
// language (then switches back): the header stays reachable whatever is
// shown over the table.
func (p *page) langReachable(during string) {
	p.t.Helper()
	for _, sz := range sizes {
		p.resize(sz[0], sz[1])
		var on bool
		p.eval("what is over the language button", `(() => {
			const b = document.querySelector('#lang'); const r = b.getBoundingClientRect();
			const e = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
			return !!e && b.contains(e);
		})()`, &on)
		if !on {
			p.t.Fatalf("at %d×%d during %s, the language button is covered", sz[0], sz[1], during)
		}
		for range 2 {
			var before, after string
			p.eval("the language", `document.documentElement.lang`, &before)
			if !p.click(`#lang`) {
				p.t.Fatalf("at %d×%d during %s, no language button", sz[0], sz[1], during)
			}
			p.until("the language to switch", `document.documentElement.lang`, &after, func() bool { return after != before })
		}
	}
	p.desktop()
}

// roundPanelScores checks Cabo's end-of-round panel: its total, round and
// score columns are all numbers, a 0 printed as 0 (the round's winner
// always scores 0), not left blank.
func (p *page) roundPanelScores() {
	p.t.Helper()
	var cells [][]string
	p.eval("the round's scores", `[...document.querySelectorAll('#overlay table.results tr')].slice(1)
		.map(r => [...r.cells].slice(2).map(c => c.textContent))`, &cells)
	zero := false
	for _, row := range cells {
		if len(row) != 3 {
			p.t.Fatalf("the round's panel reads %q", cells)
		}
		for _, c := range row {
			var n int
			if _, err := fmt.Sscan(c, &n); err != nil || fmt.Sprint(n) != c {
				p.t.Fatalf("the round's panel has a score %q that is not a number: %q", c, cells)
			}
		}
		zero = zero || row[1] == "0"
	}
	if len(cells) == 0 || !zero {
		p.t.Fatalf("the round's panel shows no round score of 0: %q", cells)
	}
}

// A 0 is printed: h() takes it for a child, and the generic screen shows
// the scores of a game that has just begun as 0, not blank.
func TestBrowserZeroIsPrinted(t *testing.T) {
	t.Parallel() // waits on conditions only: see parallel in page_test.go
	p := newPage(t, time.Second, 2*time.Minute)
	p.createTable(table{game: "cabo", players: 2, bots: []string{"random"}}, `#game`)
	var built []string
	p.run("h()", chromedp.Evaluate(`import('/static/dom.js').then(({h}) => [
		h('td', 0).textContent, h('td', {}, 0).textContent, h('td', 'a', 0, 'b').textContent,
		String(h('td', null).childNodes.length), String(h('td', false).childNodes.length),
		String(h('td', undefined, null, false).childNodes.length), h('td', [0, 1]).textContent])`, &built,
		func(e *cdpruntime.EvaluateParams) *cdpruntime.EvaluateParams { return e.WithAwaitPromise(true) }))
	if want := []string{"0", "0", "a0b", "0", "0", "0", "01"}; !slices.Equal(built, want) {
		t.Fatalf("h() built %q, want %q", built, want)
	}
	p.run("generic screen", chromedp.Evaluate(`location.search = '?screen=generic'`, nil))
	var scores []string
	p.until("the generic screen's scores", `[...document.querySelectorAll('.generic table.results tr')].map(r => r.cells[1].textContent)`,
		&scores, func() bool { return len(scores) == 2 })
	if !slices.Equal(scores, []string{"0", "0"}) {
		t.Fatalf("a game that has just begun shows the scores %q", scores)
	}
}

// caboFailedClaims plays, with the real engine, a wrong set claim with a
// drawn card and one with the discard's, and returns their events as a
// spectator sees them (and as they come to every page), in JSON.
func caboFailedClaims(t *testing.T) []json.RawMessage {
	t.Helper()
	g := games.Named("cabo")
	// Alice (0) holds 0 1 2 3 and Bob (1) 9 8 9 9; the draw pile's top is a 7.
	st, err := g.New(game.Config{Players: 2, Seed: 7,
		Stacks: []json.RawMessage{json.RawMessage(`{"hands":[[0,1,2,3],[9,8,9,9]],"discard":4,"draw":[7]}`)}})
	if err != nil {
		t.Fatal(err)
	}
	var out []json.RawMessage
	for _, m := range []struct {
		seat game.Seat
		move string
	}{
		{0, `{"type":"peek_initial","slots":[0,1]}`},
		{1, `{"type":"peek_initial","slots":[2,3]}`},
		{0, `{"type":"draw"}`},
		{0, `{"type":"replace","slots":[0,1]}`},      // 0 and 1: wrong, the 7 is discarded
		{1, `{"type":"take_discard","slots":[0,1]}`}, // 9 and 8: wrong, the 7 goes back
	} {
		mv, err := g.UnmarshalMove(json.RawMessage(m.move))
		if err != nil {
			t.Fatal(err)
		}
		var log game.Log
		if err := st.Apply(m.seat, mv, &log); err != nil {
			t.Fatalf("%s: %v", m.move, err)
		}
		for _, e := range log.For(game.Spectator) {
			b, err := json.Marshal(e.Data)
			if err != nil {
				t.Fatal(err)
			}
			if strings.Contains(string(b), `"failed":true`) {
				out = append(out, b)
			}
		}
	}
	if len(out) != 2 {
		t.Fatalf("the engine's failed claims: %s", out)
	}
	return out
}

// A wrong set claim in Cabo (legal, and costly: bots make some on purpose)
// reads in the game log as wrong, with what it cost, in both languages.
func TestBrowserCaboWrongClaim(t *testing.T) {
	t.Parallel() // waits on conditions only: see parallel in page_test.go
	events := caboFailedClaims(t)
	p := newPage(t, time.Second, time.Minute)
	p.run("home page", chromedp.Navigate(p.h.URL+"/"), chromedp.WaitVisible(`#create`, chromedp.ByQuery))
	list, _ := json.Marshal(events)
	lines := map[string][]string{}
	for _, lang := range []string{"en", "fr"} {
		var got []string
		p.run("log lines", chromedp.Evaluate(fmt.Sprintf(`Promise.all([import('/static/cabo.js'), import('/static/i18n.js')]).then(([c, i]) => {
			i.setLang(%q);
			const ui = c.caboUI({seat: -1, state: null, name: s => ['Alice', 'Bob'][s], render() {}});
			return %s.map(e => ui.logLine(e));
		})`, lang, list), &got, func(e *cdpruntime.EvaluateParams) *cdpruntime.EvaluateParams { return e.WithAwaitPromise(true) }))
		lines[lang] = got
	}
	want := map[string][]string{
		"en": {"Alice claimed that their cards 1, 2 were a set, but the claim was wrong: they are 0, 1. It cost Alice the turn: the 7 they drew is discarded, and those cards stay where they were, now seen by everyone.",
			"Bob claimed that their cards 1, 2 were a set, but the claim was wrong: they are 9, 8. It cost Bob the turn: the 7 they took goes back on the discard pile, and those cards stay where they were, now seen by everyone."},
		"fr": {"Alice a annoncé une série avec ses cartes 1, 2, mais c’était faux : ce sont 0, 1. Cela coûte son tour à Alice : le 7 pioché part à la défausse, et ces cartes restent en place, vues de tous.",
			"Bob a annoncé une série avec ses cartes 1, 2, mais c’était faux : ce sont 9, 8. Cela coûte son tour à Bob : le 7 pris retourne sur la défausse, et ces cartes restent en place, vues de tous."},
	}
	for _, lang := range []string{"en", "fr"} {
		if !slices.Equal(lines[lang], want[lang]) {
			t.Errorf("%s: the failed claims read\n%q\nwant\n%q\n(events %s)", lang, lines[lang], want[lang], events)
		}
	}
}

// A guest who opens an invite link is told which table it is (the game,
// who sits where, the free seats, the rules chosen, the time per move) and
// what to do, in both languages; the creator is shown the server's invite
// link, which names the host a trusted proxy forwards.
func TestBrowserJoinPage(t *testing.T) {
	t.Parallel() // waits on conditions only: see parallel in page_test.go
	cfg := servertest.Unlimited()
	var err error
	// The browser's requests come from 127.0.0.1, posing as the proxy.
	if cfg.Proxies, err = limit.ParseProxies("127.0.0.1/32"); err != nil {
		t.Fatal(err)
	}
	p := newPageWith(t, cfg, 2*time.Minute)

	// The creator, behind a proxy that says the site is https://cards.example.
	p.run("forwarded headers", network.Enable(), network.SetExtraHTTPHeaders(network.Headers{
		"X-Forwarded-Host": "cards.example", "X-Forwarded-Proto": "https"}))
	p.createTable(table{game: "cabo", players: 3, bots: []string{"normal", ""}, turn: "60",
		options: map[string]string{"hand_size": "6"}}, `.invite`)
	var link, id string
	p.eval("invite link", `document.querySelector('#invite').value`, &link)
	p.eval("table id", `location.pathname.slice(3)`, &id)
	if want := "https://cards.example/t/" + id; link != want {
		t.Fatalf("the invite link reads %q, want %q", link, want)
	}
	p.run("no forwarded headers", network.SetExtraHTTPHeaders(network.Headers{}))

	// The guest, in another browser's place: no token for this table and
	// no session (the creator's would seat the page at the creator's seat).
	p.run("guest", chromedp.Evaluate(`localStorage.clear()`, nil), network.ClearBrowserCookies(), chromedp.Navigate(p.h.URL+"/t/"+id),
		chromedp.WaitVisible(`#joininfo`, chromedp.ByQuery))
	type summary struct {
		Text  string   `json:"text"`
		Seats []string `json:"seats"`
		Free  []string `json:"free"`
		Rules string   `json:"rules"`
	}
	const read = `(() => { const j = document.querySelector('#joininfo');
		return {text: j.innerText, seats: [...j.querySelectorAll('li')].map(l => l.textContent),
			free: [...j.querySelectorAll('li.free')].map(l => l.dataset.seat), rules: document.querySelector('#joinrules').textContent}; })()`
	var s summary
	p.until("the join page's summary", read, &s, func() bool { return len(s.Seats) == 3 })
	for _, w := range []string{"A table of Cabo for 3 players.", "Time per move: 1 min",
		"Type your name and take a seat; the game starts when every seat is taken."} {
		if !strings.Contains(s.Text, w) {
			t.Errorf("the join page does not say %q: %q", w, s.Text)
		}
	}
	if want := []string{"Seat 1 Alice", "Seat 2 Bot 2 (normal)", "Seat 3 free seat"}; !slices.Equal(s.Seats, want) || !slices.Equal(s.Free, []string{"2"}) {
		t.Errorf("the join page's seats: %q (free %q), want %q", s.Seats, s.Free, want)
	}
	if want := "Rules: as written, except Cards per player: 6."; s.Rules != want {
		t.Errorf("the join page's rules: %q, want %q", s.Rules, want)
	}
	p.shootSizes("join", 200*time.Millisecond)

	p.click(`#lang`)
	p.until("the join page in French", read, &s, func() bool { return strings.Contains(s.Text, "Une table de Cabo") })
	for _, w := range []string{"Une table de Cabo pour 3 joueurs.", "Temps par coup", "Règles : telles qu’écrites, sauf Cartes par joueur : 6.",
		"Tapez votre nom et prenez une place ; la partie commence quand toutes les places sont prises."} {
		if !strings.Contains(s.Text, w) {
			t.Errorf("the join page in French does not say %q: %q", w, s.Text)
		}
	}
	// The guest types their name, then the page is drawn anew (the
	// language switched back): what was typed is still there.
	p.run("type the name", chromedp.Evaluate(`document.querySelector('#join input[name=name]').value = ''`, nil),
		chromedp.SendKeys(`#join input[name=name]`, "Guest", chromedp.ByQuery))
	p.click(`#lang`)
	p.until("the join page in English again", read, &s, func() bool { return strings.Contains(s.Text, "A table of Cabo") })
	var typed string
	p.eval("the name typed", `document.querySelector('#join input[name=name]').value`, &typed)
	if typed != "Guest" {
		t.Errorf("after the page was drawn again the name field reads %q, want what was typed, \"Guest\"", typed)
	}

	// And the guest sits down: the table starts. The guest presses the
	// button, a spectator comes meanwhile (a "watchers" message: the page
	// is drawn anew, the button with it), and the guest lets go over the
	// new button: that is a press, and the guest is seated (with a plain
	// click it was lost, and CI once waited 12 minutes for a seat).
	at := p.spot(`[data-action=join]`, `return [r.left + r.width / 2, r.top + r.height / 2];`)
	if len(at) != 2 {
		t.Fatal("no join button to press")
	}
	p.run("mark the join button", chromedp.Evaluate(`document.querySelector('[data-action=join]').dataset.old = '1'`, nil))
	p.run("press", input.DispatchMouseEvent(input.MousePressed, at[0], at[1]).WithButton(input.Left).WithClickCount(1))
	p.h.Dial(id, "")
	var redrawn bool
	p.until("the join button drawn anew", `!!document.querySelector('[data-action=join]:not([data-old])')`, &redrawn, func() bool { return redrawn })
	p.run("release", input.DispatchMouseEvent(input.MouseReleased, at[0], at[1]).WithButton(input.Left).WithClickCount(1))
	var status string
	p.until("the table to start", `document.querySelector('#table')?.dataset.status || ''`, &status, func() bool { return status == "playing" })
	if in := p.h.Info(id); in.Seats[2].Name != "Guest" {
		t.Errorf("seat 3 is %q's, want the guest's", in.Seats[2].Name)
	}
}
