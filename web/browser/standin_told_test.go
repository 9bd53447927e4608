package browser

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"tapis/server/servertest"
)

// Finding 15: a returning player was not told that a stand-in played for
// them: their log said "(you) drew a card…" for the stand-in's moves,
// with no "away" or "back" line. Now the log of everyone at the table
// says each of the stand-in's moves is its ("Bot for Ann: …"), and the
// player who comes back reads what was played for them ("While you were
// away, 3 moves were played for you: …"), in English and in French.
// Screenshots of both logs, at a phone's and a desktop's size, go to
// TAPIS_SCREENSHOT_DIR (standin-*.png).
func TestBrowserLogTellsStandinMoves(t *testing.T) {
	cfg := servertest.Unlimited()
	cfg.BotDelay = 300 * time.Millisecond
	cfg.AwayAfter = 300 * time.Millisecond
	p := newPageWith(t, cfg, 4*time.Minute)
	says := func(what, js string, ok func(string) bool) string {
		t.Helper()
		var text string
		p.until(what, js, &text, func() bool { return ok(text) })
		return text
	}
	logText := `(() => { const l = document.querySelector('#log'); return l ? l.textContent : ''; })()`
	shots := func(name string) {
		t.Helper()
		for _, size := range []struct{ w, h int64 }{{390, 844}, {1366, 768}} {
			p.run("resize", chromedp.EmulateViewport(size.w, size.h),
				chromedp.Evaluate(`document.querySelector('#log')?.scrollIntoView({block: 'center'})`, nil))
			p.shoot(fmt.Sprintf("standin-%s-%dx%d.png", name, size.w, size.h), chromedp.Sleep(300*time.Millisecond))
		}
	}

	// Everyone's log: a spectator's page watches Ann, a client of the
	// test, leave; her stand-in's moves read as its.
	ann := p.h.Create("cabo", []string{"", "random"}, "Ann", "")
	c := p.h.Dial(ann.Table, ann.Token)
	c.Next("state")
	p.run("spectator", chromedp.Navigate(p.h.URL+"/t/"+ann.Table))
	says("the spectator's page", `document.querySelector('#game') ? 'yes' : ''`, func(s string) bool { return s == "yes" })
	c.Conn.CloseNow()
	<-c.Done()
	says("a move of Ann's stand-in in the log", logText, func(s string) bool { return strings.Contains(s, "Bot for Ann: ") })
	p.switchLang("fr")
	says("a move of Ann's stand-in in the log, in French", logText, func(s string) bool { return strings.Contains(s, "Robot pour Ann : ") })
	shots("spectator-fr")
	p.switchLang("en")

	// The returning player's log: Alice leaves her table for the home
	// page, her stand-in plays, and she comes back.
	p.run("desktop", chromedp.EmulateViewport(1366, 768))
	p.createTable(table{game: "cabo", players: 2, bots: []string{"random"}}, `#game`)
	var id string
	p.eval("the table's id", `location.pathname.split('/').pop()`, &id)
	spec := p.h.Dial(id, "")
	spec.Within(servertest.Patience, "Alice at her seat", func(m servertest.TableMsg) bool { s, ok := m.SeatAt(0); return ok && s.Connected })
	p.run("leave", chromedp.Navigate(p.h.URL+"/"), chromedp.WaitVisible(`#create`, chromedp.ByQuery))
	played := 0
	spec.Within(servertest.Patience, "three moves of Alice's stand-in", func(m servertest.TableMsg) bool {
		if m.Type == "state" && m.By == 0 && m.Standin {
			played++
		}
		return played >= 3
	})
	p.run("come back", chromedp.Navigate(p.h.URL+"/t/"+id))
	got := says("what was played for Alice", logText, func(s string) bool { return strings.Contains(s, "While you were away, ") })
	m := regexp.MustCompile(`While you were away, (\d+) moves were played for you: \S`).FindStringSubmatch(got)
	if m == nil {
		t.Fatalf("the log says %q", got)
	}
	if n, _ := strconv.Atoi(m[1]); n < played {
		t.Fatalf("the log tells of %d moves played for Alice; the spectator saw %d", n, played)
	}
	shots("back-en")
	p.switchLang("fr")
	says("what was played for Alice, in French", logText, func(s string) bool {
		return strings.Contains(s, "Pendant votre absence, "+m[1]+" coups ont été joués pour vous : ")
	})
	shots("back-fr")
}
