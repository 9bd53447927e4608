package browser

import (
	"context"
	"fmt"
	"net/http"
	"slices"
	"strings"
	"testing"
	"time"

	cdppage "github.com/chromedp/cdproto/page"
	cdpruntime "github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/chromedp"
)

// Issue 26, the actions players expect: a question before a Cabo call
// during the first games, a pace (slow, normal, fast) for the bots and the
// animations, the spectators counted in the table's header, and a timeout
// of the time per move told on the screen.

// readCaboCall is readCabo and whether the player's seat shows them as
// the caller of this round.
var readCaboCall = readTable(`drawn: d.drawn || '',
    mine: q('.player.mine .slot:not(.empty)').map(e => +e.dataset.slot),
    sel: q('.player.mine .slot.selected').map(e => +e.dataset.slot),
    cabo: !!document.querySelector('[data-action=cabo]'),
    called: q('.player.mine .badge').some(b => b.textContent === 'called Cabo'),
    asked: !!document.querySelector('#confirm-cabo')`)

// caboCall is what readCaboCall reads.
type caboCall struct {
	caboPage
	Called bool `json:"called"`
	Asked  bool `json:"asked"`
}

// freshCabo opens the home page, answers the first-turn guides (the
// tests' photographs show the table as a returning player sees it), and
// creates a Cabo table against a random bot.
func (p *page) freshCabo() {
	p.t.Helper()
	p.run("home", chromedp.Navigate(p.h.URL+"/"), chromedp.WaitVisible(`#create`, chromedp.ByQuery),
		chromedp.Evaluate(`['cabo','papayoo','limits','dacapo'].forEach(g => localStorage.setItem('tapis.guide.' + g, 'no'))`, nil))
	p.createTable(table{game: "cabo", players: 2, bots: []string{"random"}}, `#game`)
}

// caboStep plays one step of a Cabo game the test only plays on: it
// closes a round's panel, looks, draws, discards. It returns the page as
// it read it before the step; callable says the step stopped at a turn
// where Cabo may be called, without acting.
func (p *page) caboStep(st *caboCall, stopAtCall bool) (callable bool) {
	p.t.Helper()
	p.untilTurn(readCaboCall, st, &st.tableState, "round")
	switch {
	case st.Status == "over":
		p.t.Fatal("the game ended before the test was done")
	case st.Overlay == "round":
		p.click(`[data-action=close-overlay]`)
	case st.Phase == "peek":
		p.caboLook(st.caboPage)
	case st.Phase == "turn" && stopAtCall && st.Cabo:
		return true
	case st.Phase == "turn":
		p.click(`[data-action=drawpile]`)
	case st.Phase == "drawn":
		p.click(`[data-action=discard]`)
	}
	return false
}

// untilCallable plays on until the player may call Cabo.
func (p *page) untilCallable() caboCall {
	p.t.Helper()
	var st caboCall
	for range 300 {
		if p.caboStep(&st, true) {
			return st
		}
	}
	p.t.Fatal("no turn to call Cabo in 300 steps")
	return st
}

// openSettings presses the table bar's gear until the settings show.
// The bar is drawn anew on every message (a bot's move at the slow pace
// comes every second or two), and a press that meets a new gear on its
// release is lost: a person would press again, and so does clickFor.
func (p *page) openSettings() {
	p.t.Helper()
	var there bool
	p.clickFor(`[data-action=settings]`, "the settings", `!!document.querySelector('#settings')`, &there, func() bool { return there })
}

// settingsBox reads whether the settings' Cabo box is ticked, opening
// and closing the settings.
func (p *page) settingsBox() bool {
	p.t.Helper()
	p.openSettings()
	p.run("the settings", chromedp.WaitVisible(`#settings input[name=confirm-cabo]`, chromedp.ByQuery))
	var on bool
	p.eval("the Cabo box", `document.querySelector('#settings input[name=confirm-cabo]').checked`, &on)
	p.click(`[data-action=close-settings]`)
	return on
}

