package server_test

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"tapis/game"
	"tapis/games"
)

// chromium finds Debian's chromium, or skips the test saying how to get it.
func chromium(t *testing.T) string {
	for _, name := range []string{"chromium", "chromium-browser", "google-chrome"} {
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	t.Skip("chromium is not installed: the browser test needs it (Debian: apt-get update && apt-get install -y chromium)")
	return ""
}

// browser starts a headless chromium for one test, as a person's browser
// on a desktop: a fresh profile, English, 1100x900. It skips the test in
// -short runs or where chromium is missing, and everything is closed when
// the test ends. The returned context expires after timeout.
func browser(t *testing.T, timeout time.Duration) context.Context {
	t.Helper()
	if testing.Short() {
		t.Skip("the browser test is not short")
	}
	exe := chromium(t)
	// Not t.TempDir: chromium may still write its profile as it exits,
	// which would fail the test in cleanup.
	profile, err := os.MkdirTemp("", "tapis-chromium-")
	if err != nil {
		t.Fatal(err)
	}
	actx, cancelA := chromedp.NewExecAllocator(context.Background(),
		chromedp.ExecPath(exe), chromedp.Headless, chromedp.NoSandbox, chromedp.DisableGPU, chromedp.NoFirstRun,
		chromedp.Flag("disable-background-networking", true), chromedp.Flag("disable-component-update", true),
		chromedp.Flag("disable-sync", true), chromedp.Flag("lang", "en-US"),
		chromedp.UserDataDir(profile), chromedp.WindowSize(1100, 900))
	bctx, cancelB := chromedp.NewContext(actx)
	ctx, cancel := context.WithTimeout(bctx, timeout)
	t.Cleanup(func() {
		cancel()
		cancelB()
		cancelA()
		os.RemoveAll(profile)
	})
	return ctx
}

// pageState is what the test reads of the page to decide its next click.
type pageState struct {
	Status  string `json:"status"`
	Phase   string `json:"phase"`
	MyTurn  string `json:"myturn"`
	Need    string `json:"need"`
	Drawn   string `json:"drawn"`
	Round   string `json:"round"`
	Overlay string `json:"overlay"`
	Mine    []int  `json:"mine"` // my filled slots
	Sel     []int  `json:"sel"`  // my selected slots
	Cabo    bool   `json:"cabo"` // the Call Cabo button is there
	Lang    string `json:"lang"`
}

const readPage = `(() => {
  const g = document.querySelector('#game'), tb = document.querySelector('#table');
  const d = g ? g.dataset : {};
  return {status: tb ? tb.dataset.status : '', phase: d.phase || '', myturn: d.myturn || '', need: d.need || '',
    drawn: d.drawn || '', round: d.round || '', overlay: d.overlay || '',
    mine: [...document.querySelectorAll('.player.mine .slot:not(.empty)')].map(e => +e.dataset.slot),
    sel: [...document.querySelectorAll('.player.mine .slot.selected')].map(e => +e.dataset.slot),
    cabo: !!document.querySelector('[data-action=cabo]'), lang: document.documentElement.lang};
})()`

// The browser test: a person creates a Cabo table with bots from the home
// page, plays a whole game by clicking, switches the language, and the
// table is photographed, on a desktop and at 360 px wide.
func TestBrowserPlaysCabo(t *testing.T) {
	cfg := testConfig()
	cfg.BotDelay = 20 * time.Millisecond
	h := newHarness(t, cfg)
	ctx := browser(t, 150*time.Second)
	run := func(what string, acts ...chromedp.Action) {
		t.Helper()
		if err := chromedp.Run(ctx, acts...); err != nil {
			t.Fatalf("%s: %v", what, err)
		}
	}
	bot := "random"
	if _, ok := games.Named("cabo").(game.HeuristicGame); ok {
		bot = "easy"
	}
	run("home page",
		chromedp.Navigate(h.hs.URL+"/"),
		chromedp.WaitVisible(`#create`, chromedp.ByQuery),
		chromedp.SendKeys(`input[name=name]`, "Alice", chromedp.ByQuery),
		chromedp.SetValue(`select[name=players]`, "3", chromedp.ByQuery),
		chromedp.Evaluate(`document.querySelector('select[name=players]').dispatchEvent(new Event('change'))`, nil),
		chromedp.WaitVisible(`select[name=seat2]`, chromedp.ByQuery),
		chromedp.Evaluate(fmt.Sprintf(`(() => { const s = document.querySelector('select[name=seat2]'); s.value = %q; s.dispatchEvent(new Event('change')); })()`, bot), nil),
	)
	// The seat picker offers the bot levels, a good one by default, and
	// never the cheating reference bot.
	var picker struct {
		Options []string
		Chosen  string
	}
	run("seat picker", chromedp.Evaluate(`(() => { const s = document.querySelector('select[name=seat1]');
		return {options: [...s.options].map(o => o.value), chosen: s.value}; })()`, &picker))
	if want := []string{"", "random", "easy", "normal", "hard"}; !slices.Equal(picker.Options, want) || picker.Chosen != "normal" {
		t.Fatalf("seat picker offers %q with %q chosen, want %q with \"normal\"", picker.Options, picker.Chosen, want)
	}
	// The heuristic plays seat 1 too: the spy check below counts revealed
	// cards, and a weak search (tests give it 30 iterations) claims sets
	// that fail face up.
	run("seat 1", chromedp.Evaluate(fmt.Sprintf(`(() => { const s = document.querySelector('select[name=seat1]'); s.value = %q; s.dispatchEvent(new Event('change')); })()`, bot), nil))
	var home []byte
	run("home screenshot", chromedp.FullScreenshot(&home, 100))
	os.WriteFile(filepath.Join(os.TempDir(), "tapis-home.png"), home, 0o644)
	run("create", chromedp.Click(`[data-action=create]`, chromedp.ByQuery), chromedp.WaitVisible(`#game`, chromedp.ByQuery))
	// click presses the mouse on the element's centre, as a person would.
	// The page redraws on every message, so it finds the element and
	// clicks its place in one go rather than holding on to a DOM node.
	click := func(sel string) {
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
		}
	}
	shot := filepath.Join(os.TempDir(), "tapis-cabo-table.png")
	if d := os.Getenv("TAPIS_SCREENSHOT_DIR"); d != "" {
		shot = filepath.Join(d, "tapis-cabo-table.png")
	}
	var st pageState
	turns := map[string]int{} // my turns per round
	clicks, switched, photographed, refusedSeen := 0, false, false, false
	powers, hidden := 0, false
	for ; clicks < 3000; clicks++ {
		run("read the page", chromedp.Evaluate(readPage, &st))
		if os.Getenv("TAPIS_DEBUG") != "" {
			t.Logf("%+v", st)
		}
		if st.Status == "over" {
			break
		}
		if st.Overlay == "round" {
			click(`[data-action=close-overlay]`)
			if !switched {
				// Switch to French after the first round.
				click(`#lang`)
				switched = true
			}
			continue
		}
		if st.MyTurn != "1" {
			run("wait", chromedp.Sleep(30*time.Millisecond))
			continue
		}
		switch st.Phase {
		case "peek":
			if !refusedSeen {
				// Too few cards chosen: the server refuses, the page
				// explains in words.
				click(fmt.Sprintf(`.player.mine .slot[data-slot="%d"]`, st.Mine[0]))
				click(`[data-action=look]`)
				var toast string
				run("toast", chromedp.Sleep(300*time.Millisecond), chromedp.Evaluate(`document.querySelector('#toast.show') ? document.querySelector('#toast').textContent : ''`, &toast))
				if toast != "Choose exactly 2 of your cards." {
					t.Fatalf("a refused peek is explained as %q", toast)
				}
				click(fmt.Sprintf(`.player.mine .slot[data-slot="%d"]`, st.Mine[0]))
				refusedSeen = true
				continue
			}
			// Toggle only the slots whose selection is wrong, so that a click
			// lost to a redraw is mended on the next pass, not repeated.
			var n int
			fmt.Sscan(st.Need, &n)
			want := st.Mine[:min(n, len(st.Mine))]
			for _, s := range st.Mine {
				if slices.Contains(want, s) != slices.Contains(st.Sel, s) {
					click(fmt.Sprintf(`.player.mine .slot[data-slot="%d"]`, s))
				}
			}
			if len(st.Sel) == len(want) {
				click(`[data-action=look]`)
			}
		case "turn":
			turns[st.Round]++
			if turns[st.Round] > 2 && st.Cabo {
				click(`[data-action=cabo]`)
			} else {
				click(`[data-action=drawpile]`)
			}
		case "drawn":
			if switched && !photographed {
				// A mid-game photograph, the drawn card in hand.
				var png []byte
				run("screenshot", chromedp.Sleep(800*time.Millisecond), chromedp.FullScreenshot(&png, 100))
				if err := os.WriteFile(shot, png, 0o644); err != nil {
					t.Fatal(err)
				}
				photographed = true
			}
			var d int
			fmt.Sscan(st.Drawn, &d)
			opp := `.player:not(.mine) .slot:not(.empty)`
			switch {
			case (d == 7 || d == 8) && len(st.Mine) > 0:
				click(fmt.Sprintf(`.player.mine .slot[data-slot="%d"]`, st.Mine[0]))
				click(`[data-action=peek]`)
				powers++
			case d == 9 || d == 10:
				click(opp)
				click(`[data-action=spy]`)
				powers++
				if !hidden {
					// The spied card is shown for a few seconds, then
					// hidden again.
					var shown, after int
					run("spied card", chromedp.Sleep(400*time.Millisecond),
						chromedp.Evaluate(`document.querySelectorAll('.player:not(.mine) .slot.revealed').length`, &shown),
						chromedp.Sleep(4500*time.Millisecond),
						chromedp.Evaluate(`document.querySelectorAll('.player:not(.mine) .slot.revealed').length`, &after))
					if shown != 1 || after != 0 {
						t.Fatalf("a spied card: %d shown, then %d still shown", shown, after)
					}
					hidden = true
				}
			case (d == 11 || d == 12) && len(st.Mine) > 0:
				click(fmt.Sprintf(`.player.mine .slot[data-slot="%d"]`, st.Mine[0]))
				click(opp)
				click(`[data-action=swap]`)
				powers++
			case d <= 5 && len(st.Mine) > 0:
				click(fmt.Sprintf(`.player.mine .slot[data-slot="%d"]`, st.Mine[0]))
				click(`[data-action=replace]`)
			default:
				click(`[data-action=discard]`)
			}
		}
	}
	if st.Status != "over" {
		t.Fatalf("the game did not end after %d steps: %+v", clicks, st)
	}
	if powers == 0 {
		t.Fatal("no power was used")
	}
	if !switched || st.Lang != "fr" {
		t.Fatalf("the language was not switched to French: %q", st.Lang)
	}
	var again string
	const againText = `document.querySelector('.again [data-action=again]').textContent`
	click(`[data-action=close-overlay]`)
	run("play again button", chromedp.Evaluate(againText, &again))
	if again != "Rejouer" {
		t.Fatalf("the play-again button reads %q in French", again)
	}
	click(`#lang`)
	run("back to English", chromedp.Evaluate(againText, &again))
	if again != "Play again" {
		t.Fatalf("the play-again button reads %q in English", again)
	}
	// At 360 px wide, nothing sticks out sideways.
	var width int
	var png []byte
	run("narrow", chromedp.EmulateViewport(360, 740), chromedp.Sleep(200*time.Millisecond),
		chromedp.Evaluate(`document.documentElement.scrollWidth`, &width),
		chromedp.FullScreenshot(&png, 100))
	if width > 360 {
		t.Errorf("at 360 px the page is %d px wide", width)
	}
	os.WriteFile(filepath.Join(filepath.Dir(shot), "tapis-cabo-360.png"), png, 0o644)

	// A refresh brings the player back to the same seat (the token is in
	// localStorage), with the current view.
	var back string
	run("refresh", chromedp.Reload(), chromedp.WaitVisible(`#game .player.mine`, chromedp.ByQuery),
		chromedp.Evaluate(`document.querySelector('#table').dataset.seat + ' ' + document.querySelector('#table').dataset.status`, &back))
	if back != "0 over" {
		t.Fatalf("after a refresh: seat and status %q", back)
	}

	// A guest follows an invite link: the page offers the free seat, the
	// guest sits down with a name, and the table starts.
	host := h.create("cabo", []string{"", ""}, "Host", "")
	var seat string
	run("guest joins",
		chromedp.Navigate(h.hs.URL+"/t/"+host.Table),
		chromedp.WaitVisible(`#join`, chromedp.ByQuery),
		chromedp.Evaluate(`document.querySelector('#join input[name=name]').value = ''`, nil),
		chromedp.SendKeys(`#join input[name=name]`, "Guest", chromedp.ByQuery),
		chromedp.Click(`[data-action=join]`, chromedp.ByQuery),
		chromedp.WaitVisible(`#game .player.mine`, chromedp.ByQuery),
		chromedp.Evaluate(`document.querySelector('#table').dataset.seat`, &seat))
	if seat != "1" {
		t.Fatalf("the guest sits at seat %q", seat)
	}
	t.Logf("a whole game in %d steps, %d powers used (a spied card seen hidden again: %v); screenshots: %s and tapis-cabo-360.png beside it", clicks, powers, hidden, shot)
}

