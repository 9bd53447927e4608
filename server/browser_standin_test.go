package server_test

import (
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// A player who leaves mid-match is shown to the others as away with a
// stand-in playing for them, in French and in English: here to a
// spectator's page, watching a Cabo table whose human closed the tab.
// The bots are slow enough that no round ends (and no panel covers the
// language button) while the test looks.
func TestBrowserShowsStandin(t *testing.T) {
	cfg := testConfig()
	cfg.BotDelay = 300 * time.Millisecond
	cfg.AwayAfter = 100 * time.Millisecond
	p := newPageWith(t, cfg, 60*time.Second)
	ann := p.h.create("cabo", []string{"", "random"}, "Ann", "")
	c := p.h.dial(ann.Table, ann.Token)
	c.next("state")
	c.ws.CloseNow()
	<-c.done
	p.run("spectator", chromedp.Navigate(p.h.hs.URL+"/t/"+ann.Table),
		chromedp.WaitVisible(`ul.seats li`, chromedp.ByQuery))
	seatSays := func(what string) {
		t.Helper()
		var text string
		for i := 0; i < 100; i++ {
			p.eval("Ann's seat", `document.querySelector('ul.seats li').textContent`, &text)
			if strings.Contains(text, what) {
				return
			}
			p.wait(50 * time.Millisecond)
		}
		t.Fatalf("Ann's seat reads %q, want it to say %q", text, what)
	}
	for _, want := range []string{"absent, un robot joue à sa place", "away, a bot plays for them"} {
		if !p.click(`#lang`) {
			t.Fatal("no language button")
		}
		seatSays(want)
	}
}