// A first game of Cabo asks before "Call Cabo!" is sent, in the page:
// "Not yet" sends nothing, "Call Cabo!" calls. The question is on during
// the first 5 games (counted by the browser) and off after; turned off in
// the settings, the call is one tap again.
func TestBrowserConfirmCabo(t *testing.T) {
	t.Parallel() // waits on conditions only: see parallel in page_test.go
	p := newPage(t, 20*time.Millisecond, 6*time.Minute)
	p.freshCabo()
	if !p.settingsBox() {
		t.Fatal("a first game of Cabo does not ask before a call")
	}
	// Counted games: the fifth finished turns the question off, unless
	// the player chose.
	p.eval("five games finished", `localStorage.setItem('tapis.finished.cabo', '5'), true`, nil)
	if p.settingsBox() {
		t.Error("after 5 games of Cabo the call still asks")
	}
	p.eval("four games finished", `localStorage.setItem('tapis.finished.cabo', '4'), true`, nil)
	if !p.settingsBox() {
		t.Error("after 4 games of Cabo the call no longer asks")
	}

	st := p.untilCallable()
	p.click(`[data-action=cabo]`)
	p.run("the question", chromedp.WaitVisible(`#confirm-cabo`, chromedp.ByQuery))
	var words string
	p.eval("its words", text(`#confirm-cabo-text`), &words)
	if !strings.Contains(words, "one last turn") || !strings.Contains(words, "5-point penalty") {
		t.Errorf("the question before a call says %q", words)
	}
	p.shootSizes("settings-cabo-ask", 200*time.Millisecond)
	p.click(`[data-action=cancel-cabo]`)
	p.until("the question gone, Cabo not called", readCaboCall, &st, func() bool { return !st.Asked })
	if st.Called || !st.Cabo || st.MyTurn != "1" || st.Phase != "turn" {
		t.Fatalf("after \"Not yet\" the page reads %+v", st)
	}
	// "Don't ask me again", ticked, is remembered.
	p.click(`[data-action=cabo]`)
	p.run("the question again", chromedp.WaitVisible(`#confirm-cabo`, chromedp.ByQuery))
	p.click(`#confirm-cabo input[name=cabo-never]`)
	round := st.Round
	p.click(`[data-action=confirm-cabo]`)
	// The call shows as the seat's badge until the round ends, which a
	// bot at 20 ms may make happen before the page is read: a round over
	// right after the click is the call too (nothing else ends a round
	// with the draw pile this full).
	p.until("the call made", readCaboCall, &st, func() bool { return st.Called || st.Round != round })
	p.endRound()
	if p.settingsBox() {
		t.Fatal("the settings forgot \"Don't ask me again\"")
	}
	// Then the next round's call is one tap.
	st = p.untilCallable()
	round = st.Round
	p.click(`[data-action=cabo]`)
	// As above, a round over right after the tap is the call: the
	// random bot's last turn at 20 ms may end the round before the page
	// is read. The question, once up, holds the round where it is.
	p.until("the call made at once", readCaboCall, &st, func() bool { return st.Called || st.Asked || st.Round != round })
	if st.Asked {
		t.Fatal("the question comes though the player said not to ask again")
	}
	// And the settings turn it on again.
	p.endRound()
	p.openSettings()
	p.run("the settings", chromedp.WaitVisible(`#settings input[name=confirm-cabo]`, chromedp.ByQuery))
	p.shootSizes("settings-panel-cabo", 200*time.Millisecond)
	p.click(`#settings input[name=confirm-cabo]`)
	p.click(`[data-action=close-settings]`)
	if !p.settingsBox() {
		t.Fatal("the question, turned on in the settings, is still off")
	}
}

