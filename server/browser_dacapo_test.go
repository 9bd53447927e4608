package server_test

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/chromedp"
)

// dacapoPage is what the Da Capo! test reads of the page: the sources it
// may tap (marked data-build="1" when they fit a building pile), and the
// targets the page offers for the chosen source.
type dacapoPage struct {
	Status  string   `json:"status"`
	MyTurn  string   `json:"myturn"`
	Overlay string   `json:"overlay"`
	Sel     string   `json:"sel"`
	Game    string   `json:"game"`
	Lang    string   `json:"lang"`
	Stock   bool     `json:"stock"`
	Helpers []int    `json:"helpers"`
	Hand    []string `json:"hand"`
	Opps    []int    `json:"opps"`
	AnyHand []string `json:"anyhand"`
	Piles   []int    `json:"piles"`
	HTarget []int    `json:"htarget"`
	Becomes []string `json:"becomes"`
	Slide   bool     `json:"slide"`
	Notice  string   `json:"notice"`
}

const readDacapo = `(() => {
  const g = document.querySelector('#game'), tb = document.querySelector('#table');
  const d = g ? g.dataset : {};
  const q = s => [...document.querySelectorAll(s)];
  return {status: tb ? tb.dataset.status : '', myturn: d.myturn || '', overlay: d.overlay || '', sel: d.sel || '',
    game: d.game || '', lang: document.documentElement.lang,
    stock: !!document.querySelector('[data-src=stock][data-build="1"]:not(:disabled)'),
    helpers: q('[data-src=helper][data-build="1"]:not(:disabled)').map(e => +e.dataset.index),
    hand: q('[data-src=hand][data-build="1"]:not(:disabled)').map(e => e.dataset.card),
    opps: q('[data-src=opponent][data-build="1"]:not(:disabled)').map(e => +e.dataset.seat),
    anyhand: q('[data-src=hand]:not(:disabled)').map(e => e.dataset.card),
    piles: q('[data-pile].target:not(:disabled)').map(e => +e.dataset.pile),
    htarget: q('[data-helper].target:not(:disabled)').map(e => +e.dataset.helper),
    becomes: q('.dc-becomes').map(e => e.textContent), slide: !!document.querySelector('.dc-slide'),
    notice: (document.querySelector('#notice') || {}).textContent || ''};
})()`

