package browser

import (
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"tapis/server/servertest"
)

// A player who leaves mid-match is shown to the others as away with a
// stand-in playing for them, on the seat and in the game log, in French
// and in English: here to a spectator's page, watching a Cabo table whose
// human closed the tab.
func TestBrowserShowsStandin(t *testing.T) {
	cfg := servertest.Unlimited()
	cfg.BotDelay = 300 * time.Millisecond
	cfg.AwayAfter = 500 * time.Millisecond
	p := newPageWith(t, cfg, 4*time.Minute)
	ann := p.h.Create("cabo", []string{"", "random"}, "Ann", "")
	c := p.h.Dial(ann.Table, ann.Token)
	c.Next("state")
	// The page notes a stand-in's arrival from the change of the table's
	// seats it sees, so it must be watching, Ann there, before she
	// leaves: on a loaded machine a page opened after she left may load
	// after the stand-in came, and never say so in its log.
	p.run("spectator", chromedp.Navigate(p.h.URL+"/t/"+ann.Table))
	var watching bool
	p.until("the spectator's page showing Ann at the table", `(() => {
		const ann = document.querySelector('ul.seats li');
		return !!document.querySelector('#game') && !!ann && !ann.classList.contains('away');
	})()`, &watching, func() bool { return watching })
	c.Conn.CloseNow()
	<-c.Done()
	says := func(where, sel, what string) {
		t.Helper()
		var text string
		p.until(where+" to say "+what, `document.querySelector('`+sel+`').textContent`, &text,
			func() bool { return strings.Contains(text, what) })
	}
	for _, want := range []struct{ lang, seat, log string }{
		{"fr", "absent, un robot joue à sa place", "Ann n’est plus là : un robot joue à sa place jusqu’à son retour."},
		{"en", "away, a bot plays for them", "Ann is away: a bot plays for them until they are back."},
	} {
		p.switchLang(want.lang)
		says("Ann's seat", "ul.seats li", want.seat)
		says("the game log", "#log", want.log)
	}
}

// switchLang switches the page to the language lang with its button, as a
// person would: a round's end may cover the button with its panel, which
// is closed first.
func (p *page) switchLang(lang string) {
	p.t.Helper()
	var now string
	p.until("the page in "+lang, `document.documentElement.lang`, &now, func() bool {
		if now == lang {
			return true
		}
		p.click(`[data-action=close-overlay]`)
		if !p.click(`#lang`) {
			p.t.Fatal("no language button")
		}
		return false
	})
}