// endRound waits for the end of the round and closes its panel.
func (p *page) endRound() {
	p.t.Helper()
	var st caboCall
	p.until("the round's end", readCaboCall, &st, func() bool { return st.Overlay == "round" || st.Status == "over" })
	if st.Status == "over" {
		p.t.Fatal("the game ended before the test was done")
	}
	p.click(`[data-action=close-overlay]`)
}

// awaitPromise makes an evaluation wait for the promise it returns.
func awaitPromise(e *cdpruntime.EvaluateParams) *cdpruntime.EvaluateParams {
	return e.WithAwaitPromise(true)
}

// recordStates is a script run before the page's own: it notes when each
// state message arrives (performance.now(), its mover and number) in
// window.tapisStates, and the pace messages the page sends in
// window.tapisPaces.
const recordStates = `window.tapisStates = []; window.tapisPaces = [];
(() => {
  const Orig = window.WebSocket;
  window.WebSocket = class extends Orig {
    constructor(...a) {
      super(...a);
      this.addEventListener('message', e => {
        try { const m = JSON.parse(e.data); if (m.type === 'state') tapisStates.push({at: performance.now(), by: m.by, n: m.n}); } catch {}
      });
    }
    send(d) {
      try { const m = JSON.parse(d); if (m.type === 'pace') tapisPaces.push(m.pace); } catch {}
      return super.send(d);
    }
  };
})();`

