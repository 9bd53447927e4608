package server_test

import (
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// papayooPage is what the test reads of the Papayoo screen.
type papayooPage struct {
	Status   string   `json:"status"`
	Phase    string   `json:"phase"`
	MyTurn   string   `json:"myturn"`
	Need     string   `json:"need"`
	Round    string   `json:"round"`
	Overlay  string   `json:"overlay"`
	Led      string   `json:"led"`
	Die      string   `json:"die"`
	Hand     []string `json:"hand"`     // my cards, in the order shown
	Enabled  []string `json:"enabled"`  // the cards I may tap now
	Selected []string `json:"selected"` // chosen for the pass
	Received []string `json:"received"` // highlighted as just received
	Trick    int      `json:"trick"`    // cards of the trick in play
	PassOK   bool     `json:"passok"`   // the Pass button is enabled
	Lang     string   `json:"lang"`
}

const readPapayoo = `(() => {
  const g = document.querySelector('#game'), tb = document.querySelector('#table');
  const d = g ? g.dataset : {};
  const cards = q => [...document.querySelectorAll(q)].map(e => e.dataset.card);
  const pass = document.querySelector('#pass');
  return {status: tb ? tb.dataset.status : '', phase: d.phase || '', myturn: d.myturn || '', need: d.need || '',
    round: d.round || '', overlay: d.overlay || '', led: d.led || '', die: d.die || '',
    hand: cards('#hand .handcard'), enabled: cards('#hand .handcard:not(:disabled)'),
    selected: cards('#hand .handcard.selected'), received: cards('#hand .handcard.received'),
    trick: +(document.querySelector('#trick') || {dataset: {}}).dataset.count || 0, passok: !!pass && !pass.disabled,
    lang: document.documentElement.lang};
})()`

// The Papayoo browser test: a person creates a table of three (two bots)
// from the home page, plays a whole two-round game by clicking — the pass
// by tapping cards then Pass, every card of every trick — switches the
// language, and the table is photographed on a desktop and at 360 px.
func TestBrowserPapayoo(t *testing.T) {
	cfg := testConfig()
	cfg.BotDelay = 20 * time.Millisecond
	h := newHarness(t, cfg)
	dir := os.TempDir()
	if d := os.Getenv("TAPIS_SCREENSHOT_DIR"); d != "" {
		dir = d
	}
	ctx := browser(t, 120*time.Second)
	run := func(what string, acts ...chromedp.Action) {
		t.Helper()
		if err := chromedp.Run(ctx, acts...); err != nil {
			t.Fatalf("%s: %v", what, err)
		}
	}
	run("home page",
		chromedp.Navigate(h.hs.URL+"/"),
		chromedp.WaitVisible(`#create`, chromedp.ByQuery),
		chromedp.Evaluate(`(() => { const s = document.querySelector('select[name=game]'); s.value = 'papayoo'; s.dispatchEvent(new Event('change')); })()`, nil),
		chromedp.SendKeys(`input[name=name]`, "Alice", chromedp.ByQuery),
		chromedp.Evaluate(`(() => { const s = document.querySelector('select[name=players]'); s.value = '3'; s.dispatchEvent(new Event('change'));
			document.querySelectorAll('select[data-seat]').forEach(s => { s.value = 'easy'; s.dispatchEvent(new Event('change')); });
			const r = document.querySelector('input[name=rounds]'); r.value = '2'; r.dispatchEvent(new Event('change')); })()`, nil),
		chromedp.Click(`[data-action=create]`, chromedp.ByQuery),
		chromedp.WaitVisible(`#game`, chromedp.ByQuery),
	)
	click := func(sel string) {
		t.Helper()
		var at []float64
		for try := 0; try < 40 && len(at) != 2; try++ {
			if try > 0 {
				run("wait for "+sel, chromedp.Sleep(50*time.Millisecond))
			}
			run("find "+sel, chromedp.Evaluate(fmt.Sprintf(`(() => {
			const e = document.querySelector(%q);
			if (!e || e.disabled) return [];
			e.scrollIntoView({block: "center"});
			// The first point of the element that is not under another
			// one (cards in a hand overlap), as a person taps what they see.
			const r = e.getBoundingClientRect();
			for (let y = r.top + r.height / 3; y < r.bottom; y += 6)
				for (let x = r.left + 4; x < r.right; x += 4) {
					const at = document.elementFromPoint(x, y);
					if (at && (at === e || e.contains(at))) return [x, y];
				}
			return [];
		})()`, sel), &at))
		}
		if len(at) != 2 {
			var why string
			var png []byte
			chromedp.Run(ctx, chromedp.Evaluate(fmt.Sprintf(`(() => { const e = document.querySelector(%q); if (!e) return 'none';
				const r = e.getBoundingClientRect(); const at = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
				return 'disabled ' + e.disabled + ' rect ' + JSON.stringify(r) + ' covered by ' + (at ? at.outerHTML.slice(0, 120) : 'nothing'); })()`, sel), &why),
				chromedp.FullScreenshot(&png, 100))
			os.WriteFile(filepath.Join(dir, "papayoo-failed.png"), png, 0o644)
			t.Fatalf("%s: not there, or disabled: %s", sel, why)
		}
		run("click "+sel, chromedp.MouseClickXY(at[0], at[1]), chromedp.Sleep(10*time.Millisecond))
	}
	card := func(c string) string { return fmt.Sprintf(`#hand .handcard[data-card=%q]`, c) }
	shoot := func(name string) {
		t.Helper()
		var png []byte
		// A photograph of the table, not of a passing message.
		run("screenshot "+name, chromedp.Poll(`!document.querySelector('#toast.show')`, nil),
			chromedp.Sleep(700*time.Millisecond), chromedp.FullScreenshot(&png, 100))
		if err := os.WriteFile(filepath.Join(dir, name), png, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	rng := rand.New(rand.NewPCG(1, 2))
	var st papayooPage
	steps, plays, passes := 0, 0, 0
	switched, shotPass, shotTable, shotNarrow, capTried, sawReceived := false, false, false, false, false, false
	waitingReceived := false
	for ; steps < 3000; steps++ {
		run("read the page", chromedp.Evaluate(readPapayoo, &st))
		if os.Getenv("TAPIS_DEBUG") != "" {
			t.Logf("%+v", st)
		}
		if st.Status == "over" {
			break
		}
		if waitingReceived && st.Phase == "play" {
			// The cards passed to me are highlighted in my hand.
			if len(st.Received) != 5 {
				t.Fatalf("after the pass, %d cards are highlighted as received: %v", len(st.Received), st.Received)
			}
			if st.Die == "" {
				t.Fatal("the die is not shown after the pass")
			}
			waitingReceived, sawReceived = false, true
		}
		if st.Overlay == "round" {
			click(`[data-action=close-overlay]`)
			if !switched {
				click(`#lang`)
				switched = true
			}
			continue
		}
		if st.MyTurn != "1" {
			run("wait", chromedp.Sleep(25*time.Millisecond))
			continue
		}
		switch st.Phase {
		case "pass":
			if st.Need != "5" || len(st.Selected) != 0 || st.PassOK {
				t.Fatalf("the pass begins with need %s, %d selected, Pass enabled %v", st.Need, len(st.Selected), st.PassOK)
			}
			if len(st.Enabled) != len(st.Hand) || len(st.Hand) != 20 {
				t.Fatalf("pass: %d of %d cards offered", len(st.Enabled), len(st.Hand))
			}
			pick := append([]string(nil), st.Enabled...)
			rng.Shuffle(len(pick), func(i, j int) { pick[i], pick[j] = pick[j], pick[i] })
			for _, c := range pick[:5] {
				click(card(c))
			}
			if !capTried {
				// A sixth card is not taken: exactly five are passed.
				click(card(pick[5]))
				// A tap takes a chosen card back, and another replaces it.
				click(card(pick[0]))
				click(card(pick[6]))
				pick[0] = pick[6]
				capTried = true
			}
			run("read the pass", chromedp.Evaluate(readPapayoo, &st))
			if len(st.Selected) != 5 || !st.PassOK {
				t.Fatalf("after choosing five cards: %v selected, Pass enabled %v", st.Selected, st.PassOK)
			}
			for _, c := range pick[:5] {
				if !strings.Contains(" "+strings.Join(st.Selected, " ")+" ", " "+c+" ") {
					t.Fatalf("%s is not among the selected %v", c, st.Selected)
				}
			}
			if !shotPass {
				shoot("papayoo-pass.png")
				shotPass = true
			}
			click(`#pass`)
			passes++
			waitingReceived = true
		case "play":
			// Only legal plays are offered: the led suit when I hold it.
			follow := 0
			for _, c := range st.Hand {
				if st.Led != "" && strings.HasPrefix(c, st.Led) {
					follow++
				}
			}
			for _, c := range st.Enabled {
				if follow > 0 && !strings.HasPrefix(c, st.Led) {
					t.Fatalf("led %s, I hold %d of it, yet %s is offered (%v)", st.Led, follow, c, st.Enabled)
				}
			}
			if want := len(st.Hand); follow > 0 {
				want = follow
				if len(st.Enabled) != want {
					t.Fatalf("led %s: %d cards offered, want %d", st.Led, len(st.Enabled), want)
				}
			} else if len(st.Enabled) != want {
				t.Fatalf("free play: %d cards offered, want %d", len(st.Enabled), want)
			}
			if !shotTable && !switched && st.Trick >= 1 && (len(st.Enabled) < len(st.Hand) && len(st.Hand) < 17 || len(st.Hand) <= 12) {
				shoot("papayoo-table.png")
				shotTable = true
			}
			if !shotNarrow && switched && st.Trick >= 1 && (len(st.Enabled) < len(st.Hand) && len(st.Hand) < 17 || len(st.Hand) <= 12) {
				var width int
				var png []byte
				run("narrow", chromedp.Poll(`!document.querySelector('#toast.show')`, nil),
					chromedp.EmulateViewport(360, 740), chromedp.Sleep(700*time.Millisecond),
					chromedp.Evaluate(`document.documentElement.scrollWidth`, &width),
					chromedp.FullScreenshot(&png, 100), chromedp.EmulateViewport(1100, 900))
				if width > 360 {
					t.Errorf("at 360 px the page is %d px wide", width)
				}
				os.WriteFile(filepath.Join(dir, "papayoo-360.png"), png, 0o644)
				shotNarrow = true
				continue
			}
			c := papayooChoice(st, follow > 0)
			click(card(c))
			plays++
			// The card leaves my hand (the server took the move).
			var gone bool
			var toast string
			for try := 0; try < 60 && !gone; try++ {
				run("played", chromedp.Sleep(25*time.Millisecond), chromedp.Evaluate(fmt.Sprintf(`!document.querySelector(%q) || document.querySelectorAll('#hand .handcard').length !== %d || document.querySelector('#game').dataset.phase !== 'play'`, card(c), len(st.Hand)), &gone))
			}
			if !gone {
				run("toast", chromedp.Evaluate(`document.querySelector('#toast').className + ': ' + document.querySelector('#toast').textContent`, &toast))
				var png []byte
				chromedp.Run(ctx, chromedp.FullScreenshot(&png, 100))
				os.WriteFile(filepath.Join(dir, "papayoo-failed.png"), png, 0o644)
				t.Fatalf("%s was clicked and is still in the hand (toast %q), page %+v", c, toast, st)
			}
		}
	}
	if st.Status != "over" {
		t.Fatalf("the game did not end after %d steps: %+v", steps, st)
	}
	if passes != 2 || plays != 40 {
		t.Fatalf("%d passes and %d cards played by clicking, want 2 and 40", passes, plays)
	}
	if !sawReceived || !shotTable || !shotNarrow {
		t.Fatalf("received cards seen %v, table photographed %v, narrow %v", sawReceived, shotTable, shotNarrow)
	}
	if !switched || st.Lang != "fr" {
		t.Fatalf("the language was not switched to French: %q", st.Lang)
	}
	// The final scores, in French.
	var over string
	run("final scores", chromedp.WaitVisible(`#overlay[data-kind=over]`, chromedp.ByQuery),
		chromedp.Evaluate(`document.querySelector('#overlay .winners').textContent + ' | ' + document.querySelectorAll('#overlay table.results tr').length`, &over))
	if !strings.HasPrefix(over, "Gagnant(s) : ") || !strings.HasSuffix(over, "| 4") {
		t.Fatalf("the final overlay reads %q", over)
	}
	shoot("papayoo-over.png")
	click(`[data-action=close-overlay]`)
	var again string
	const againText = `document.querySelector('.again [data-action=again]').textContent`
	run("play again", chromedp.Evaluate(againText, &again))
	if again != "Rejouer" {
		t.Fatalf("the play-again button reads %q in French", again)
	}
	click(`#lang`)
	run("back to English", chromedp.Evaluate(againText, &again))
	if again != "Play again" {
		t.Fatalf("the play-again button reads %q in English", again)
	}
	// The engine's refusals, in the player's language (the screen never
	// offers a refused move, so they are read through its explain).
	var refusals []string
	run("refusals", chromedp.Evaluate(`void import('/static/papayoo.js').then(m => {
		const ui = m.papayooUI({seat: 0, name: s => 'Seat ' + s});
		window.papRefusals = ['papayoo: play: you must follow hearts', 'papayoo: pass: pass exactly 5 cards',
			'papayoo: pass: P20 is already chosen', 'papayoo: play: every player passes 5 cards first'].map(ui.explain);
	})`, nil), chromedp.Poll(`window.papRefusals`, &refusals))
	want := []string{"You must follow hearts.", "Pass exactly 5 cards.", "The Payoo 20 is already in your pass.", "Everyone first passes 5 cards."}
	if strings.Join(refusals, "|") != strings.Join(want, "|") {
		t.Fatalf("refusals explained as %q, want %q", refusals, want)
	}
	var log []string
	run("log", chromedp.Evaluate(`[...document.querySelectorAll('#log li')].map(l => l.textContent)`, &log))
	for _, l := range log {
		if strings.Contains(l, "papayoo.") || strings.HasPrefix(l, "{") {
			t.Fatalf("an untranslated log line: %q", l)
		}
	}
	t.Logf("a whole game in %d steps: %d passes, %d cards played; screenshots in %s", steps, passes, plays, dir)
}

// papayooChoice is the card the test's player clicks, played as a person
// would: the lowest card when following or leading, the heaviest Payoo
// when it cannot follow.
func papayooChoice(st papayooPage, follow bool) string {
	rank := func(c string) int { n, _ := strconv.Atoi(c[1:]); return n }
	best := ""
	for _, c := range st.Enabled {
		switch {
		case best == "":
			best = c
		case follow || st.Led == "":
			// Low, and no Payoo when leading if avoidable.
			lc, lb := rank(c), rank(best)
			if st.Led == "" && (c[0] == 'P') != (best[0] == 'P') {
				if best[0] == 'P' {
					best = c
				}
			} else if lc < lb {
				best = c
			}
		default:
			if (c[0] == 'P') != (best[0] == 'P') {
				if c[0] == 'P' {
					best = c
				}
			} else if rank(c) > rank(best) {
				best = c
			}
		}
	}
	return best
}
