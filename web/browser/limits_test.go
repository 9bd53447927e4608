package browser

import (
	"fmt"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// limitsPage is what the Limits test reads of the page.
type limitsPage struct {
	tableState
	Hand     int    `json:"hand"`
	Pile     int    `json:"pile"`
	Accuse   []int  `json:"accuse"`   // seats I may accuse (tappable)
	Exchange string `json:"exchange"` // a colour I may exchange
	Hidden   int    `json:"hidden"`   // my hidden cards shown
	PileSVGs int    `json:"pilesvgs"` // cards drawn on the active pile
	OppPeeks int    `json:"opppeeks"` // colours shown on opponents' hidden cards: never
}

var readLimits = readTable(`hand: +(d.hand || 0), pile: +(d.pile || 0),
    accuse: q('button.lim-opp').map(e => +e.dataset.seat),
    exchange: (document.querySelector('[data-action=exchange]') || {dataset: {}}).dataset.color || '',
    hidden: q('.lim-me .lim-hiddencard').length,
    pilesvgs: q('.lim-active svg').length,
    opppeeks: q('.lim-opp .lim-peek, .lim-opp [data-hidden]').length`)

// The Limits browser test: a person creates a 2-player Limits table with a
// bot from the home page and plays the whole game by clicking: hides two
// cards each round, places cards (on the pile or with the Place button),
// exchanges when 4 of a colour allow it, and accuses. The resolution and
// the final scores are shown in a panel; the language is switched; the
// table is photographed on a desktop and at 360 px wide.
func TestBrowserLimits(t *testing.T) {
	t.Parallel() // waits on conditions only: see parallel in page_test.go
	p := newPage(t, 10*time.Millisecond, 6*time.Minute)
	shoot := func(name string) { t.Helper(); p.shoot(name, chromedp.Sleep(600*time.Millisecond)) }
	p.createTable(table{game: "limits", players: 2, bots: []string{"easy"}}, `#game.lim`)
	hand := func(i int) string { return fmt.Sprintf(`.lim-hand [data-i="%d"]`, i) }

	var st limitsPage
	turns := map[string]int{}
	steps, hides, places, exchanges, accusations, resolutions := 0, 0, 0, 0, 0, 0
	switched, photographed, resolutionShot := false, false, false
	// Every read checks that nothing hidden shows, and waits for a turn of
	// mine, a panel or the end.
	turnOrPanel := func() bool {
		if st.PileSVGs > 1 {
			t.Fatalf("the active pile shows %d cards: only its top card may be seen", st.PileSVGs)
		}
		if st.OppPeeks > 0 {
			t.Fatal("an opponent's hidden card shows its colour")
		}
		return st.MyTurn == "1" || st.Status == "over" || st.Overlay == "accuse" || st.Overlay == "over"
	}
	// Every pass acts, or finds the game over: until waits for the bot and
	// the server, so the bound counts the person's steps, not time.
	for ; steps < 3000; steps++ {
		p.until("my turn, a resolution or the end", readLimits, &st, turnOrPanel)
		if st.Overlay == "over" || st.Status == "over" {
			break
		}
		if st.Overlay == "accuse" {
			resolutions++
			if !resolutionShot {
				shoot("limits-accusation.png")
				resolutionShot = true
			}
			p.closeOverlay(&switched, resolutions >= 2)
			continue
		}
		switch st.Phase {
		case "hide":
			var n int
			fmt.Sscan(st.Need, &n)
			for i := 0; i < n && i < st.Hand; i++ {
				p.click(hand(i))
				if i == 0 && hides == 0 {
					// One card of two chosen: Hide is not offered yet.
					var off bool
					p.eval("hide button", `document.querySelector('[data-action=hide]').disabled`, &off)
					if !off {
						t.Fatal("Hide is offered with 1 card chosen of 2")
					}
				}
			}
			p.click(`[data-action=hide]`)
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
				p.eval("marks", marks, &before)
				if before == "" {
					t.Fatal("no marks on the pile before the refresh")
				}
				p.run("refresh mid-game", chromedp.Reload(), chromedp.WaitVisible(`#game.lim .lim-me`, chromedp.ByQuery))
				p.until("the pile's marks back after the refresh", marks, &after, func() bool { return after == before })
				if before == "" || before != after {
					t.Fatalf("after a refresh the pile's marks read %q, not %q", after, before)
				}
				continue
			}
			switch {
			case st.Exchange != "" && exchanges < 2:
				p.click(`[data-action=exchange]`)
				exchanges++
			case len(st.Accuse) > 0 && (turns[st.Round] > 3 || st.Hand == 0 || st.Pile >= 6):
				p.click(fmt.Sprintf(`button.lim-opp[data-seat="%d"]`, st.Accuse[0]))
				p.click(`[data-action=accuse]`)
				accusations++
			default:
				p.click(hand(0))
				if places%2 == 0 {
					p.click(`[data-action=pile]`)
				} else {
					p.click(`[data-action=place]`)
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
	p.inFrench(switched, st.Lang)
	// The final scores are shown in the panel.
	p.run("final panel", chromedp.WaitVisible(`#overlay[data-kind=over]`, chromedp.ByQuery))
	var final string
	p.eval("final text", `document.querySelector('#overlay h2').textContent`, &final)
	if final != "Partie terminée" {
		t.Fatalf("the final panel reads %q", final)
	}
	p.click(`[data-action=close-overlay]`)
	p.playAgainInBothLanguages()
	// The last resolution and the final scores can be shown again.
	p.click(`[data-action=show-accusation]`)
	p.run("final panel again", chromedp.WaitVisible(`#overlay[data-kind=over]`, chromedp.ByQuery))
	shoot("limits-final.png")
	p.click(`[data-action=close-overlay]`)

	// A refresh brings back the seat, and the log with it.
	p.refreshOver(`#game.lim .lim-me`)

	// Play again, then photograph the new game at 360 px wide.
	p.click(`[data-action=again]`)
	p.run("new game", chromedp.WaitVisible(`#game.lim[data-phase=hide]`, chromedp.ByQuery))
	if limitsTurn(p, &st, func() { p.click(hand(0)); p.click(hand(2)) }, func() bool { return st.Pile >= 1 }, `[data-action=pile]`) {
		p.click(hand(1))
	}
	shoot("limits-desktop.png")
	p.narrow(200 * time.Millisecond)
	shoot("limits-360.png")

	// Four players around the table: one hidden card each.
	p.desktop()
	p.createTable(table{game: "limits", players: 4, bots: []string{"easy", "easy", "easy"}}, `#game.lim`)
	hideOne := func() {
		if st.Need != "1" {
			t.Fatalf("with 4 players, hide %s cards", st.Need)
		}
		p.click(hand(1))
	}
	if limitsTurn(p, &st, hideOne, func() bool { return st.Pile >= 2 && len(st.Accuse) > 0 }, `[data-action=place]`) {
		p.click(fmt.Sprintf(`button.lim-opp[data-seat="%d"]`, st.Accuse[len(st.Accuse)-1]))
	}
	if st.Hidden != 1 {
		t.Fatalf("with 4 players, %d hidden cards shown", st.Hidden)
	}
	shoot("limits-4players.png")

	// A spectator sees the table, nobody's hand and no hidden colour.
	watched := p.h.Create("limits", []string{"", "easy", "easy"}, "Host", "")
	var seen struct {
		Seat   string `json:"seat"`
		Opps   int    `json:"opps"`
		Secret int    `json:"secret"`
	}
	p.run("spectator",
		chromedp.Navigate(p.h.URL+"/t/"+watched.Table),
		chromedp.WaitVisible(`#game.lim`, chromedp.ByQuery))
	// Read once the page shows the three players; nothing secret may
	// have shown on the way.
	p.until("a spectator's view of three players", `({seat: document.querySelector('#table').dataset.seat,
			opps: document.querySelectorAll('.lim-opp').length,
			secret: document.querySelectorAll('.lim-me, .lim-peek, .lim-hand, [data-hidden]').length})`, &seen,
		func() bool { return seen.Secret != 0 || seen.Opps == 3 })
	if seen.Seat != "-1" || seen.Opps != 3 || seen.Secret != 0 {
		t.Fatalf("a spectator sees %+v", seen)
	}
	t.Logf("a whole game in %d steps: %d hides, %d places, %d exchanges, %d accusations, %d resolutions seen; screenshots in %s",
		steps, hides, places, exchanges, accusations, resolutions, p.dir)
}

// limitsTurn plays a Limits table (read into st) until it is my turn and
// ready says the page is as the test wants it, and says whether it came
// to that within 400 steps of mine (the game may end first). On the way
// it hides when asked (hide chooses the cards) and places my first hand
// card on every turn of mine with the button place names.
func limitsTurn(p *page, st *limitsPage, hide func(), ready func() bool, place string) bool {
	p.t.Helper()
	for i := 0; i < 400; i++ {
		// A panel (an accusation's resolution) is not closed: the
		// tables this plays end no round before it is ready.
		p.untilTurn(readLimits, st, &st.tableState)
		switch {
		case st.MyTurn == "1" && st.Phase == "hide":
			hide()
			p.click(`[data-action=hide]`)
		case st.MyTurn == "1" && st.Phase == "turn" && ready():
			return true
		case st.MyTurn == "1" && st.Phase == "turn":
			p.click(`.lim-hand [data-i="0"]`)
			p.click(place)
		case st.Status == "over":
			return false
		}
	}
	return false
}
