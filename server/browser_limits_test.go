package server_test

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"
	"time"

	cdpruntime "github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/chromedp"
)

var limitsTimeout = 120

// limitsPage is what the Limits test reads of the page.
type limitsPage struct {
	Status   string `json:"status"`
	Phase    string `json:"phase"`
	MyTurn   string `json:"myturn"`
	Need     string `json:"need"`
	Round    string `json:"round"`
	Overlay  string `json:"overlay"`
	Hand     int    `json:"hand"`
	Pile     int    `json:"pile"`
	Accuse   []int  `json:"accuse"`   // seats I may accuse (tappable)
	Exchange string `json:"exchange"` // a colour I may exchange
	Hidden   int    `json:"hidden"`   // my hidden cards shown
	PileSVGs int    `json:"pilesvgs"` // cards drawn on the active pile
	OppPeeks int    `json:"opppeeks"` // colours shown on opponents' hidden cards: never
	Lang     string `json:"lang"`
}

const readLimits = `(() => {
  const g = document.querySelector('#game'), tb = document.querySelector('#table');
  const d = g ? g.dataset : {};
  const x = document.querySelector('[data-action=exchange]');
  return {status: tb ? tb.dataset.status : '', phase: d.phase || '', myturn: d.myturn || '', need: d.need || '',
    round: d.round || '', overlay: d.overlay || '', hand: +(d.hand || 0), pile: +(d.pile || 0),
    accuse: [...document.querySelectorAll('button.lim-opp')].map(e => +e.dataset.seat),
    exchange: x ? x.dataset.color : '',
    hidden: document.querySelectorAll('.lim-me .lim-hiddencard').length,
    pilesvgs: document.querySelectorAll('.lim-active svg').length,
    opppeeks: document.querySelectorAll('.lim-opp .lim-peek, .lim-opp [data-hidden]').length,
    lang: document.documentElement.lang};
})()`

