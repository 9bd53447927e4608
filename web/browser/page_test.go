// Package browser tests the web client (web/static) in a real browser: a
// headless chromium, driven by chromedp as a person would drive it, on a
// real server (server/servertest). It holds only tests; they skip in
// -short runs and where chromium is missing. TAPIS_SCREENSHOT_DIR keeps
// their screenshots, which otherwise go to each test's temporary folder.
package browser

import (
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	cdpruntime "github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/chromedp"

	"tapis/server"
	"tapis/server/servertest"
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

// parallel: a test that waits on conditions only calls t.Parallel, so
// that several browsers play at once: most of a browser test's time is
// spent waiting (a bot's delay, an animation, a page drawn), not
// computing, and one after the other the package took over 10 minutes on
// 2 cores. TestMain lets three run at once (go test's default is
// GOMAXPROCS, 2 here) unless -parallel is given. Each has its own browser
// and server. A test that measures time (TestBrowserPace, the
// animations' tests) or leans on the clock (stand-ins, presence, a time
// per move) stays serial: it runs first, alone in this package.

// browsersAtOnce is how many parallel tests run at once when go test is
// not told (-parallel).
const browsersAtOnce = 3

// TestMain sets -parallel to browsersAtOnce unless the command line gave it.
func TestMain(m *testing.M) {
	flag.Parse()
	given := false
	flag.Visit(func(f *flag.Flag) { given = given || f.Name == "test.parallel" })
	if !given {
		flag.Set("test.parallel", strconv.Itoa(browsersAtOnce))
	}
	os.Exit(m.Run())
}

// The size of the browser's window: a person's desktop.
const desktopW, desktopH = 1100, 900

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
	// The profile and the configuration folder (the crash reporter's
	// database) are the test's own, and so is the temporary folder
	// chromium makes its sockets in, though not under t.TempDir: a
	// socket's path must stay short. Chromium's helper processes (its
	// network service) still write after the browser itself has exited,
	// so the browser runs in a process group of its own, killed whole,
	// and the cleanup below (which runs before TempDir's) waits for every
	// process of the group, and the crash reporter (a session of its
	// own), to be gone before the folders are removed.
	dir := t.TempDir()
	profile, home := filepath.Join(dir, "p"), filepath.Join(dir, "h")
	if err := os.Mkdir(home, 0o700); err != nil {
		t.Fatal(err)
	}
	tmp, err := os.MkdirTemp("", "tc")
	if err != nil {
		t.Fatal(err)
	}
	var chrome *exec.Cmd
	actx, cancelA := chromedp.NewExecAllocator(context.Background(),
		chromedp.ExecPath(exe), chromedp.Headless, chromedp.NoSandbox, chromedp.DisableGPU, chromedp.NoFirstRun,
		chromedp.Flag("disable-background-networking", true), chromedp.Flag("disable-component-update", true),
		chromedp.Flag("disable-sync", true), chromedp.Flag("lang", "en-US"),
		chromedp.UserDataDir(profile), chromedp.WindowSize(desktopW, desktopH),
		chromedp.Env("TMPDIR="+tmp, "XDG_CONFIG_HOME="+home),
		chromedp.ModifyCmdFunc(func(cmd *exec.Cmd) {
			chrome = cmd
			cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGKILL}
			cmd.Cancel = func() error { return syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) }
		}))
	bctx, cancelB := chromedp.NewContext(actx)
	ctx, cancel := context.WithTimeout(bctx, timeout)
	t.Cleanup(func() {
		cancel()
		cancelB()
		cancelA()
		if chrome != nil && chrome.Process != nil {
			// Killed again: the browser may have ended by itself and left
			// its helpers. They end at once, as soon as the kernel next
			// runs them: look every few milliseconds, for a few seconds
			// at most, until none is left running.
			group := chrome.Process.Pid
			syscall.Kill(-group, syscall.SIGKILL)
			tick := time.NewTicker(5 * time.Millisecond)
			defer tick.Stop()
			for end := time.Now().Add(5 * time.Second); runs(group, dir) && time.Now().Before(end); {
				<-tick.C
			}
		}
		if err := os.RemoveAll(tmp); err != nil {
			t.Errorf("chromium's temporary folder: %v", err)
		}
	})
	return ctx
}