// Every game is also playable through the generic screen (the table's URL
// with ?screen=generic): its legal moves are buttons. The test clicks them
// at random until the game ends or 150 moves have been played.
func TestBrowserGenericGames(t *testing.T) {
	cfg := testConfig()
	cfg.BotDelay = 5 * time.Millisecond
	h := newHarness(t, cfg)
	ctx := browser(t, 100*time.Second)
	run := func(what string, acts ...chromedp.Action) {
		t.Helper()
		if err := chromedp.Run(ctx, acts...); err != nil {
			t.Fatalf("%s: %v", what, err)
		}
	}
	for _, g := range games.All() {
		lo, _ := g.Players()
		run(g.Name()+": home page",
			chromedp.Navigate(h.hs.URL+"/"),
			chromedp.WaitVisible(`#create`, chromedp.ByQuery),
			chromedp.Evaluate(fmt.Sprintf(`(() => { const s = document.querySelector('select[name=game]'); s.value = %q; s.dispatchEvent(new Event('change')); })()`, g.Name()), nil),
			chromedp.SendKeys(`input[name=name]`, "Zoé", chromedp.ByQuery),
			chromedp.Evaluate(fmt.Sprintf(`(() => { const s = document.querySelector('select[name=players]'); s.value = '%d'; s.dispatchEvent(new Event('change'));
				document.querySelectorAll('select[data-seat]').forEach(s => { s.value = 'random'; s.dispatchEvent(new Event('change')); }); })()`, lo), nil),
			chromedp.Click(`[data-action=create]`, chromedp.ByQuery),
			chromedp.WaitVisible(`#game`, chromedp.ByQuery),
			chromedp.Evaluate(`location.search = '?screen=generic'`, nil),
			chromedp.Sleep(300*time.Millisecond),
			chromedp.WaitVisible(`#game .generic`, chromedp.ByQuery),
		)
		moves, status := 0, ""
		for i := 0; i < 3000 && moves < 150; i++ {
			var r struct {
				Status string    `json:"status"`
				At     []float64 `json:"at"`
			}
			run("read", chromedp.Evaluate(`(() => {
				const tb = document.querySelector('#table'), g = document.querySelector('#game');
				const bs = g && g.dataset.myturn === '1' ? [...document.querySelectorAll('[data-action=move]:not(:disabled)')] : [];
				if (!bs.length) return {status: tb ? tb.dataset.status : '', at: []};
				const b = bs[Math.floor(Math.random() * bs.length)];
				b.scrollIntoView({block: 'center'});
				const r = b.getBoundingClientRect();
				return {status: tb.dataset.status, at: [r.left + r.width / 2, r.top + r.height / 2]};
			})()`, &r))
			status = r.Status
			if status == "over" {
				break
			}
			if len(r.At) == 2 {
				run("click a move", chromedp.MouseClickXY(r.At[0], r.At[1]), chromedp.Sleep(15*time.Millisecond))
				moves++
			} else {
				run("wait", chromedp.Sleep(15*time.Millisecond))
			}
		}
		if status != "over" && moves < 20 {
			t.Fatalf("%s: only %d moves clicked", g.Name(), moves)
		}
		var png []byte
		run("screenshot", chromedp.Sleep(300*time.Millisecond), chromedp.FullScreenshot(&png, 100))
		os.WriteFile(filepath.Join(os.TempDir(), "tapis-"+g.Name()+".png"), png, 0o644)
		t.Logf("%s: %d moves clicked, game %s", g.Name(), moves, status)
	}
}
