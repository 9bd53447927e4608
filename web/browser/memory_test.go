package browser

import (
	"fmt"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// Memory is a rule: at a Cabo table without the memory aid the log says
// that you looked at two cards and drew one, never which, also after a
// reload (the server's history leaves the values out); with the aid, the
// table says so with a badge and the log gives the values, after a reload
// too.
func TestBrowserMemoryAid(t *testing.T) {
	t.Parallel() // waits on conditions only: see parallel in page_test.go
	for _, aid := range []bool{false, true} {
		t.Run(fmt.Sprint("aid=", aid), func(t *testing.T) {
			p := newPage(t, 20*time.Millisecond, 3*time.Minute)
			p.fill(table{game: "cabo", players: 2, bots: []string{"random"}})
			if aid {
				p.run("memory aid", chromedp.Click(`input[name=memory_aid]`, chromedp.ByQuery))
				p.shootSizes("memory-home", 200*time.Millisecond)
			}
			p.create(`#game`)
			mine := func(slot int) string { return fmt.Sprintf(`.player.mine .slot[data-slot="%d"]`, slot) }
			var st caboPage
			p.untilTurn(readCabo, &st, &st.tableState)
			if st.Phase != "peek" {
				t.Fatalf("the first turn is %q, want the initial peek", st.Phase)
			}
			for _, s := range st.Mine[:2] {
				p.click(mine(s))
			}
			p.until("two cards chosen", readCabo, &st, func() bool { return len(st.Sel) == 2 })
			p.click(`[data-action=look]`)
			// The drawn card, once the peek is done and seat 0 starts.
			p.untilTurn(readCabo, &st, &st.tableState)
			if st.Phase != "turn" {
				t.Fatalf("after the peek: phase %q", st.Phase)
			}
			p.click(`[data-action=drawpile]`)
			p.until("the drawn card", readCabo, &st, func() bool { return st.Phase == "drawn" && st.Drawn != "" })
			drawn := st.Drawn
			p.click(`[data-action=discard]`)
			p.until("the discard played", readCabo, &st, func() bool { return st.Phase != "drawn" })
			const logJS = `[...document.querySelectorAll('#log li')].map(l => l.textContent)`
			check := func(when string) {
				var lines []string
				p.until("the log's look and draw lines "+when, logJS, &lines, func() bool {
					return strings.Contains(strings.Join(lines, "\n"), "You looked at your cards 1, 2") &&
						(strings.Contains(strings.Join(lines, "\n"), "(you) drew a card.") || strings.Contains(strings.Join(lines, "\n"), "You drew a"))
				})
				all := strings.Join(lines, "\n")
				peekVals := regexp.MustCompile(`You looked at your cards 1, 2: \d+, \d+\.`)
				// "an 8", "an 11": the article as the number is said.
				article := "a "
				if drawn == "8" || drawn == "11" || drawn == "18" {
					article = "an "
				}
				drewVal := "You drew " + article + drawn + "."
				if aid != peekVals.MatchString(all) || aid != strings.Contains(all, drewVal) {
					t.Fatalf("memory aid %v %s: the log reads\n%s", aid, when, all)
				}
				var badge bool
				p.eval("the badge", `!!document.querySelector('#memaid')`, &badge)
				if badge != aid {
					t.Fatalf("memory aid %v: badge shown %v", aid, badge)
				}
			}
			check("as played")
			if aid {
				p.shootSizes("memory-table", 200*time.Millisecond)
			}
			p.run("reload", chromedp.Reload(), chromedp.WaitVisible(`#game`, chromedp.ByQuery))
			check("after a reload")
		})
	}
}