// runs reports whether a process of the process group pgid, or one
// whose command line names dir, is still there and not a zombie (which
// writes nothing, and which an unwatched container's init may never reap).
func runs(pgid int, dir string) bool {
	procs, _ := filepath.Glob("/proc/[0-9]*")
	for _, proc := range procs {
		b, err := os.ReadFile(filepath.Join(proc, "stat"))
		if err != nil {
			continue
		}
		// After "pid (comm) ": state, ppid, pgrp; comm may hold spaces.
		f := strings.Fields(string(b[bytes.LastIndexByte(b, ')')+1:]))
		if len(f) < 3 || f[0] == "Z" || f[0] == "X" {
			continue
		}
		if f[2] == strconv.Itoa(pgid) {
			return true
		}
		if cmd, err := os.ReadFile(filepath.Join(proc, "cmdline")); err == nil && bytes.Contains(cmd, []byte(dir)) {
			return true
		}
	}
	return false
}

// screenshotDir is where a test writes its screenshots:
// $TAPIS_SCREENSHOT_DIR when set, else dflt (the test's t.TempDir(), so
// that nothing is left in the shared temporary folder).
func screenshotDir(dflt string) string {
	if d := os.Getenv("TAPIS_SCREENSHOT_DIR"); d != "" {
		return d
	}
	return dflt
}

// page is one browser tab on a test server, driven as a person would: the
// steps every browser test takes, each failing the test with what it was
// doing. A script error thrown on the page fails the test too.
type page struct {
	t   *testing.T
	h   *servertest.Server
	ctx context.Context
	dir string // where shoot writes
	// press clicks for the steps shared by the tests (closeOverlay,
	// playAgainInBothLanguages): p.click, unless the test has its own way.
	press func(sel string)

	mu   sync.Mutex
	errs []string // script errors thrown on the page
}

// newPage starts a server whose bots wait botDelay before each move (so
// that a person's clicks and the bots' moves interleave as at a real
// table) and a browser that may run for timeout. Screenshots go to
// screenshotDir(t.TempDir()) unless the test sets p.dir.
func newPage(t *testing.T, botDelay, timeout time.Duration) *page {
	t.Helper()
	cfg := servertest.Unlimited()
	cfg.BotDelay = botDelay
	return newPageWith(t, cfg, timeout)
}

// newPageWith is newPage for a server configured by cfg.
func newPageWith(t *testing.T, cfg server.Config, timeout time.Duration) *page {
	t.Helper()
	p := &page{t: t, h: servertest.New(t, cfg), dir: screenshotDir(t.TempDir())}
	p.press = func(sel string) { t.Helper(); p.click(sel) }
	p.ctx = browser(t, timeout)
	chromedp.ListenTarget(p.ctx, func(ev any) {
		if e, ok := ev.(*cdpruntime.EventExceptionThrown); ok {
			p.mu.Lock()
			p.errs = append(p.errs, e.ExceptionDetails.URL+" "+e.ExceptionDetails.Error())
			p.mu.Unlock()
		}
	})
	// Reported in cleanup, before the browser closes: the listener runs on
	// chromedp's goroutine, which may outlive the test function.
	t.Cleanup(func() {
		p.mu.Lock()
		defer p.mu.Unlock()
		if len(p.errs) > 0 {
			t.Errorf("script errors on the page: %q", p.errs)
		}
	})
	return p
}

// run runs actions on the page, failing the test with what was being done.
func (p *page) run(what string, acts ...chromedp.Action) {
	p.t.Helper()
	if err := chromedp.Run(p.ctx, acts...); err != nil {
		p.t.Fatalf("%s: %v", what, err)
	}
}

// eval evaluates a script on the page into v.
func (p *page) eval(what, js string, v any) {
	p.t.Helper()
	p.run(what, chromedp.Evaluate(js, v))
}

// read reads the table with a readTable script into v. With TAPIS_DEBUG
// set every read is logged, to follow a test's game step by step.
func (p *page) read(js string, v any) {
	p.t.Helper()
	p.eval("read the page", js, v)
	if os.Getenv("TAPIS_DEBUG") != "" {
		p.t.Logf("%+v", v)
	}
}

