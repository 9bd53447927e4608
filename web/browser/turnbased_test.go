package browser

import (
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// A turn-based table chosen on the home page (issue 29): the pace's
// choice shows the times per move of a table played over days, the one
// chosen is the table's, and the table says it is turn-based; at 360 px
// nothing sticks out.
func TestBrowserTurnBasedCreate(t *testing.T) {
	p := newPage(t, 100*time.Millisecond, 3*time.Minute)
	p.fill(table{game: "cabo", players: 2, bots: []string{"random"}})
	p.run("over days", chromedp.Click(`input[name=turnbased][value=days]`, chromedp.ByQuery),
		chromedp.WaitVisible(`select[name=day_turn]`, chromedp.ByQuery), setValue(`select[name=day_turn]`, "172800"))
	var realTime bool
	p.eval("the real-time select", `!!document.querySelector('select[name=turn_seconds]')`, &realTime)
	if realTime {
		t.Fatal("the real-time time per move is offered with a turn-based pace")
	}
	p.narrow(100 * time.Millisecond)
	p.shoot("turnbased-form-360.png")
	p.desktop()
	p.shoot("turnbased-form.png")
	p.create(`#game`)
	var note string
	p.until("the table's time per move", `document.querySelector('.turntime')?.textContent || ''`, &note,
		func() bool { return note != "" })
	if note != "Time per move: 2 d, turn-based" {
		t.Fatalf("the table says %q about its time per move", note)
	}
	p.narrow(100 * time.Millisecond)
	p.shoot("turnbased-table-360.png")
	p.desktop()
}