// The pace a player chooses paces what they see: their cards travel for
// 600 ms at "slow" and 120 ms at "fast", and the bots of their table wait
// twice the server's delay (1 s here) before each move at "slow", a
// quarter of it at "fast". The server's wait is a lower bound (it never
// moves sooner), so the slow moves are at least 2 s apart whatever the
// machine's load; the fast ones, far less than the normal 1 s.
func TestBrowserPace(t *testing.T) {
	p := newPage(t, time.Second, 10*time.Minute)
	p.run("the recorder", chromedp.ActionFunc(func(ctx context.Context) error {
		_, err := cdppage.AddScriptToEvaluateOnNewDocument(recordStates).Do(ctx)
		return err
	}))
	p.freshCabo()

	// The settings: normal by default, photographed, in both languages.
	p.openSettings()
	p.run("the settings", chromedp.WaitVisible(`#settings`, chromedp.ByQuery))
	var checked string
	p.eval("the pace chosen", `document.querySelector('#settings input[name=pace]:checked')?.value || ''`, &checked)
	if checked != "normal" {
		t.Fatalf("the pace is %q by default", checked)
	}
	p.shootSizes("settings-panel", 200*time.Millisecond)
	var labels string
	p.eval("the settings' words", text(`#settings`), &labels)
	for _, w := range []string{"Settings", "Speed of the bots and animations", "Slow", "Normal", "Fast", "Ask before calling Cabo", "When it is your turn", "Sound", "Alerts"} {
		if !strings.Contains(labels, w) {
			t.Errorf("the settings do not say %q: %q", w, labels)
		}
	}
	// The turn alerts' switches moved there from the table's bar, which
	// keeps one line on a phone: they still switch.
	p.click(`#settings [data-action=sound]`)
	var pressed string
	p.until("the sound on", `document.querySelector('#settings [data-action=sound]')?.getAttribute('aria-pressed') + ' ' + localStorage.getItem('tapis.sound')`, &pressed,
		func() bool { return pressed == "true 1" })
	p.click(`[data-action=close-settings]`)
	p.switchLang("fr")
	p.openSettings()
	p.run("the settings in French", chromedp.WaitVisible(`#settings`, chromedp.ByQuery))
	p.eval("the settings' words in French", text(`#settings`), &labels)
	for _, w := range []string{"Réglages", "Vitesse des robots et des animations", "Lente", "Normale", "Rapide", "Demander avant d’annoncer Cabo", "Quand c’est votre tour", "Son"} {
		if !strings.Contains(labels, w) {
			t.Errorf("the settings in French do not say %q: %q", w, labels)
		}
	}
	p.shootSizes("settings-panel-fr", 200*time.Millisecond)
	p.click(`[data-action=close-settings]`)
	p.switchLang("en")

	// choose picks a pace in the settings and returns when the page told
	// the table (performance.now() then).
	choose := func(pace string) float64 {
		t.Helper()
		p.openSettings()
		p.run("the settings", chromedp.WaitVisible(`#settings`, chromedp.ByQuery))
		p.click(`#settings input[name=pace][value=` + pace + `]`)
		p.click(`[data-action=close-settings]`)
		var told bool
		p.until("the pace told to the table", `tapisPaces.at(-1) === '`+pace+`'`, &told, func() bool { return told })
		var now float64
		p.eval("the time", `performance.now()`, &now)
		return now
	}
	// travel draws a card and says how long its travel from the draw
	// pile takes, then discards it.
	travel := func() float64 {
		t.Helper()
		var st caboCall
		for range 300 {
			if p.caboStep(&st, true) {
				break
			}
		}
		p.eval("watch the draw", `window.tapisTravel = new Promise(done => {
			const ob = new MutationObserver(() => {
				if (!document.querySelector('#drawn')) return;
				ob.disconnect();
				done(document.getAnimations().filter(a => a.id === 'tapis-motion').map(a => a.effect.getTiming().duration));
			});
			ob.observe(document.getElementById('main'), {childList: true, subtree: true});
		}), true`, nil)
		p.click(`[data-action=drawpile]`)
		var ms []float64
		p.run("the travel", chromedp.Evaluate(`window.tapisTravel`, &ms, awaitPromise))
		if len(ms) == 0 {
			t.Fatal("the drawn card does not travel")
		}
		p.caboStep(&st, true) // the discard
		return slices.Max(ms)
	}
	// gaps plays on until the bot has made n moves in a row after since
	// (and a moment for the pace to reach the table), and returns the
	// times between them, in ms.
	gaps := func(since float64, n int) []float64 {
		t.Helper()
		js := fmt.Sprintf(`(() => {
			const s = tapisStates.filter(x => x.at > %f + 300), g = [];
			for (let i = 1; i < s.length; i++) if (s[i].by === 1 && s[i-1].by === 1 && s[i].n === s[i-1].n + 1) g.push(s[i].at - s[i-1].at);
			return g;
		})()`, since)
		var g []float64
		var st caboCall
		for range 400 {
			p.eval("the bot's moves", js, &g)
			if len(g) >= n {
				return g
			}
			p.caboStep(&st, false)
		}
		t.Fatalf("the bot made only %d moves in a row", len(g))
		return nil
	}

	since := choose("slow")
	if ms := travel(); ms != 600 {
		t.Errorf("at slow a card travels for %v ms", ms)
	}
	slow := gaps(since, 3)
	t.Logf("slow: the bot's moves %v ms apart", slow)
	for _, g := range slow {
		if g < 1800 {
			t.Errorf("at slow the bot moved %v ms after its last move (a server delay of 1 s, doubled)", g)
		}
	}
	since = choose("fast")
	if ms := travel(); ms != 120 {
		t.Errorf("at fast a card travels for %v ms", ms)
	}
	fast := gaps(since, 3)
	t.Logf("fast: the bot's moves %v ms apart", fast)
	slices.Sort(fast)
	if med := fast[len(fast)/2]; med >= 1000 {
		t.Errorf("at fast the bot's moves are %v ms apart (median %v): no faster than normal", fast, med)
	}
}

