package server_test

import (
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// A player who leaves mid-match is shown to the others as away with a
// stand-in playing for them, on the seat and in the game log, in French
// and in English: here to a spectator's page, watching a Cabo table whose
// human closed the tab.
// The bots are slow enough that no round ends (and no panel covers the
// language button) while the test looks.
func TestBrowserShowsStandin(t *testing.T) {
	cfg := testConfig()
	cfg.BotDelay = 300 * time.Millisecond
	// Long enough for the page to be there when the stand-in comes.
	cfg.AwayAfter = 1500 * time.Millisecond
	p := newPageWith(t, cfg, 60*time.Second)
	ann := p.h.create("cabo", []string{"", "random"}, "Ann", "")
	c := p.h.dial(ann.Table, ann.Token)
	c.next("state")
	c.ws.CloseNow()
	<-c.done
	p.run("spectator", chromedp.Navigate(p.h.hs.URL+"/t/"+ann.Table),
		chromedp.WaitVisible(`ul.seats li`, chromedp.ByQuery))
	says := func(where, sel, what string) {
		t.Helper()
		var text string
		for i := 0; i < 100; i++ {
			p.eval(where, `document.querySelector('`+sel+`').textContent`, &text)
			if strings.Contains(text, what) {
				return
			}
			p.wait(50 * time.Millisecond)
		}
		t.Fatalf("%s reads %q, want it to say %q", where, text, what)
	}
	for _, want := range []struct{ seat, log string }{
		{"absent, un robot joue à sa place", "Ann n’est plus là : un robot joue à sa place jusqu’à son retour."},
		{"away, a bot plays for them", "Ann is away: a bot plays for them until they are back."},
	} {
		if !p.click(`#lang`) {
			t.Fatal("no language button")
		}
		says("Ann's seat", "ul.seats li", want.seat)
		says("the game log", "#log", want.log)
	}
}
