package browser

import (
	"fmt"
	"strings"
	"testing"
	"time"
)

// What TestBrowserScreenshots checks beyond the window (issue 26, the
// defects its pictures showed): the words of the log and the panels, and
// a few things of the home and join pages.

// checkLog checks a game's log, read at its end: the page's own player is
// told "You …", never "Alice (you) …"; a card of the actor's own is
// "their card", not "<actor>’s card"; no brackets inside brackets.
func (p *page) checkLog(game string) {
	p.t.Helper()
	var lines []string
	p.eval("the log", `[...document.querySelectorAll('#log li')].map(li => li.textContent)`, &lines)
	if len(lines) == 0 {
		p.t.Errorf("%s: an empty log", game)
	}
	var bad []string
	for _, l := range lines {
		switch {
		case strings.HasPrefix(l, "Alice (you) ") || strings.Contains(l, ". Alice (you) ") || strings.Contains(l, "cost Alice (you)"):
			bad = append(bad, "not said to me: "+l)
		case nested(l):
			bad = append(bad, "brackets in brackets: "+l)
		case game == "dacapo" && strings.Contains(l, "ame 1 won"):
			bad = append(bad, "a single game called game 1: "+l)
		}
		if i := strings.Index(l, " ("); i > 0 && strings.HasPrefix(l, "Bot ") {
			actor := l[:strings.Index(l, ")")+1]
			if strings.Contains(l, actor+"’s card") && strings.Contains(l, "swapped") {
				bad = append(bad, "the actor's own card by name: "+l)
			}
		}
	}
	if len(bad) > 0 {
		p.t.Errorf("%s: log lines: %q", game, bad)
	}
}

// nested says whether s has a bracket opened inside another.
func nested(s string) bool {
	depth := 0
	for _, r := range s {
		switch r {
		case '(':
			depth++
			if depth > 1 {
				return true
			}
		case ')':
			depth--
		}
	}
	return false
}

// checkEndPanel checks a game's end panel: the header cells of its
// round-by-round table never break a name, Limits' results come before
// the accusation and its "This round" column has no blank, a single Da
// Capo! game is won, not "game 1", with no table of one game.
func (p *page) checkEndPanel(game string) {
	p.t.Helper()
	var got struct {
		Text   string   `json:"text"`
		Broken []string `json:"broken"`
		Order  bool     `json:"order"`
		Blank  int      `json:"blank"`
		ByGame bool     `json:"byGame"`
	}
	p.eval("the end panel", `(() => {
		const panel = document.querySelector('#overlay .card-panel');
		const results = panel.querySelector('table.results'), acc = panel.querySelector('.lim-acc');
		// A name may wrap between its words, never inside one: a line
		// begins only after a space.
		const broken = [...panel.querySelectorAll('.sheet-table thead th')].filter(th => {
			const w = document.createTreeWalker(th, NodeFilter.SHOW_TEXT);
			for (let n = w.nextNode(); n; n = w.nextNode()) {
				let top = null;
				for (let i = 0; i < n.length; i++) {
					const r = document.createRange();
					r.setStart(n, i); r.setEnd(n, i + 1);
					const b = r.getBoundingClientRect();
					if (/\s/.test(n.data[i]) || !b.height) continue;
					if (top !== null && b.top > top + 2 && !/\s/.test(n.data[i - 1])) return true;
					top = b.top;
				}
			}
			return false;
		}).map(th => th.textContent);
		const col = results ? [...results.querySelectorAll('tr')].map(tr => tr.children[4]).filter(Boolean).slice(1) : [];
		return {
			text: panel.textContent, broken,
			order: !acc || !results || !!(results.compareDocumentPosition(acc) & Node.DOCUMENT_POSITION_FOLLOWING),
			blank: col.filter(td => td.textContent.trim() === '').length,
			byGame: !!panel.querySelector('.sheet-inline .sheet-table'),
		};
	})()`, &got)
	if len(got.Broken) > 0 {
		p.t.Errorf("%s: the end panel's names break: %q", game, got.Broken)
	}
	if strings.HasPrefix(game, "limits") && (!got.Order || got.Blank > 0) {
		p.t.Errorf("limits: the end panel: results before the accusation %v, %d blank cells of This round", got.Order, got.Blank)
	}
	if strings.Contains(got.Text, "Alice (you) accuses") {
		p.t.Errorf("%s: the end panel does not say \"You accuse\": %q", game, got.Text)
	}
	if strings.HasPrefix(game, "dacapo") && (strings.Contains(got.Text, "game 1") || got.ByGame) {
		p.t.Errorf("dacapo: a single game's end panel says %q (a table of games: %v)", got.Text, got.ByGame)
	}
	var behind []string
	p.eval("the page's buttons behind the panel", `(() => {
		const ov = document.querySelector('#overlay');
		return [...document.querySelectorAll('[data-action=again]')].filter(b => !ov.contains(b) && getComputedStyle(b).visibility !== 'hidden').filter(b => {
			const r = b.getBoundingClientRect();
			return r.width && r.height && r.bottom > 0 && r.top < innerHeight;
		}).map(b => b.textContent.trim());
	})()`, &behind)
	if len(behind) > 0 {
		p.t.Errorf("%s: the page's own buttons show beside the end panel: %q", game, behind)
	}
}