// wait pauses for d. It waits for nothing in particular, so a test that
// waits for something (a bot's move, a message, a redraw) uses until: a
// fixed pause is too short on a loaded machine and too long on an idle one.
func (p *page) wait(d time.Duration) {
	p.t.Helper()
	p.run("wait", chromedp.Sleep(d))
}

// How until waits: it looks every untilEvery, and gives up after
// untilLimit, which is far longer than anything a test waits for takes on
// an idle machine (a second or two at most), so that only a real failure,
// not a slow shared CI machine, fails a test. The tests' overall timeouts
// (newPage's) leave room for it.
const (
	untilEvery = 50 * time.Millisecond
	untilLimit = 60 * time.Second
)

// poll calls check every untilEvery until it returns true, and says
// whether it did within untilLimit. Tests call until; poll is for the
// few that have more to report when the wait fails.
func (p *page) poll(check func() bool) bool {
	p.t.Helper()
	tick := time.NewTicker(untilEvery)
	defer tick.Stop()
	end := time.After(untilLimit)
	for {
		if check() {
			return true
		}
		select {
		case <-tick.C:
		case <-end:
			return check()
		case <-p.ctx.Done():
			p.t.Fatalf("the browser's time ran out (%v) while waiting", context.Cause(p.ctx))
		}
	}
}

// until reads the page with the script js into v, again and again, until
// ok says it is as awaited; it fails the test after untilLimit, saying
// what it waited for and what it last read. A read that fails (the page
// between two documents, say) counts as not yet.
func (p *page) until(what, js string, v any, ok func() bool) {
	p.t.Helper()
	var err error
	if p.poll(func() bool {
		if err = chromedp.Run(p.ctx, chromedp.Evaluate(js, v)); err != nil {
			return false
		}
		if os.Getenv("TAPIS_DEBUG") != "" {
			p.t.Logf("%s: %+v", what, v)
		}
		return ok()
	}) {
		return
	}
	if err != nil {
		p.t.Fatalf("waited %v for %s: the page could not be read: %v", untilLimit, what, err)
	}
	seen, _ := json.Marshal(v)
	p.t.Fatalf("waited %v for %s; the page last read %s", untilLimit, what, seen)
}

// clickFor presses sel until the page, read with js into v, is as ok
// says (waiting untilLimit in all). A click is coordinates computed from
// one read of the page and pressed in the next round trip: on a loaded
// machine the page may redraw in between and the press land beside its
// element, which a person would see and press again. It is for controls
// whose effect, once there, stays (opening or closing a panel): a second
// press is made only after the first has visibly done nothing for a while.
func (p *page) clickFor(sel, what, js string, v any, ok func() bool) {
	p.t.Helper()
	deadline := time.Now().Add(untilLimit)
	for {
		p.click(sel)
		again := time.Now().Add(clickAgain)
		for time.Now().Before(again) {
			if err := chromedp.Run(p.ctx, chromedp.Evaluate(js, v)); err == nil && ok() {
				return
			}
			select {
			case <-time.After(untilEvery):
			case <-p.ctx.Done():
				p.t.Fatalf("the browser's time ran out (%v) while waiting for %s", context.Cause(p.ctx), what)
			}
		}
		if time.Now().After(deadline) {
			seen, _ := json.Marshal(v)
			p.t.Fatalf("pressed %s for %v and waited for %s; the page last read %s", sel, untilLimit, what, seen)
		}
	}
}

// clickAgain is how long clickFor lets a press show its effect before it
// presses again: far more than a page takes to redraw after a click.
const clickAgain = 5 * time.Second

// untilTurn reads the table into st (the result of the readTable script
// js, whose tableState is ts) until the page lets the person act (my
// turn, the server's answer to the last click in), shows one of the
// panels the test deals with, or the game is over.
func (p *page) untilTurn(js string, st any, ts *tableState, panels ...string) {
	p.t.Helper()
	what := "my turn or the end"
	if len(panels) > 0 {
		what = "my turn, the panel " + strings.Join(panels, " or ") + ", or the end"
	}
	p.until(what, js, st, func() bool {
		return ts.MyTurn == "1" || ts.Status == "over" || slices.Contains(panels, ts.Overlay)
	})
}

