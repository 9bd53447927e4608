package browser

import (
	"fmt"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"tapis/game"
	"tapis/games"
)

// caboPage is what the Cabo test reads of the page to decide its next click.
type caboPage struct {
	tableState
	Drawn string `json:"drawn"`
	Mine  []int  `json:"mine"` // my filled slots
	Sel   []int  `json:"sel"`  // my selected slots
	Cabo  bool   `json:"cabo"` // the Call Cabo button is there
}

var readCabo = readTable(`drawn: d.drawn || '',
    mine: q('.player.mine .slot:not(.empty)').map(e => +e.dataset.slot),
    sel: q('.player.mine .slot.selected').map(e => +e.dataset.slot),
    cabo: !!document.querySelector('[data-action=cabo]')`)

// The browser test: a person creates a Cabo table with bots from the home
// page, plays a whole game by clicking, switches the language, and the
// table is photographed, on a desktop and at 360 px wide.
func TestBrowserPlaysCabo(t *testing.T) {
	t.Parallel() // waits on conditions only: see parallel in page_test.go
	p := newPage(t, 20*time.Millisecond, 6*time.Minute)
	bot := "random"
	if _, ok := games.Named("cabo").(game.HeuristicGame); ok {
		bot = "easy"
	}
	p.fill(table{game: "cabo", players: 3})
	// The seat picker offers the bot levels, a good one by default, and
	// never the cheating reference bot.
	var picker struct {
		Options []string
		Chosen  string
	}
	p.eval("seat picker", `(() => { const s = document.querySelector('select[name=seat1]');
		return {options: [...s.options].map(o => o.value), chosen: s.value}; })()`, &picker)
	if want := []string{"", "random", "easy", "normal", "hard"}; !slices.Equal(picker.Options, want) || picker.Chosen != "normal" {
		t.Fatalf("seat picker offers %q with %q chosen, want %q with \"normal\"", picker.Options, picker.Chosen, want)
	}
	// Every seat but the creator's is a bot by default, so that the table
	// starts at once.
	var seat2 string
	p.eval("seat 2", `document.querySelector('select[name=seat2]').value`, &seat2)
	if seat2 != "normal" {
		t.Fatalf("seat 2 defaults to %q, want \"normal\"", seat2)
	}
	// The heuristic plays seat 1 too: the spy check below counts revealed
	// cards, and a weak search (tests give it 30 iterations) claims sets
	// that fail face up.
	p.setBots(bot, bot)
	p.shoot("tapis-home.png")
	p.create(`#game`)
	// A first table against bots offers the guided turn (its own test
	// follows it): this player says no, as a returning one would, so that
	// its bubble covers none of the cards clicked below.
	var offered bool
	p.until("the guide's offer", `!!document.querySelector('#guide [data-action=guide-no]')`, &offered, func() bool { return offered })
	p.click(`#guide [data-action=guide-no]`)
	mine := mySlot
	shot := filepath.Join(p.dir, "tapis-cabo-table.png")
	var st caboPage
	turns := map[string]int{} // my turns per round
	clicks, switched, photographed, refusedSeen := 0, false, false, false
	powers, hidden := 0, false
	stall := stallCheck{p: p}
	// Every pass of the loop acts (or finds the game over): the waits for
	// the bots and the server are untilTurn's, so the bound counts the
	// person's steps, not time.
	for ; clicks < 3000; clicks++ {
		p.untilTurn(readCabo, &st, &st.tableState, "round")
		if st.Status == "over" {
			break
		}
		if st.Overlay == "round" {
			if !switched {
				// The first round's panel: its scores, a 0 among them,
				// are printed; the header stays reachable above it on a
				// phone and on a laptop.
				p.roundPanelScores()
				p.shootSizes("cabo-round", 300*time.Millisecond)
				p.langReachable("the end-of-round panel")
			}
			// Switch to French after the first round.
			p.closeOverlay(&switched, true)
			continue
		}
		stall.see(fmt.Sprintf("%+v", st))
		switch st.Phase {
		case "peek":
			if !refusedSeen {
				// Too few cards chosen: the server refuses, the page
				// explains in words.
				p.click(mine(st.Mine[0]))
				p.click(`[data-action=look]`)
				var toast string
				p.until("the refusal's message", `document.querySelector('#toast.show') ? document.querySelector('#toast').textContent : ''`, &toast,
					func() bool { return toast != "" })
				if toast != "Choose exactly 2 of your cards." {
					t.Fatalf("a refused peek is explained as %q", toast)
				}
				p.click(mine(st.Mine[0]))
				refusedSeen = true
				continue
			}
			// Toggle only the slots whose selection is wrong, so that a click
			// lost to a redraw is mended on the next pass, not repeated.
			p.caboLook(st)
		case "turn":
			turns[st.Round]++
			if turns[st.Round] > 2 && st.Cabo {
				p.click(`[data-action=cabo]`)
				// A first game asks before the call is sent (issue 26).
				p.pressWhen(`[data-action=confirm-cabo]`)
			} else {
				p.click(`[data-action=drawpile]`)
			}
		case "drawn":
			if switched && !photographed {
				// A mid-game photograph, the drawn card in hand.
				p.shootAt(shot, chromedp.Sleep(800*time.Millisecond))
				photographed = true
			}
			var d int
			fmt.Sscan(st.Drawn, &d)
			opp := `.player:not(.mine) .slot:not(.empty)`
			switch {
			case (d == 7 || d == 8) && len(st.Mine) > 0:
				p.click(mine(st.Mine[0]))
				p.click(`[data-action=peek]`)
				powers++
			case d == 9 || d == 10:
				p.click(opp)
				p.click(`[data-action=spy]`)
				powers++
				if !hidden {
					// The spied card is shown for a few seconds, then
					// hidden again.
					const revealed = `document.querySelectorAll('.player:not(.mine) .slot.revealed').length`
					var shown, after int
					p.until("the spied card shown", revealed, &shown, func() bool { return shown > 0 })
					p.until("the spied card hidden again", revealed, &after, func() bool { return after == 0 })
					if shown != 1 || after != 0 {
						t.Fatalf("a spied card: %d shown, then %d still shown", shown, after)
					}
					hidden = true
				}
			case (d == 11 || d == 12) && len(st.Mine) > 0:
				p.click(mine(st.Mine[0]))
				p.click(opp)
				p.click(`[data-action=swap]`)
				powers++
			case d <= 5 && len(st.Mine) > 0:
				p.click(mine(st.Mine[0]))
				p.click(`[data-action=replace]`)
			default:
				p.click(`[data-action=discard]`)
			}
		}
	}
	if st.Status != "over" {
		t.Fatalf("the game did not end after %d steps: %+v", clicks, st)
	}
	if powers == 0 {
		t.Fatal("no power was used")
	}
	p.inFrench(switched, st.Lang)
	p.click(`[data-action=close-overlay]`)
	p.playAgainInBothLanguages()
	// At 360 px wide, nothing sticks out sideways.
	p.narrow(200 * time.Millisecond)
	p.shootAt(filepath.Join(filepath.Dir(shot), "tapis-cabo-360.png"))

	// A refresh brings the player back to the same seat (the token is in
	// localStorage), with the current view.
	p.refreshOver(`#game .player.mine`)

	// A guest follows an invite link: the page offers the free seat, the
	// guest sits down with a name, and the table starts.
	host := p.h.Create("cabo", []string{"", ""}, "Host", "")
	var seat string
	p.run("guest joins",
		chromedp.Navigate(p.h.URL+"/t/"+host.Table),
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
	t.Parallel() // waits on conditions only: see parallel in page_test.go
	p := newPage(t, 5*time.Millisecond, 6*time.Minute)
	for _, g := range games.All() {
		lo, _ := g.Players()
		bots := make([]string, lo-1)
		for i := range bots {
			bots[i] = "random"
		}
		p.createTable(table{game: g.Name(), name: "Zoé", players: lo, bots: bots}, `#game`)
		// Setting location.search loads the page anew: the generic
		// screen is shown once the new document has its table.
		p.run(g.Name()+": generic screen", chromedp.Evaluate(`location.search = '?screen=generic'`, nil))
		var generic bool
		p.until(g.Name()+"'s generic screen", `!!document.querySelector('#game .generic')`, &generic, func() bool { return generic })
		// Every pass clicks a move or finds the game over: until waits
		// for the bots and for the server's answer to the last click.
		moves, status := 0, ""
		for moves < 150 {
			var r struct {
				Status string    `json:"status"`
				At     []float64 `json:"at"`
			}
			p.until(g.Name()+": a move to click or the end", `(() => {
				const tb = document.querySelector('#table'), g = document.querySelector('#game');
				const bs = g && g.dataset.myturn === '1' ? [...document.querySelectorAll('[data-action=move]:not(:disabled)')] : [];
				if (!bs.length) return {status: tb ? tb.dataset.status : '', at: []};
				const b = bs[Math.floor(Math.random() * bs.length)];
				b.scrollIntoView({block: 'center'});
				const r = b.getBoundingClientRect();
				return {status: tb.dataset.status, at: [r.left + r.width / 2, r.top + r.height / 2]};
			})()`, &r, func() bool { return r.Status == "over" || len(r.At) == 2 })
			status = r.Status
			if status == "over" {
				break
			}
			p.run("click a move", chromedp.MouseClickXY(r.At[0], r.At[1]))
			moves++
		}
		if status != "over" && moves < 20 {
			t.Fatalf("%s: only %d moves clicked", g.Name(), moves)
		}
		p.shoot("tapis-"+g.Name()+".png", chromedp.Sleep(300*time.Millisecond))
		t.Logf("%s: %d moves clicked, game %s", g.Name(), moves, status)
	}
}

// stallCheck fails a test whose person acts again and again in the same
// position, saying what the page shows, instead of letting the step bound
// run out with nothing to go on.
type stallCheck struct {
	p    *page
	last string
	same int
}

func (c *stallCheck) see(state string) {
	c.p.t.Helper()
	if state != c.last {
		c.last, c.same = state, 0
		return
	}
	if c.same++; c.same < 40 {
		return
	}
	var dump string
	c.p.eval("what the page shows", `JSON.stringify({
		toast: document.querySelector('#toast')?.className + ': ' + document.querySelector('#toast')?.textContent,
		hint: document.querySelector('#hint')?.textContent,
		targets: [...document.querySelectorAll('.slot.target')].map(e => e.dataset.seat + ':' + e.dataset.slot),
		selected: [...document.querySelectorAll('.slot.selected')].map(e => e.dataset.seat + ':' + e.dataset.slot),
		actions: [...document.querySelectorAll('#actions button')].map(b => b.dataset.action + (b.disabled ? '(off)' : '')),
		over: [...document.querySelectorAll('.player:not(.mine) .slot:not(.empty), .player.mine .slot, #actions button')].map(e => {
			const r = e.getBoundingClientRect(), x = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
			return x === e || e.contains(x) ? '' : (e.dataset.slot ?? e.dataset.action) + ' under ' + (x ? x.tagName + '.' + x.className : 'nothing');
		}).filter(Boolean),
		log: [...document.querySelectorAll('#log li')].slice(-5).map(l => l.textContent),
	})`, &dump)
	c.p.t.Fatalf("the person acted %d times in the same position %s; the page: %s", c.same, state, dump)
}

// mySlot is the selector of slot i of the player's own cards in Cabo.
func mySlot(i int) string { return fmt.Sprintf(`.player.mine .slot[data-slot="%d"]`, i) }

// caboLook does one step of Cabo's initial look: it selects the first
// cards it must look at (and only those), then presses Look.
func (p *page) caboLook(st caboPage) {
	var n int
	fmt.Sscan(st.Need, &n)
	want := st.Mine[:min(n, len(st.Mine))]
	for _, s := range st.Mine {
		if slices.Contains(want, s) != slices.Contains(st.Sel, s) {
			p.click(mySlot(s))
		}
	}
	if len(st.Sel) == len(want) {
		p.click(`[data-action=look]`)
	}
}