// checkHome checks the home page: the leaderboards are linked once.
func (p *page) checkHome() {
	p.t.Helper()
	var n int
	p.eval("the links to the leaderboards", `[...document.querySelectorAll('a[href="/leaderboard"]')].filter(a => a.getClientRects().length).length`, &n)
	if n != 1 {
		p.t.Errorf("home: %d links to the leaderboards, want 1", n)
	}
}

// checkJoin checks an invite's page: centred on a wide screen, its time
// per move in the lobby's words.
func (p *page) checkJoin() {
	p.t.Helper()
	p.resize(1366, 768)
	defer p.desktop()
	var got struct {
		Turn  string  `json:"turn"`
		Left  float64 `json:"left"`
		Right float64 `json:"right"`
	}
	p.eval("the join page", `(() => {
		const r = document.querySelector('#join').getBoundingClientRect();
		return { turn: document.querySelector('#joininfo .jturn').textContent, left: r.left, right: document.documentElement.clientWidth - r.right };
	})()`, &got)
	if strings.Contains(got.Turn, "None") {
		p.t.Errorf("join: %q", got.Turn)
	}
	if d := got.Left - got.Right; d > 40 || d < -40 {
		p.t.Errorf("join: not centred: %s", fmt.Sprintf("%.0f px left, %.0f px right", got.Left, got.Right))
	}
}

// checkTokens checks Limits' own header late in a game: the limit cards
// taken are one chip with their count past three.
func (p *page) checkTokens() {
	p.t.Helper()
	var n int
	p.eval("my limit cards' chips", `document.querySelectorAll('.lim-me .lim-token').length`, &n)
	if n > 3 {
		p.t.Errorf("limits: %d chips for my limit cards, want one with their count", n)
	}
}

// checkDacapoPiles checks Da Capo!'s building piles: nothing (a Joker's
// value was) covers a top card's corners, and the cards under a pile's top show
// their whole corner (the card's index), not a sliver.
func (p *page) checkDacapoPiles(where string) {
	p.t.Helper()
	var bad []string
	p.eval("the building piles", `(() => {
		const bad = [], hit = (a, b) => a.left < b.right && b.left < a.right && a.top < b.bottom && b.top < a.bottom;
		for (const slot of document.querySelectorAll('.dc-bslot')) {
			const top = slot.querySelector('.dc-top');
			if (!top) continue;
			const c = top.getBoundingClientRect();
			const corners = [{ left: c.right - c.width * .3, right: c.right, top: c.bottom - c.height * .25, bottom: c.bottom },
				{ left: c.left, right: c.left + c.width * .3, top: c.top, bottom: c.top + c.height * .25 }];
			for (const e of [...slot.children].filter(e => !e.matches('.dc-top, .dc-under, .dc-slide, .dc-becomes, .dc-start'))) {
				if (corners.some(k => hit(e.getBoundingClientRect(), k))) bad.push('a badge on the card\'s corner: ' + e.textContent);
			}
			const under = [...slot.querySelectorAll('.dc-under')].map(u => u.getBoundingClientRect());
			const above = [...under, c];
			for (let i = 1; i < above.length; i++) {
				const strip = above[i].top - above[i - 1].top;
				if (strip < c.width * .18) bad.push('a card under the top shows ' + Math.round(strip) + ' px');
			}
		}
		return bad;
	})()`, &bad)
	if len(bad) > 0 {
		p.t.Errorf("dacapo %s: %q", where, bad)
	}
}