// spot finds the element sel names, scrolls it into view and says where
// to click it: where is a script that returns that point ([x, y], or []
// for none) from the element e and its rectangle r. It is nowhere when the
// element is not there or is disabled.
func (p *page) spot(sel, where string) []float64 {
	p.t.Helper()
	var at []float64
	// Where the element lands: the press finishes the cards' travels
	// (motion.js), and the release, which the page acts on, meets the
	// element at its place.
	p.eval("find "+sel, fmt.Sprintf(`(() => {
		for (const a of document.getAnimations()) if (a.id === 'tapis-motion') a.finish();
		const e = document.querySelector(%q);
		if (!e || e.disabled) return [];
		e.scrollIntoView({block: "center"});
		const r = e.getBoundingClientRect();
		%s
	})()`, sel, where), &at)
	return at
}

// clickAt presses the mouse at a point spot found. The browser has run
// the page's handlers (which redraw at once) when it returns, so the next
// read sees the click's effect.
func (p *page) clickAt(sel string, at []float64) {
	p.t.Helper()
	p.run("click "+sel, chromedp.MouseClickXY(at[0], at[1]))
}

// click presses the mouse on the element sel names where it shows, as a
// person would (its centre, or else the first point of it that nothing
// covers), and says whether it was there and enabled. An element that is
// there but covered (a card turning over, a panel) is waited for; one
// that stays covered fails the test with what covers it: a person could
// not press it either. The page redraws on every message, so it finds the
// element and clicks its place in one go rather than holding on to a DOM
// node.
func (p *page) click(sel string) bool {
	p.t.Helper()
	var at []float64
	p.poll(func() bool {
		at = p.spot(sel, `const shows = (x, y) => { const at = document.elementFromPoint(x, y); return at && (at === e || e.contains(at)); };
		const cx = r.left + r.width / 2, cy = r.top + r.height / 2;
		if (shows(cx, cy)) return [cx, cy];
		for (let y = r.top + 2; y < r.bottom; y += 4)
			for (let x = r.left + 2; x < r.right; x += 4) if (shows(x, y)) return [x, y];
		return [-1, -1];`)
		return len(at) != 2 || at[0] != -1
	})
	if len(at) != 2 {
		return false
	}
	if at[0] == -1 {
		var over string
		p.eval("what covers "+sel, fmt.Sprintf(`(() => { const e = document.querySelector(%q); if (!e) return 'gone';
			const r = e.getBoundingClientRect(), o = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
			return o ? o.outerHTML.slice(0, 200) : 'nothing'; })()`, sel), &over)
		p.t.Fatalf("%s is there but stays covered by %s", sel, over)
	}
	p.clickAt(sel, at)
	return true
}

// pressWhen waits for the element sel names to be there and enabled, then
// clicks it as click does; the test fails if it never comes. For a control
// that appears a moment after the page (the header's chat button).
func (p *page) pressWhen(sel string) {
	p.t.Helper()
	if !p.poll(func() bool { return p.click(sel) }) {
		p.t.Fatalf("%s never came to be pressed", sel)
	}
}

// shoot photographs the whole page into the test's folder, once the
// actions given (a wait for the page to settle) are done.
func (p *page) shoot(name string, settle ...chromedp.Action) {
	p.t.Helper()
	p.shootAt(filepath.Join(p.dir, name), settle...)
}

// shootAt is shoot into a file of any folder.
func (p *page) shootAt(path string, settle ...chromedp.Action) {
	p.t.Helper()
	var png []byte
	// From the top of the page: scrolled (a click scrolls its element
	// into view), the sticky header would be drawn over the table in
	// the middle of the photograph.
	p.run("screenshot "+filepath.Base(path), append(settle, chromedp.Evaluate(`window.scrollTo(0, 0)`, nil), chromedp.FullScreenshot(&png, 100))...)
	if err := os.WriteFile(path, png, 0o644); err != nil {
		p.t.Fatal(err)
	}
}