// The Limits browser test: a person creates a 2-player Limits table with a
// bot from the home page and plays the whole game by clicking: hides two
// cards each round, places cards (on the pile or with the Place button),
// exchanges when 4 of a colour allow it, and accuses. The resolution and
// the final scores are shown in a panel; the language is switched; the
// table is photographed on a desktop and at 360 px wide.
func TestBrowserLimits(t *testing.T) {
	cfg := testConfig()
	cfg.BotDelay = 10 * time.Millisecond
	h := newHarness(t, cfg)
	ctx := browser(t, time.Duration(limitsTimeout)*time.Second)
	// A script error on the page fails the test with its text.
	chromedp.ListenTarget(ctx, func(ev any) {
		if e, ok := ev.(*cdpruntime.EventExceptionThrown); ok {
			t.Errorf("page error: %s %s", e.ExceptionDetails.URL, e.ExceptionDetails.Error())
		}
	})
	run := func(what string, acts ...chromedp.Action) {
		t.Helper()
		if err := chromedp.Run(ctx, acts...); err != nil {
			t.Fatalf("%s: %v", what, err)
		}
	}
	dir := filepath.Join("..", "docs", "screenshots")
	if d := os.Getenv("TAPIS_SCREENSHOT_DIR"); d != "" {
		dir = d
	}
	shoot := func(name string) {
		t.Helper()
		var png []byte
		run("screenshot "+name, chromedp.Sleep(600*time.Millisecond), chromedp.FullScreenshot(&png, 100))
		if err := os.WriteFile(filepath.Join(dir, name), png, 0o644); err != nil {
			t.Fatal(err)
		}
	}

	run("home page",
		chromedp.Navigate(h.hs.URL+"/"),
		chromedp.WaitVisible(`#create`, chromedp.ByQuery),
		chromedp.Evaluate(`(() => { const s = document.querySelector('select[name=game]'); s.value = 'limits'; s.dispatchEvent(new Event('change')); })()`, nil),
		chromedp.SendKeys(`input[name=name]`, "Alice", chromedp.ByQuery),
		chromedp.Evaluate(`(() => { const s = document.querySelector('select[name=players]'); s.value = '2'; s.dispatchEvent(new Event('change')); })()`, nil),
		chromedp.WaitVisible(`select[name=seat1]`, chromedp.ByQuery),
		chromedp.Evaluate(`(() => { const s = document.querySelector('select[name=seat1]'); s.value = 'easy'; s.dispatchEvent(new Event('change')); })()`, nil),
		chromedp.Click(`[data-action=create]`, chromedp.ByQuery),
		chromedp.WaitVisible(`#game.lim`, chromedp.ByQuery),
	)
	click := func(sel string) bool {
		var at []float64
		run("find "+sel, chromedp.Evaluate(fmt.Sprintf(`(() => {
			const e = document.querySelector(%q);
			if (!e || e.disabled) return [];
			e.scrollIntoView({block: "center"});
			const r = e.getBoundingClientRect();
			return [r.left + r.width / 2, r.top + r.height / 2];
		})()`, sel), &at))
		if len(at) == 2 {
			run("click "+sel, chromedp.MouseClickXY(at[0], at[1]), chromedp.Sleep(10*time.Millisecond))
			return true
		}
		return false
	}

	var st limitsPage
	turns := map[string]int{}
	steps, hides, places, exchanges, accusations, resolutions := 0, 0, 0, 0, 0, 0
	switched, photographed, resolutionShot := false, false, false
	for ; steps < 3000; steps++ {
		run("read the page", chromedp.Evaluate(readLimits, &st))
		if os.Getenv("TAPIS_DEBUG") != "" {
			t.Logf("%+v", st)
		}
		if st.PileSVGs > 1 {
			t.Fatalf("the active pile shows %d cards: only its top card may be seen", st.PileSVGs)
		}
		if st.OppPeeks > 0 {
			t.Fatal("an opponent's hidden card shows its colour")
		}
		if st.Overlay == "over" || st.Status == "over" {
			break
		}
		if st.Overlay == "accuse" {
			resolutions++
			if !resolutionShot {
				shoot("limits-accusation.png")
				resolutionShot = true
			}
			click(`[data-action=close-overlay]`)
			if !switched && resolutions >= 2 {
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
		case "hide":
			var n int
			fmt.Sscan(st.Need, &n)
			for i := 0; i < n && i < st.Hand; i++ {
				click(fmt.Sprintf(`.lim-hand [data-i="%d"]`, i))
				if i == 0 && hides == 0 {
					// One card of two chosen: Hide is not offered yet.
					var off bool
					run("hide button", chromedp.Evaluate(`document.querySelector('[data-action=hide]').disabled`, &off))
					if !off {
						t.Fatal("Hide is offered with 1 card chosen of 2")
					}
				}
			}
			click(`[data-action=hide]`)
			hides++
		case "turn":
			turns[st.Round]++
			if st.Hidden != 2 {
				t.Fatalf("my 2 hidden cards are not shown face down with their colour: %d", st.Hidden)
			}
			if !photographed && st.Round >= "2" && st.Pile >= 2 {
				shoot("limits-table.png")
				photographed = true
				// A refresh mid-round: who placed the top card and each
				// player's last placed colour come back from the history.
				const marks = `[...document.querySelectorAll('.lim-by, .lim-last .lim-chip')].map(e => e.textContent).join('|')`
				var before, after string
				run("marks", chromedp.Evaluate(marks, &before))
				run("refresh mid-game", chromedp.Reload(), chromedp.WaitVisible(`#game.lim .lim-me`, chromedp.ByQuery),
					chromedp.Sleep(300*time.Millisecond), chromedp.Evaluate(marks, &after))
				if before == "" || before != after {
					t.Fatalf("after a refresh the pile's marks read %q, not %q", after, before)
				}
				continue
			}
			switch {
			case st.Exchange != "" && exchanges < 2:
				click(`[data-action=exchange]`)
				exchanges++
			case len(st.Accuse) > 0 && (turns[st.Round] > 3 || st.Hand == 0 || st.Pile >= 6):
				click(fmt.Sprintf(`button.lim-opp[data-seat="%d"]`, st.Accuse[0]))
				click(`[data-action=accuse]`)
				accusations++
			default:
				click(`.lim-hand [data-i="0"]`)
				if places%2 == 0 {
					click(`[data-action=pile]`)
				} else {
					click(`[data-action=place]`)
				}
				places++
			}
		}
	}
	if st.Overlay != "over" && st.Status != "over" {
		t.Fatalf("the game did not end after %d steps: %+v", steps, st)
	}
	if hides == 0 || places == 0 || accusations == 0 {
		t.Fatalf("hides %d, places %d, accusations %d: every kind of move should have been clicked", hides, places, accusations)
	}
	if !switched || st.Lang != "fr" {
		t.Fatalf("the language was not switched to French: %q", st.Lang)
	}
	// The final scores are shown in the panel.
	run("final panel", chromedp.WaitVisible(`#overlay[data-kind=over]`, chromedp.ByQuery))
	var final string
	run("final text", chromedp.Evaluate(`document.querySelector('#overlay h2').textContent`, &final))
	if final != "Partie terminée" {
		t.Fatalf("the final panel reads %q", final)
	}
	click(`[data-action=close-overlay]`)
	var again string
	const againText = `document.querySelector('.again [data-action=again]').textContent`
	run("play again button", chromedp.Evaluate(againText, &again))
	if again != "Rejouer" {
		t.Fatalf("the play-again button reads %q in French", again)
	}
	click(`#lang`)
	run("back to English", chromedp.Evaluate(againText, &again))
	if again != "Play again" {
		t.Fatalf("the play-again button reads %q in English", again)
	}
	// The last resolution and the final scores can be shown again.
	click(`[data-action=show-accusation]`)
	run("final panel again", chromedp.WaitVisible(`#overlay[data-kind=over]`, chromedp.ByQuery))
	shoot("limits-final.png")
	click(`[data-action=close-overlay]`)

	// A refresh brings back the seat, and the log with it.
	var back string
	run("refresh", chromedp.Reload(), chromedp.WaitVisible(`#game.lim .lim-me`, chromedp.ByQuery),
		chromedp.Evaluate(`document.querySelector('#table').dataset.seat + ' ' + document.querySelector('#table').dataset.status`, &back))
	if back != "0 over" {
		t.Fatalf("after a refresh: seat and status %q", back)
	}

	// Play again, then photograph the new game at 360 px wide.
	click(`[data-action=again]`)
	run("new game", chromedp.WaitVisible(`#game.lim[data-phase=hide]`, chromedp.ByQuery))
	for i := 0; i < 400; i++ {
		run("read", chromedp.Evaluate(readLimits, &st))
		if st.MyTurn == "1" && st.Phase == "hide" {
			click(`.lim-hand [data-i="0"]`)
			click(`.lim-hand [data-i="2"]`)
			click(`[data-action=hide]`)
			continue
		}
		if st.MyTurn == "1" && st.Phase == "turn" && st.Pile >= 1 {
			click(`.lim-hand [data-i="1"]`)
			break
		}
		if st.MyTurn == "1" && st.Phase == "turn" {
			click(`.lim-hand [data-i="0"]`)
			click(`[data-action=pile]`)
			continue
		}
		run("wait", chromedp.Sleep(25*time.Millisecond))
	}
	shoot("limits-desktop.png")
	var width int
	run("narrow", chromedp.EmulateViewport(360, 740), chromedp.Sleep(200*time.Millisecond),
		chromedp.Evaluate(`document.documentElement.scrollWidth`, &width))
	if width > 360 {
		t.Errorf("at 360 px the page is %d px wide", width)
	}
	shoot("limits-360.png")

	// Four players around the table: one hidden card each.
	run("four players",
		chromedp.EmulateViewport(1100, 900),
		chromedp.Navigate(h.hs.URL+"/"),
		chromedp.WaitVisible(`#create`, chromedp.ByQuery),
		chromedp.Evaluate(`(() => { const s = document.querySelector('select[name=game]'); s.value = 'limits'; s.dispatchEvent(new Event('change')); })()`, nil),
		chromedp.Evaluate(`(() => { const s = document.querySelector('select[name=players]'); s.value = '4'; s.dispatchEvent(new Event('change')); })()`, nil),
		chromedp.WaitVisible(`select[name=seat3]`, chromedp.ByQuery),
		chromedp.Evaluate(`document.querySelectorAll('select[data-seat]').forEach(s => { s.value = 'easy'; s.dispatchEvent(new Event('change')); })`, nil),
		chromedp.Click(`[data-action=create]`, chromedp.ByQuery),
		chromedp.WaitVisible(`#game.lim`, chromedp.ByQuery),
	)
	for i := 0; i < 400; i++ {
		run("read", chromedp.Evaluate(readLimits, &st))
		if st.MyTurn == "1" && st.Phase == "hide" {
			if st.Need != "1" {
				t.Fatalf("with 4 players, hide %s cards", st.Need)
			}
			click(`.lim-hand [data-i="1"]`)
			click(`[data-action=hide]`)
			continue
		}
		if st.MyTurn == "1" && st.Phase == "turn" && st.Pile >= 2 && len(st.Accuse) > 0 {
			click(fmt.Sprintf(`button.lim-opp[data-seat="%d"]`, st.Accuse[len(st.Accuse)-1]))
			break
		}
		if st.MyTurn == "1" && st.Phase == "turn" {
			click(`.lim-hand [data-i="0"]`)
			click(`[data-action=place]`)
			continue
		}
		run("wait", chromedp.Sleep(25*time.Millisecond))
	}
	if st.Hidden != 1 {
		t.Fatalf("with 4 players, %d hidden cards shown", st.Hidden)
	}
	shoot("limits-4players.png")

	// A spectator sees the table, nobody's hand and no hidden colour.
	watched := h.create("limits", []string{"", "easy", "easy"}, "Host", "")
	var seen struct {
		Seat   string `json:"seat"`
		Opps   int    `json:"opps"`
		Secret int    `json:"secret"`
	}
	run("spectator",
		chromedp.Navigate(h.hs.URL+"/t/"+watched.Table),
		chromedp.WaitVisible(`#game.lim`, chromedp.ByQuery),
		chromedp.Sleep(300*time.Millisecond),
		chromedp.Evaluate(`({seat: document.querySelector('#table').dataset.seat,
			opps: document.querySelectorAll('.lim-opp').length,
			secret: document.querySelectorAll('.lim-me, .lim-peek, .lim-hand, [data-hidden]').length})`, &seen))
	if seen.Seat != "-1" || seen.Opps != 3 || seen.Secret != 0 {
		t.Fatalf("a spectator sees %+v", seen)
	}
	t.Logf("a whole game in %d steps: %d hides, %d places, %d exchanges, %d accusations, %d resolutions seen; screenshots in %s",
		steps, hides, places, exchanges, accusations, resolutions, dir)
}