// TestBrowserFiveSeats: at a table of five, on a screen of 1100 px, every
// seat's chip shows in the table's bar, none hidden behind its tools.
func TestBrowserFiveSeats(t *testing.T) {
	t.Parallel() // waits on conditions only: see parallel in page_test.go
	p := newPage(t, 0, 2*time.Minute)
	p.fill(table{game: "dacapo", players: 5})
	p.create(`#game.dacapo`)
	p.resize(1100, 768)
	var hidden []string
	p.until("the seats in the bar", `(() => {
		const tools = [...document.querySelectorAll('.tablebar > :not(ul.seats):not(h1)')].map(e => e.getBoundingClientRect());
		const ul = document.querySelector('.tablebar ul.seats'), box = ul.getBoundingClientRect();
		const lis = [...ul.children];
		if (lis.length < 5) return ['only ' + lis.length + ' seats'];
		return lis.filter(li => {
			const r = li.getBoundingClientRect();
			const inBox = r.left >= box.left - 1 && r.right <= box.right + 1 && r.right <= innerWidth;
			const under = tools.some(b => r.left < b.right && b.left < r.right && r.top < b.bottom && b.top < r.bottom);
			return !inBox || under;
		}).map(li => li.textContent);
	})()`, &hidden, func() bool { return len(hidden) == 0 || !strings.HasPrefix(hidden[0], "only ") })
	if len(hidden) > 0 {
		t.Errorf("at 1100 px, seats out of sight: %q", hidden)
	}
	p.checkDacapoPiles("at five")
}

// checkLogTop checks the log's column on a wide screen, scrolled to its
// newest line: the line its top edge cuts lies in a fade, not half shown
// under the "Game log" heading.
func (p *page) checkLogTop(where string) {
	p.t.Helper()
	var got struct {
		Cut  float64 `json:"cut"`
		Fade float64 `json:"fade"`
	}
	p.eval("the log's top", `(() => {
		const log = document.querySelector('#log');
		log.scrollTop = log.scrollHeight;
		const top = log.getBoundingClientRect().top, cs = getComputedStyle(log);
		const fade = /gradient/.test(cs.maskImage || cs.webkitMaskImage || '') ? parseFloat(cs.paddingTop) : 0;
		// How much of the line the top edge cuts shows below it (a
		// line of an item of several lines).
		const lh = parseFloat(cs.lineHeight) || 1.2 * parseFloat(cs.fontSize);
		const li = [...log.children].map(li => li.getBoundingClientRect()).find(r => r.top < top - 0.5 && r.bottom > top + 0.5);
		const cut = li ? (lh - (top - li.top) % lh) % lh : 0;
		return { cut, fade };
	})()`, &got)
	if got.Cut > got.Fade {
		p.t.Errorf("%s: the log's top line shows %.0f px cut, with a fade of %.0f px", where, got.Cut, got.Fade)
	}
}

// checkTakes checks Papayoo's "takes the trick: +40" under a seat at a
// phone's size: it stays inside the seat's box, under the rightmost seat
// too (it made the page wider one run in three, when that seat took a
// trick). The badge is drawn as the screen draws it, for each seat.
func (p *page) checkTakes() {
	p.t.Helper()
	p.resize(390, 844)
	defer p.desktop()
	var out []string
	p.eval("the takes badges", `(() => {
		const out = [];
		for (const opp of document.querySelectorAll('.opp')) {
			const b = document.createElement('div');
			b.className = 'takes';
			b.textContent = 'takes the trick: +40';
			b.style.animation = 'none'; // measured as it ends, not as it pops
			opp.append(b);
			const r = b.getBoundingClientRect(), o = opp.getBoundingClientRect();
			if (r.left < o.left - 1 || r.right > o.right + 1 || r.right > document.documentElement.clientWidth) out.push(opp.dataset.player + ': ' + Math.round(r.left) + '–' + Math.round(r.right));
			b.remove();
		}
		return out;
	})()`, &out)
	if len(out) > 0 {
		p.t.Errorf("papayoo at 390: \"takes the trick\" out of its seat: %q", out)
	}
}