// narrow shows the page 360 px wide, as a phone does, checks that nothing
// sticks out sideways, and gives the page settle to finish its animations
// for a photograph.
func (p *page) narrow(settle time.Duration) {
	p.t.Helper()
	p.run("narrow", chromedp.EmulateViewport(360, 740))
	// The page learns its new size a moment later; reading the width
	// then lays it out anew.
	var inner int
	p.until("the page to be 360 px wide", `window.innerWidth`, &inner, func() bool { return inner == 360 })
	// Read a frame later: the page's resize handlers have run by then (a
	// card in flight between two places of the desktop's layout lands).
	var width int
	p.run("the page's width", chromedp.Evaluate(`new Promise(r => requestAnimationFrame(() => r(document.documentElement.scrollWidth)))`, &width,
		func(e *cdpruntime.EvaluateParams) *cdpruntime.EvaluateParams { return e.WithAwaitPromise(true) }))
	if width > 360 {
		p.t.Errorf("at 360 px the page is %d px wide", width)
	}
	p.run("settle", chromedp.Sleep(settle))
}

// desktop shows the page at the window's size again, after narrow.
func (p *page) desktop() {
	p.t.Helper()
	p.run("desktop", chromedp.EmulateViewport(desktopW, desktopH))
	// Clicks go where the page says its elements are: at its new size.
	var inner int
	p.until("the page to be desktop-wide again", `window.innerWidth`, &inner, func() bool { return inner == desktopW })
}

// setValue sets a form field's value as the page's own code sees a
// person's choice: with a change event.
func setValue(sel, v string) chromedp.Action {
	return chromedp.Evaluate(fmt.Sprintf(`(() => { const s = document.querySelector(%q); s.value = %q; s.dispatchEvent(new Event('change')); })()`, sel, v), nil)
}

// table is what a test chooses on the home page's form for a new table.
type table struct {
	game    string // its name, as the form's select offers it
	name    string // the person's name; "Alice" when empty
	players int
	bots    []string          // seats 1, 2...: a bot level, "" for a guest; none keeps the defaults
	options map[string]string // the game's options, by input name
	turn    string            // the time per move's value, in seconds; "" keeps the default (none)
}

// fill opens the home page and fills the form for f, without creating the
// table. The name is typed into an emptied field: the page remembers the
// last one.
func (p *page) fill(f table) {
	p.t.Helper()
	name := f.name
	if name == "" {
		name = "Alice"
	}
	p.run("home page",
		chromedp.Navigate(p.h.URL+"/"),
		chromedp.WaitVisible(`#create`, chromedp.ByQuery),
		setValue(`select[name=game]`, f.game),
		chromedp.Evaluate(`document.querySelector('input[name=name]').value = ''`, nil),
		chromedp.SendKeys(`input[name=name]`, name, chromedp.ByQuery),
		setValue(`select[name=players]`, strconv.Itoa(f.players)))
	p.setBots(f.bots...)
	if f.turn != "" {
		p.run("time per move", setValue(`select[name=turn_seconds]`, f.turn))
	}
	// In a steady order, so that a failing run repeats.
	for _, k := range slices.Sorted(maps.Keys(f.options)) {
		in := fmt.Sprintf(`input[name=%s]`, k)
		p.run("option "+k, chromedp.WaitVisible(in, chromedp.ByQuery), setValue(in, f.options[k]))
	}
}

// setBots chooses the bots of seats 1, 2... on the home page's form.
func (p *page) setBots(bots ...string) {
	p.t.Helper()
	if len(bots) == 0 {
		return
	}
	acts := []chromedp.Action{chromedp.WaitVisible(fmt.Sprintf(`select[name=seat%d]`, len(bots)), chromedp.ByQuery)}
	for i, b := range bots {
		acts = append(acts, setValue(fmt.Sprintf(`select[name=seat%d]`, i+1), b))
	}
	p.run("seats", acts...)
}

// create creates the table the home page's form describes and waits for
// the game's screen, the element screen names.
func (p *page) create(screen string) {
	p.t.Helper()
	p.run("create", chromedp.Click(`[data-action=create]`, chromedp.ByQuery), chromedp.WaitVisible(screen, chromedp.ByQuery))
}

