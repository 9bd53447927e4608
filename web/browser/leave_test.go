package browser

import (
	"context"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// tableID waits for a table page and returns its table's id.
func (p *page) tableID() string {
	p.t.Helper()
	var path string
	p.until("a table page", `location.pathname`, &path, func() bool { return strings.HasPrefix(path, "/t/") })
	return strings.TrimPrefix(path, "/t/")
}

// confirmGone presses the table bar's button act, reads its dialog's
// words, photographs it, confirms, and waits for the page that says the
// table is left or closed (why), photographed too. It returns the words.
func (p *page) confirmGone(act, why, shots string) string {
	p.t.Helper()
	if !p.click(`[data-action=` + act + `]`) {
		var bar string
		p.eval("the table bar", `document.querySelector('#main')?.outerHTML.slice(0, 3000) || 'none'`, &bar)
		p.t.Fatalf("no %s button in %s", act, bar)
	}
	p.run("the confirm dialog", chromedp.WaitVisible(`#leave`, chromedp.ByQuery))
	var words string
	p.eval("its words", text(`#leave-text`), &words)
	p.shootSizes(shots+"-confirm", 200*time.Millisecond)
	p.click(`[data-action=confirm-leave]`)
	p.run("the page once gone", chromedp.WaitVisible(`#gone[data-why=`+why+`]`, chromedp.ByQuery))
	var guided bool
	p.eval("the first-turn guide", `!!document.querySelector('#guide')`, &guided)
	if guided {
		p.t.Errorf("the first-turn guide stays on the page of a table %s", why)
	}
	p.shootSizes(shots+"-gone", 200*time.Millisecond)
	return words
}

// Issue 26: a signed-in player leaves a running rated table after a
// dialog that says it counts as a loss, and it leaves their tables; a
// host closes a waiting table, and a guest at it is told.
func TestBrowserLeaveAndClose(t *testing.T) {
	t.Parallel() // waits on conditions only: see parallel in page_test.go
	p := newPage(t, 20*time.Millisecond, 3*time.Minute)
	h := p.h
	_, adaID := h.SignUp("Ada", "ada")
	p.run("home", chromedp.Navigate(h.URL+"/"), chromedp.WaitVisible(`#create`, chromedp.ByQuery))
	if st := p.fetchJS("sign in", "POST", "/api/account/signin", `{"username":"ada","password":"correct-horse-ada"}`); st != http.StatusOK {
		t.Fatalf("signing in: %d", st)
	}

	// A rated match, left while it runs.
	p.fill(table{game: "cabo", name: "Ada", players: 2, bots: []string{"random"}})
	var enabled bool
	p.until("the Rated box enabled", `!document.querySelector('#ratedfield input[name=rated]').disabled`, &enabled, func() bool { return enabled })
	p.click(`#ratedfield input[name=rated]`)
	p.create(`#game`)
	id := p.tableID()
	if words := p.confirmGone("leave", "left", "leave-rated"); !strings.Contains(words, "loss") || !strings.Contains(words, "rank last") {
		t.Fatalf("leaving a rated match asks %q: it does not say it counts as a loss", words)
	}
	mine, err := h.Store.PlayerTables(context.Background(), adaID)
	if err != nil || len(mine) != 0 {
		t.Fatalf("Ada's tables after she left %s: %+v %v", id, mine, err)
	}

	// A waiting table, closed by its host with a guest at it.
	p.fill(table{game: "cabo", name: "Ada", players: 4, bots: []string{"", "", "random"}})
	p.create(`#invite`)
	id = p.tableID()
	guest := h.Join(id, "Gus")
	c := h.Dial(id, guest.Token)
	c.Next("welcome")
	// The page has drawn Gus there before the host presses anything: a
	// redraw between a press and its release would lose the click.
	var there bool
	p.until("Gus at the table", `[...document.querySelectorAll('.seats li:not(.away)')].some(l => l.textContent.includes('Gus'))`, &there, func() bool { return there })
	if words := p.confirmGone("close-table", "closed", "leave-close"); !strings.Contains(words, "Close this table") {
		t.Fatalf("closing a table asks %q", words)
	}
	c.Next("closed")
	var said string
	p.eval("the host's page", text(`#gone p`), &said)
	if said != "You closed this table." {
		t.Fatalf("the host's page says %q", said)
	}
}