// A person creates a Da Capo! match with two bots from the home page (small
// personal piles, so that it is quick), plays it to the end by tapping a
// source and then a building pile or a helper pile, switches the language,
// and the table is photographed on a desktop and at 360 px wide.
func TestBrowserDacapo(t *testing.T) {
	cfg := testConfig()
	cfg.BotDelay = 20 * time.Millisecond
	h := newHarness(t, cfg)
	ctx := browser(t, 120*time.Second)
	// A script error on the page fails the test.
	var jsErrs []string
	var mu sync.Mutex
	chromedp.ListenTarget(ctx, func(ev any) {
		if e, ok := ev.(*runtime.EventExceptionThrown); ok {
			mu.Lock()
			jsErrs = append(jsErrs, e.ExceptionDetails.Error())
			mu.Unlock()
		}
	})
	run := func(what string, acts ...chromedp.Action) {
		t.Helper()
		if err := chromedp.Run(ctx, acts...); err != nil {
			t.Fatalf("%s: %v", what, err)
		}
	}
	setSelect := func(sel, v string) chromedp.Action {
		return chromedp.Evaluate(fmt.Sprintf(`(() => { const s = document.querySelector(%q); s.value = %q; s.dispatchEvent(new Event('change')); })()`, sel, v), nil)
	}
	run("home page",
		chromedp.Navigate(h.hs.URL+"/"),
		chromedp.WaitVisible(`#create`, chromedp.ByQuery),
		setSelect(`select[name=game]`, "dacapo"),
		chromedp.WaitVisible(`input[name=pile_size]`, chromedp.ByQuery),
		chromedp.SendKeys(`input[name=name]`, "Alice", chromedp.ByQuery),
		setSelect(`select[name=players]`, "3"),
		chromedp.WaitVisible(`select[name=seat2]`, chromedp.ByQuery),
		setSelect(`select[name=seat1]`, "easy"),
		setSelect(`select[name=seat2]`, "random"),
		setSelect(`input[name=pile_size]`, "5"),
		setSelect(`input[name=match_target]`, "12"),
		chromedp.Click(`[data-action=create]`, chromedp.ByQuery),
		chromedp.WaitVisible(`#game.dacapo`, chromedp.ByQuery),
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
		if len(at) != 2 {
			return false
		}
		run("click "+sel, chromedp.MouseClickXY(at[0], at[1]), chromedp.Sleep(10*time.Millisecond))
		return true
	}
	dir := os.Getenv("TAPIS_SCREENSHOT_DIR")
	if dir == "" {
		dir = os.TempDir()
	}
	save := func(name string, png []byte) {
		if err := os.WriteFile(filepath.Join(dir, name), png, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	var st dacapoPage
	used := map[string]int{} // moves by kind: stock, helper, hand, opponent, helper-move
	steps, myTurns, gameEnds, switched, photographed := 0, 0, 0, false, false
	lastTurn := false
	slides, notices := 0, map[string]bool{}
	for ; steps < 4000; steps++ {
		run("read the page", chromedp.Evaluate(readDacapo, &st))
		if os.Getenv("TAPIS_DEBUG") != "" {
			t.Logf("%+v", st)
		}
		if st.Slide {
			slides++
		}
		if st.Notice != "" {
			notices[st.Notice] = true
		}
		if st.Overlay == "game" || st.Overlay == "over" {
			if st.Overlay == "game" {
				gameEnds++
			}
			if st.Overlay == "over" {
				var png []byte
				run("end screenshot", chromedp.Sleep(300*time.Millisecond), chromedp.FullScreenshot(&png, 100))
				save("dacapo-end.png", png)
				break
			}
			click(`[data-action=close-overlay]`)
			if !switched {
				// Switch to French after the first game.
				click(`#lang`)
				switched = true
			}
			continue
		}
		// The table's status may say "over" a moment before the last
		// state arrives: the loop goes on until the overlay shows.
		if st.MyTurn != "1" || st.Status == "over" {
			lastTurn = false
			run("wait", chromedp.Sleep(25*time.Millisecond))
			continue
		}
		if !lastTurn {
			myTurns++
			lastTurn = true
		}
		if st.Sel != "" {
			if !photographed && myTurns >= 3 && len(st.Piles) > 0 {
				// A mid-game photograph: a card chosen, its building
				// piles glowing; then the same at 360 px wide.
				var png, narrow []byte
				var width int
				run("screenshots", chromedp.Sleep(500*time.Millisecond), chromedp.FullScreenshot(&png, 100),
					chromedp.EmulateViewport(360, 740), chromedp.Sleep(300*time.Millisecond),
					chromedp.Evaluate(`document.documentElement.scrollWidth`, &width),
					chromedp.FullScreenshot(&narrow, 100),
					chromedp.EmulateViewport(1100, 900), chromedp.Sleep(100*time.Millisecond))
				if width > 360 {
					t.Errorf("at 360 px the page is %d px wide", width)
				}
				if len(st.Becomes) == 0 {
					t.Errorf("the piles a card may go onto do not say the value it takes")
				}
				save("dacapo-table.png", png)
				save("dacapo-360.png", narrow)
				photographed = true
			}
			switch {
			case len(st.Piles) > 0:
				used[strings.SplitN(st.Sel, ":", 2)[0]]++
				click(fmt.Sprintf(`[data-pile="%d"]`, st.Piles[0]))
			case len(st.HTarget) > 0:
				used["helper-move"]++
				click(fmt.Sprintf(`[data-helper="%d"]`, st.HTarget[0]))
			default:
				t.Fatalf("a card is chosen but nothing is offered: %+v", st)
			}
			run("settle", chromedp.Sleep(30*time.Millisecond))
			continue
		}
		switch {
		case len(st.Opps) > 0 && used["opponent"] == 0:
			// Once, an opponent's personal top.
			click(fmt.Sprintf(`[data-src=opponent][data-seat="%d"]`, st.Opps[0]))
		case st.Stock:
			click(`[data-src=stock]`)
		case len(st.Helpers) > 0:
			click(fmt.Sprintf(`[data-src=helper][data-index="%d"]`, st.Helpers[0]))
		case len(st.Hand) > 0:
			click(fmt.Sprintf(`[data-src=hand][data-card=%q]`, st.Hand[0]))
		case len(st.AnyHand) > 0:
			click(fmt.Sprintf(`[data-src=hand][data-card=%q]`, st.AnyHand[len(st.AnyHand)-1]))
		default:
			run("wait", chromedp.Sleep(25*time.Millisecond))
		}
	}
	mu.Lock()
	if len(jsErrs) > 0 {
		t.Errorf("script errors on the page: %v", jsErrs)
	}
	mu.Unlock()
	if st.Overlay != "over" {
		var dump string
		run("dump", chromedp.Evaluate(`document.querySelector('#status').textContent + ' | ' + [...document.querySelectorAll('#log li')].slice(-6).map(e => e.textContent).join(' / ')`, &dump))
		t.Log(dump)
		t.Fatalf("the match did not end after %d steps: %+v", steps, st)
	}
	if !photographed {
		t.Error("no mid-game photograph was taken")
	}
	if used["stock"] == 0 || used["hand"] == 0 || used["helper-move"] == 0 {
		t.Errorf("moves by kind: %v", used)
	}
	var text struct {
		Status string `json:"status"`
		Again  string `json:"again"`
		Log    string `json:"log"`
		Lang   string `json:"lang"`
	}
	const readText = `({status: document.querySelector('#status').textContent,
		again: (document.querySelector('.again [data-action=again]') || {}).textContent || '',
		log: document.querySelector('#log').textContent, lang: document.documentElement.lang})`
	click(`[data-action=close-overlay]`)
	run("French", chromedp.Evaluate(readText, &text))
	if text.Lang != "fr" || text.Again != "Rejouer" || !strings.Contains(text.Log, "pile de construction") {
		t.Fatalf("after the switch to French: %q, %q, log %.200q", text.Lang, text.Again, text.Log)
	}
	click(`#lang`)
	run("English", chromedp.Evaluate(readText, &text))
	if text.Again != "Play again" || !strings.Contains(text.Log, "onto building pile") || !strings.Contains(text.Log, "You draw") {
		t.Fatalf("back in English: %q, log %.300q", text.Again, text.Log)
	}
	if slides == 0 {
		t.Error("no completed pile was seen sliding away")
	}
	fresh := 0
	for n := range notices {
		if strings.Contains(n, "nouvelles cartes") || strings.Contains(n, "new cards") {
			fresh++
		}
	}

	// A refused move is explained in words, in both languages: the
	// screen's explain() on the engine's refusals.
	var why []string
	run("explain", chromedp.Evaluate(`import('/static/dacapo.js').then(m => {
		const ui = m.dacapoUI({seat: 0, state: null, pending: false, name: s => 'P' + s, move() {}, again() {}, render() {}});
		return ['dacapo: build: a 5 does not go on building pile 1 at 2 (a 3 or a Joker does)',
			'dacapo: build: a 7 cannot start a pile (a 1 or a Joker can)',
			'dacapo: helper: you have no J in hand', 'dacapo: build: your helper pile 2 is empty'].map(e => ui.explain(e));
	})`, &why, func(p *runtime.EvaluateParams) *runtime.EvaluateParams { return p.WithAwaitPromise(true) }))
	want := []string{"A 5 does not go on building pile 2: it is at 2, so it needs a 3 or a Joker.",
		"A 7 cannot start a pile: only a 1 or a Joker can.", "You have no Joker in hand.", "Your helper pile 3 is empty."}
	if strings.Join(why, "|") != strings.Join(want, "|") {
		t.Errorf("refusals explained as %q", why)
	}
	t.Logf("a match of %d game(s) in %d steps, %d of my turns; moves by kind %v; %d fresh hands told; screenshots in %s", gameEnds+1, steps, myTurns, used, fresh, dir)
}