// createTable creates a table for f from the home page, as a person would,
// and waits for the game's screen.
func (p *page) createTable(f table, screen string) {
	p.t.Helper()
	p.fill(f)
	p.create(screen)
}

// tableState is what every browser test reads of a table page: the
// table's status, what the game's screen tells on #game, and the language.
type tableState struct {
	Status  string `json:"status"`
	Phase   string `json:"phase"`
	MyTurn  string `json:"myturn"`
	Need    string `json:"need"`
	Round   string `json:"round"`
	Overlay string `json:"overlay"`
	Lang    string `json:"lang"`
}

// readTable is a script that reads a tableState and a game's own fields,
// the entries of a JS object that may use d (#game's dataset) and q (the
// elements a selector finds, as an array).
func readTable(fields string) string {
	return `(() => {
  const g = document.querySelector('#game'), tb = document.querySelector('#table');
  const d = g ? g.dataset : {};
  const q = s => [...document.querySelectorAll(s)];
  return {status: tb ? tb.dataset.status : '', phase: d.phase || '', myturn: d.myturn || '', need: d.need || '',
    round: d.round || '', overlay: d.overlay || '', lang: document.documentElement.lang,
    ` + fields + `};
})()`
}

// closeOverlay closes the panel shown over the table at a round's end.
// The first time lang is true it also switches the page to French
// (*switched records that), so that the game goes on in the other language.
func (p *page) closeOverlay(switched *bool, lang bool) {
	p.t.Helper()
	p.press(`[data-action=close-overlay]`)
	if lang && !*switched {
		p.press(`#lang`)
		*switched = true
	}
}

// inFrench checks that the language was switched during the game and the
// page (read as lang) is still in French.
func (p *page) inFrench(switched bool, lang string) {
	p.t.Helper()
	if !switched || lang != "fr" {
		p.t.Fatalf("the language was not switched to French: %q", lang)
	}
}

// playAgainInBothLanguages checks the play-again button of a finished game
// in French, switches back to English and checks it again.
func (p *page) playAgainInBothLanguages() {
	p.t.Helper()
	const againText = `document.querySelector('.again [data-action=again]').textContent`
	var again string
	p.eval("play again button", againText, &again)
	if again != "Rejouer" {
		p.t.Fatalf("the play-again button reads %q in French", again)
	}
	p.press(`#lang`)
	p.eval("back to English", againText, &again)
	if again != "Play again" {
		p.t.Fatalf("the play-again button reads %q in English", again)
	}
}

// refreshOver reloads a finished game's page and checks that the player is
// back at seat 0 (the token is in localStorage) once screen shows.
func (p *page) refreshOver(screen string) {
	p.t.Helper()
	var back string
	p.run("refresh", chromedp.Reload(), chromedp.WaitVisible(screen, chromedp.ByQuery),
		chromedp.Evaluate(`document.querySelector('#table').dataset.seat + ' ' + document.querySelector('#table').dataset.status`, &back))
	if back != "0 over" {
		p.t.Fatalf("after a refresh: seat and status %q", back)
	}
}

// explain is how a game's screen words the engine's refusals (error
// messages as the server sends them: reason and args), in the page's
// language. The screen never offers a refused move, so the words are read
// through its explain(): ui makes the screen from the module
// static/<module>.js (m), with a stand-in for the table.
func (p *page) explain(module, ui string, refusals []map[string]any) []string {
	p.t.Helper()
	list, err := json.Marshal(refusals)
	if err != nil {
		p.t.Fatal(err)
	}
	var words []string
	p.run("explain", chromedp.Evaluate(fmt.Sprintf(`import('/static/%s.js').then(m => {
		const ui = %s;
		return %s.map(e => ui.explain(e));
	})`, module, ui, list), &words, func(e *cdpruntime.EvaluateParams) *cdpruntime.EvaluateParams { return e.WithAwaitPromise(true) }))
	return words
}

// refusal is an engine's refusal as an error message carries it: the
// English words, the reason and its args.
func refusal(words, reason string, args map[string]any) map[string]any {
	return map[string]any{"type": "error", "code": "refused", "error": words, "reason": reason, "args": args}
}
