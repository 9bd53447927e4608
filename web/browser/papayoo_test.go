package browser

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
	tableState
	Led      string   `json:"led"`
	Die      string   `json:"die"`
	Hand     []string `json:"hand"`     // my cards, in the order shown
	Enabled  []string `json:"enabled"`  // the cards I may tap now
	Selected []string `json:"selected"` // chosen for the pass
	Received []string `json:"received"` // highlighted as just received
	Trick    int      `json:"trick"`    // cards of the trick in play
	PassOK   bool     `json:"passok"`   // the Pass button is enabled
}

var readPapayoo = readTable(`led: d.led || '', die: d.die || '',
    hand: q('#hand .handcard').map(e => e.dataset.card), enabled: q('#hand .handcard:not(:disabled)').map(e => e.dataset.card),
    selected: q('#hand .handcard.selected').map(e => e.dataset.card), received: q('#hand .handcard.received').map(e => e.dataset.card),
    trick: +(document.querySelector('#trick') || {dataset: {}}).dataset.count || 0,
    passok: !!document.querySelector('#pass:not(:disabled)')`)

// noToast waits until no message shows over the table: a photograph is of
// the table, not of a passing message.
var noToast = chromedp.Poll(`!document.querySelector('#toast.show')`, nil)

// papayooClick taps the element sel names where it shows, as a person taps
// what they see: the cards of a hand overlap, so the first point of it
// that is not under another one. It waits (poll) for the element to be
// there and enabled; else the test fails with a photograph.
func papayooClick(p *page, sel string) {
	p.t.Helper()
	var at []float64
	if !p.poll(func() bool {
		at = p.spot(sel, `for (let y = r.top + r.height / 3; y < r.bottom; y += 6)
			for (let x = r.left + 4; x < r.right; x += 4) {
				const at = document.elementFromPoint(x, y);
				if (at && (at === e || e.contains(at))) return [x, y];
			}
		return [];`)
		return len(at) == 2
	}) {
		var why string
		chromedp.Run(p.ctx, chromedp.Evaluate(fmt.Sprintf(`(() => { const e = document.querySelector(%q); if (!e) return 'none';
			const r = e.getBoundingClientRect(); const at = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
			return 'disabled ' + e.disabled + ' rect ' + JSON.stringify(r) + ' covered by ' + (at ? at.outerHTML.slice(0, 120) : 'nothing'); })()`, sel), &why))
		papayooFailed(p)
		p.t.Fatalf("%s: not there, or disabled: %s", sel, why)
	}
	p.clickAt(sel, at)
}

// papayooFailed photographs the page as papayoo-failed.png, for a test
// about to fail; as it fails anyway, an error here is not reported.
func papayooFailed(p *page) {
	var png []byte
	chromedp.Run(p.ctx, chromedp.FullScreenshot(&png, 100))
	os.WriteFile(filepath.Join(p.dir, "papayoo-failed.png"), png, 0o644)
}

