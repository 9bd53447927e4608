package browser

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// What a player must see of each game without scrolling, on their turn:
// their own cards, the piles in play and the buttons that act. A selector
// that finds nothing fails the test, so that a renamed class cannot make
// the check pass by checking nothing.
var mustSee = map[string][]string{
	"cabo":    {`.player.mine .slot`, `.center .slot`, `#actions button`},
	"papayoo": {`#hand > *`, `.trickzone`, `#pass`},
	"limits":  {`.lim-hand > *`, `.lim-center > *`, `#actions button`},
	"dacapo":  {`#hand > *`, `.dc-mine .dc-stackwrap, .dc-mine .dc-hpile`, `.dc-bpiles > *`},
}

// The sizes a table must fit: two phones, a tablet, a laptop and a
// desktop. The test checks each and photographs it into its folder, to be
// looked at.
var layoutSizes = [][2]int{{360, 740}, {390, 844}, {768, 1024}, {1366, 768}, {1920, 1080}}

// fitScript lists, for the selectors sels, every element found that is not
// wholly inside the window at scroll 0, a selector that finds nothing, a
// page wider than the window, and table tools that wrap onto two lines.
func fitScript(sels []string) string {
	q := make([]string, len(sels))
	for i, s := range sels {
		q[i] = fmt.Sprintf("%q", s)
	}
	return `(() => {
  window.scrollTo(0, 0);
  const W = window.innerWidth, H = window.innerHeight, out = [];
  for (const sel of [` + strings.Join(q, ",") + `]) {
    const els = [...document.querySelectorAll(sel)];
    if (!els.length) out.push(sel + ': none');
    for (const e of els) {
      const r = e.getBoundingClientRect();
      if (r.width === 0 || r.top < 0 || r.left < 0 || r.bottom > H + 0.5 || r.right > W + 0.5)
        out.push(sel + ' at ' + [r.left, r.top, r.right, r.bottom].map(Math.round).join(','));
    }
  }
  if (document.documentElement.scrollWidth > W) out.push('page ' + document.documentElement.scrollWidth + ' px wide');
  for (const sel of ['.tabletools button', '#top button']) {
    const bs = [...document.querySelectorAll(sel)];
    if (!bs.length) out.push(sel + ': none');
    const rs = bs.map(b => b.getBoundingClientRect());
    if (rs.length && Math.max(...rs.map(r => r.top)) >= Math.min(...rs.map(r => r.bottom))) out.push(sel + ' wrap onto two lines');
    for (const b of bs) { const r = b.getBoundingClientRect(); if (r.right > W + 0.5) out.push(sel + ' past the edge'); }
  }
  return out;
})()`
}

// TestBrowserLayout plays each game with three bots and checks, on the
// player's first turn, at each of layoutSizes (390×844 and 1366×768
// among them), that their hand, the piles and the actions are all in the
// window without scrolling, and that the table's tools stay on one line.
func TestBrowserLayout(t *testing.T) {
	t.Parallel() // waits on conditions only: see parallel in page_test.go
	p := newPage(t, 300*time.Millisecond, 6*time.Minute)
	// The longest name the home page takes, which no seat has room for
	// on a phone: it is cut, and its title keeps it whole.
	const long = "Maximilienne-Alexandrina"
	for _, g := range []string{"cabo", "papayoo", "limits", "dacapo"} {
		p.fill(table{game: g, players: 4, name: long})
		p.create(`#game`)
		var st tableState
		p.untilTurn(readTable(""), &st, &st)
		if st.MyTurn != "1" {
			t.Fatalf("%s: the game ended before my first turn", g)
		}
		for _, sz := range layoutSizes {
			p.resize(sz[0], sz[1])
			var png []byte
			p.run("screenshot", chromedp.CaptureScreenshot(&png))
			if err := os.WriteFile(filepath.Join(p.dir, fmt.Sprintf("layout-%s-%dx%d.png", g, sz[0], sz[1])), png, 0o644); err != nil {
				t.Fatal(err)
			}
			var bad []string
			p.eval("what lies outside the window", fitScript(mustSee[g]), &bad)
			if len(bad) > 0 {
				t.Errorf("%s at %dx%d: outside the window on my turn: %q", g, sz[0], sz[1], bad)
			}
			if sz[0] == sizes[0][0] {
				var seat struct {
					Cut   bool   `json:"cut"`
					Title string `json:"title"`
				}
				p.eval("my seat's name", `(() => { const e = document.querySelector('ul.seats li.me .nm');
  return e ? {cut: e.scrollWidth > e.clientWidth, title: e.title} : {}; })()`, &seat)
				if !seat.Cut || !strings.HasPrefix(seat.Title, long) {
					t.Errorf("%s at %dx%d: my long name is cut: %v, its title is %q", g, sz[0], sz[1], seat.Cut, seat.Title)
				}
			}
		}
		p.desktop()
	}
	t.Logf("screenshots in %s", p.dir)
}