// Spectators at a table are counted in its header, an eye and a number,
// its words (a tooltip, for screen readers its label) in both languages;
// none, no eye.
func TestBrowserSpectatorCount(t *testing.T) {
	t.Parallel() // waits on conditions only: see parallel in page_test.go
	p := newPage(t, 20*time.Millisecond, 4*time.Minute)
	p.freshCabo()
	id := p.tableID()
	var shown struct {
		Label, Title, N string
		There           bool
	}
	read := `(() => { const w = document.querySelector('#watchers'); return w ? {there: true, label: w.getAttribute('aria-label'), title: w.title, n: w.textContent} : {there: false}; })()`
	p.eval("no spectator", read, &shown)
	if shown.There {
		t.Fatalf("a table nobody watches shows %+v", shown)
	}
	a, b := p.h.Dial(id, ""), p.h.Dial(id, "")
	a.Next("welcome")
	b.Next("welcome")
	p.until("two spectators shown", read, &shown, func() bool { return shown.N == "2" })
	if shown.Label != "2 spectators" || shown.Title != "2 spectators" {
		t.Fatalf("two spectators are said as %+v", shown)
	}
	p.shootSizes("spectators", 200*time.Millisecond)
	p.switchLang("fr")
	p.until("two spectators in French", read, &shown, func() bool { return shown.Label == "2 spectateurs" })
	a.Conn.CloseNow()
	p.until("one spectator, in French", read, &shown, func() bool { return shown.N == "1" })
	if shown.Label != "1 spectateur" || shown.Title != "1 spectateur" {
		t.Fatalf("one spectator is said as %+v", shown)
	}
	p.switchLang("en")
	p.until("one spectator", read, &shown, func() bool { return shown.Label == "1 spectator" })
	b.Conn.CloseNow()
	p.until("no spectator left", read, &shown, func() bool { return !shown.There })
}

// A time per move run out is told on the screen of everyone at the
// table: Bob's, in words naming him on Alice's page, and Alice's own as
// hers; in both languages.
func TestBrowserTimeoutToast(t *testing.T) {
	p := newPage(t, 20*time.Millisecond, 5*time.Minute)
	var alice struct {
		Table string `json:"table"`
		Seat  int    `json:"seat"`
		Token string `json:"token"`
	}
	if code := p.h.Post("/api/tables", map[string]any{"game": "cabo", "players": 2, "bots": []string{"", ""}, "name": "Alice", "turn_seconds": 10}, &alice); code != http.StatusCreated {
		t.Fatalf("creating the table: %d", code)
	}
	p.run("home", chromedp.Navigate(p.h.URL+"/"), chromedp.WaitVisible(`#create`, chromedp.ByQuery),
		chromedp.Evaluate(fmt.Sprintf(`localStorage.setItem('tapis.guide.cabo', 'no'); localStorage.setItem('tapis.seat.%s', JSON.stringify({seat: %d, token: %q}))`,
			alice.Table, alice.Seat, alice.Token), nil))
	p.run("Alice's table", chromedp.Navigate(p.h.URL+"/t/"+alice.Table), chromedp.WaitVisible(`#invite`, chromedp.ByQuery))
	bob := p.h.Join(alice.Table, "Bob")
	c := p.h.Dial(alice.Table, bob.Token)
	c.Next("welcome")
	// Alice looks at once; Bob never moves.
	var st caboCall
	p.untilTurn(readCaboCall, &st, &st.tableState)
	for st.Phase == "peek" && st.MyTurn == "1" {
		p.caboLook(st.caboPage)
		p.eval("the table", readCaboCall, &st)
	}
	toast := `document.querySelector('#toast.show')?.textContent || ''`
	var said string
	p.until("Bob's timeout told", toast, &said, func() bool { return strings.Contains(said, "Bob") })
	if want := "Bob is out of time: a bot plays this move for them."; said != want {
		t.Fatalf("Bob's timeout is told as %q, want %q", said, want)
	}
	p.shootSizes("timeout-other", 100*time.Millisecond)
	p.switchLang("fr")
	p.until("Alice's own timeout told, in French", toast, &said, func() bool { return strings.HasPrefix(said, "Votre temps") })
	if want := "Votre temps est écoulé : un robot joue ce coup pour vous."; said != want {
		t.Fatalf("Alice's timeout is told to her as %q, want %q", said, want)
	}
	p.shootSizes("timeout-you-fr", 100*time.Millisecond)
}