// The Papayoo browser test: a person creates a table of three (two bots)
// from the home page, plays a whole two-round game by clicking — the pass
// by tapping cards then Pass, every card of every trick — switches the
// language, and the table is photographed on a desktop and at 360 px.
func TestBrowserPapayoo(t *testing.T) {
	t.Parallel() // waits on conditions only: see parallel in page_test.go
	p := newPage(t, 20*time.Millisecond, 6*time.Minute)
	p.createTable(table{game: "papayoo", players: 3, bots: []string{"easy", "easy"}, options: map[string]string{"rounds": "2"}}, `#game`)
	// Every click, the shared steps' too, taps where the element shows
	// and fails the test if it is not there.
	p.press = func(sel string) { t.Helper(); papayooClick(p, sel) }
	click := p.press
	card := func(c string) string { return fmt.Sprintf(`#hand .handcard[data-card=%q]`, c) }
	shoot := func(name string) { t.Helper(); p.shoot(name, noToast, chromedp.Sleep(700*time.Millisecond)) }
	rng := rand.New(rand.NewPCG(1, 2))
	var st papayooPage
	steps, plays, passes := 0, 0, 0
	switched, shotPass, shotTable, shotNarrow, capTried, sawReceived := false, false, false, false, false, false
	waitingReceived := false
	// Every pass acts, or finds the game over, or sees the cards passed
	// to me (highlighted for a few seconds only, so looked for on every
	// read): until waits for the bots and the server, so the bound counts
	// the person's steps, not time.
	ready := func() bool {
		return st.MyTurn == "1" || st.Status == "over" || st.Overlay == "round" || waitingReceived && st.Phase == "play"
	}
	for ; steps < 3000; steps++ {
		p.until("my turn, the cards passed to me, a round's end or the game's", readPapayoo, &st, ready)
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
			p.closeOverlay(&switched, true)
			continue
		}
		if st.MyTurn != "1" {
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
			p.eval("read the pass", readPapayoo, &st)
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
				p.run("no toast", noToast)
				p.narrow(700 * time.Millisecond)
				p.shoot("papayoo-360.png")
				p.desktop()
				shotNarrow = true
				continue
			}
			c := papayooChoice(st, follow > 0)
			click(card(c))
			plays++
			// The card leaves my hand (the server took the move).
			var gone bool
			var toast string
			if !p.poll(func() bool {
				p.eval("played", fmt.Sprintf(`!document.querySelector(%q) || document.querySelectorAll('#hand .handcard').length !== %d || document.querySelector('#game').dataset.phase !== 'play'`, card(c), len(st.Hand)), &gone)
				return gone
			}) {
				p.eval("toast", `document.querySelector('#toast').className + ': ' + document.querySelector('#toast').textContent`, &toast)
				papayooFailed(p)
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
	p.inFrench(switched, st.Lang)
	// The final scores, in French.
	var over string
	p.run("final scores", chromedp.WaitVisible(`#overlay[data-kind=over]`, chromedp.ByQuery),
		chromedp.Evaluate(`document.querySelector('#overlay .winners').textContent + ' | ' + document.querySelectorAll('#overlay table.results tr').length`, &over))
	if !(strings.HasPrefix(over, "Gagnant : ") || strings.HasPrefix(over, "Gagnants : ")) || !strings.HasSuffix(over, "| 4") {
		t.Fatalf("the final overlay reads %q", over)
	}
	shoot("papayoo-over.png")
	click(`[data-action=close-overlay]`)
	p.playAgainInBothLanguages()
	// The engine's refusals, in the player's language.
	refusals := p.explain("papayoo", `m.papayooUI({seat: 0, name: s => 'Seat ' + s})`, []map[string]any{
		refusal("papayoo: play: you must follow hearts", "must_follow", map[string]any{"suit": "H"}),
		refusal("papayoo: pass: pass exactly 5 cards", "pass_count", map[string]any{"n": 5}),
		refusal("papayoo: pass: P20 is already chosen", "already_chosen", map[string]any{"card": "P20"}),
		refusal("papayoo: play: every player passes 5 cards first", "pass_first", map[string]any{"n": 5}),
		refusal("papayoo: play: a reason this page does not know", "unknown_to_the_page", nil)})
	want := []string{"You must follow hearts.", "Pass exactly 5 cards.", "The Payoo 20 is already in your pass.", "Everyone first passes 5 cards.",
		"papayoo: play: a reason this page does not know"}
	if strings.Join(refusals, "|") != strings.Join(want, "|") {
		t.Fatalf("refusals explained as %q, want %q", refusals, want)
	}
	var log []string
	p.eval("log", `[...document.querySelectorAll('#log li')].map(l => l.textContent)`, &log)
	for _, l := range log {
		if strings.Contains(l, "papayoo.") || strings.HasPrefix(l, "{") {
			t.Fatalf("an untranslated log line: %q", l)
		}
	}
	t.Logf("a whole game in %d steps: %d passes, %d cards played; screenshots in %s", steps, passes, plays, p.dir)
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
