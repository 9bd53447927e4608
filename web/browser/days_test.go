package browser

import (
	"encoding/json"
	"fmt"
	"io"
	"mime/quotedprintable"
	"net/http"
	"net/http/httptest"
	"net/url"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"tapis/clocktest"
	"tapis/email"
	"tapis/push"
	"tapis/push/pushtest"
	"tapis/server/servertest"
)

// Issue 29's acceptance: Ada and Bob, each in their own browser, play a
// whole turn-based match of Cabo (the shortest the options allow: four
// cards, none peeked, and a Cabo called as soon as the rules let it),
// neither keeping the page open between turns. Each turn begins from a
// notification: the e-mail caught by the test's SMTP server, whose link
// the test opens in the player's browser, and the push caught by the
// test's push endpoint, decrypted there with the subscription's keys,
// which links to the same table. The server's clock is the test's: it
// moves two hours before each turn (a "your turn" mail comes at most
// once an hour per table), and once to half an hour before a deadline,
// which tells its player so ("deadline_soon") by both ways too. At the
// end, the one told of the game over presses "Play again": the table is
// still turn-based with its time per move, and the other is told when it
// is their turn in the new match.
func TestBrowserDays(t *testing.T) {
	t.Parallel() // waits on conditions only: see parallel in page_test.go
	clk := clocktest.New(time.Date(2026, 11, 2, 9, 0, 0, 0, time.UTC))
	mails := newPostbox(t)
	ps := newPushBox(t)
	cfg := servertest.Unlimited()
	cfg.Now, cfg.Notify.Now = clk.Now, clk.Now
	u, err := email.ParseURL("smtp://" + mails.addr)
	if err != nil {
		t.Fatal(err)
	}
	cfg.Mail = email.Config{SMTP: u, From: "Tapis <tapis@example.org>", Site: site, Now: clk.Now}
	cfg.Push = push.Config{Subscriber: "mailto:ops@tapis.test", Site: site, Client: ps.Client(), Now: clk.Now,
		Endpoint: func(u *url.URL) bool { return u.Scheme == "https" }}
	p := newPageWith(t, cfg, 12*time.Minute)
	p.home()
	p.signUp("Ada", "ada")
	q := p.another()
	q.home()
	q.signUp("Bob", "bob")
	people := map[string]*page{"ada": p, "bob": q}
	for _, who := range []string{"ada", "bob"} {
		people[who].subscribe(who, mails, ps)
	}

	// Ada makes the table, turn-based, a day a move; Bob takes the other
	// seat from its link; both leave.
	var made struct{ URL, Table string }
	p.run("Ada's table", chromedp.Evaluate(`fetch('/api/tables', {method: 'POST', headers: {'Content-Type': 'application/json'},
		body: JSON.stringify({game: 'cabo', players: 2, bots: ['', ''], name: 'Ada', turn_based: true,
			options: {hand_size: 4, initial_peek: 0}})}).then(r => r.json())`, &made, awaitPromise))
	if !strings.HasPrefix(made.URL, "/t/") {
		t.Fatalf("no table made: %+v", made)
	}
	link := site + made.URL
	p.leave()
	q.open(made.URL, `#join`)
	// Ada's leaving redraws Bob's page, maybe under his press: a press
	// released over the redrawn button counts (TestBrowserJoinPage), but
	// one whose place the redraw moved lands beside it, and Bob, seeing
	// nothing happen, presses again (a second join while the first is on
	// its way is not sent).
	var seated bool
	q.clickFor(`[data-action=join]`, "Bob seated", `!!document.querySelector('#game .player.mine')`, &seated, func() bool { return seated })

	// Bob plays what he may (the first round's peek) and leaves; then
	// each turn begins from its notifications.
	visits, told, shot := 0, false, false
	q.playTurn(made.Table)
	q.leave()
	for {
		n := ps.next(t)
		if n.kind == "game_over" {
			mails.expect(t, n.who, link, "is over")
			ps.check(t, n, link)
			break
		}
		if n.kind != "your_turn" {
			t.Fatalf("a %s push to %s, want your turn", n.kind, n.who)
		}
		ps.check(t, n, link)
		m := mails.expect(t, n.who, link, "your turn")
		if deadline, one := soleDeadline(t, p.h, made.Table); visits >= 3 && !told && one {
			// Half an hour before this turn's deadline, its player is
			// told so, once, by mail and by push.
			clk.Set(deadline.Add(-30 * time.Minute))
			d := ps.next(t)
			if d.kind != "deadline_soon" || d.who != n.who {
				t.Fatalf("at half an hour from %s's deadline: a %s push to %s", n.who, d.kind, d.who)
			}
			ps.check(t, d, link)
			mails.expect(t, n.who, link, "less than an hour")
			told = true
		} else {
			clk.Advance(2 * time.Hour)
		}
		pg := people[n.who]
		pg.follow(m)
		if !shot {
			pg.shootBoth("days-turn")
			shot = true
		}
		pg.playTurn(made.Table)
		pg.leave()
		visits++
		if visits > 200 {
			t.Fatal("the match has not ended after 200 turns")
		}
	}
	if !told {
		t.Fatal("the match ended before a deadline was near")
	}

	// The game over's mail brings its player back to the table over;
	// "Play again" starts the next match of the same table, still
	// turn-based, and the other is told it is their turn.
	over := ps.last
	pg := people[over.who]
	pg.open(made.URL, `#game`)
	var st caboPage
	pg.until("the match over", readCabo, &st, func() bool { return st.Status == "over" })
	pg.shootBoth("days-over")
	clk.Advance(2 * time.Hour)
	pg.pressWhen(`[data-action=again]`)
	pg.until("the next match", readCabo, &st, func() bool { return st.Status == "playing" })
	// The presser plays the new match's first turn if it is theirs
	// (with no card to peek, one player begins), and leaves.
	pg.playTurn(made.Table)
	pg.leave()
	n := ps.next(t)
	if n.kind != "your_turn" || n.who == over.who {
		t.Fatalf("after play again: a %s push to %s, want your turn to the other", n.kind, n.who)
	}
	ps.check(t, n, link)
	mails.expect(t, n.who, link, "your turn")
	in := tableInfo(t, p.h.URL, made.Table)
	if !in.TurnBased || in.TurnSeconds != 86400 || in.Match != 2 || in.Status != "playing" {
		t.Fatalf("the table after play again: %+v", in)
	}
	t.Logf("a turn-based match of %d turns, each from its notifications; screenshots in %s", visits, p.dir)
}

// site is the server's public URL in the links it sends.
const site = "https://tapis.test"

// subscribe sets who's notifications up, as on the Notifications page: an
// address verified by its mailed link (opened in the browser), this
// browser subscribed to push at the test's push service, and "your
// turn", "game over" and "deadline soon" on by both.
func (p *page) subscribe(who string, mails *postbox, ps *pushBox) {
	p.t.Helper()
	if st := p.fetchJS("the address", "POST", "/api/me/email", fmt.Sprintf(`{"address":"%s@example.org","lang":"en"}`, who)); st != http.StatusOK {
		p.t.Fatalf("POST /api/me/email: %d", st)
	}
	m := mails.next(p.t, who)
	verify := regexp.MustCompile(regexp.QuoteMeta(site) + `(/api/email/verify\?t=\S+)`).FindStringSubmatch(m)
	if verify == nil {
		p.t.Fatalf("no verification link in %q", m)
	}
	p.run("verify", chromedp.Navigate(p.h.URL+verify[1]))
	var ok bool
	p.until(who+"'s address verified", `(() => { const x = new XMLHttpRequest(); x.open('GET', '/api/me/email', false); x.send();
		return JSON.parse(x.responseText).verified === true; })()`, &ok, func() bool { return ok })
	sub, _ := json.Marshal(map[string]any{"endpoint": ps.endpoint(p.t, who), "keys": ps.keys(who), "lang": "en"})
	if st := p.fetchJS("push", "POST", "/api/me/push", string(sub)); st != http.StatusOK {
		p.t.Fatalf("POST /api/me/push: %d", st)
	}
	for _, kind := range []string{"your_turn", "game_over", "deadline_soon"} {
		for _, ch := range []string{"email", "push"} {
			if st := p.fetchJS(kind, "POST", "/api/me/notifications", fmt.Sprintf(`{"kind":%q,"channel":%q,"on":true}`, kind, ch)); st != http.StatusOK {
				p.t.Fatalf("%s by %s: %d", kind, ch, st)
			}
		}
	}
}

// leave closes the table: the page goes elsewhere, its socket closed.
func (p *page) leave() {
	p.t.Helper()
	p.run("leave", chromedp.Navigate("about:blank"))
}

// follow opens a mail's link to the table in the player's browser.
func (p *page) follow(mail string) {
	p.t.Helper()
	m := regexp.MustCompile(regexp.QuoteMeta(site) + `(/t/[A-Za-z0-9_-]+)`).FindStringSubmatch(mail)
	if m == nil {
		p.t.Fatalf("no table link in %q", mail)
	}
	p.open(m[1], `#game`)
}

// dueJS reads, from the server, whether it is the page's player's turn at
// table id (GET /api/me/turns), and the page's state.
func dueJS(id string) string {
	return readTable(fmt.Sprintf(`drawn: d.drawn || '',
    mine: q('.player.mine .slot:not(.empty)').map(e => +e.dataset.slot),
    sel: q('.player.mine .slot.selected').map(e => +e.dataset.slot),
    cabo: !!document.querySelector('[data-action=cabo]'),
    due: (() => { const x = new XMLHttpRequest(); x.open('GET', '/api/me/turns', false); x.send();
      return JSON.parse(x.responseText).turns.some(t => t.table === %q); })()`, id))
}

// playTurn plays at table id while it is the player's turn there, as
// briefly as the rules let: the peek of no card, Cabo called whenever it
// may be, a drawn card discarded (a high one kept, to end sooner).
func (p *page) playTurn(id string) {
	p.t.Helper()
	var st struct {
		caboPage
		Due bool `json:"due"`
	}
	js := dueJS(id)
	for moves := 0; ; moves++ {
		if moves > 50 {
			p.t.Fatalf("50 moves in one turn: %+v", st)
		}
		// The page's answer, or the server saying the turn has passed.
		p.until("my turn, or not mine any more", js, &st, func() bool {
			return st.Status == "over" || st.Overlay == "round" || st.MyTurn == "1" || !st.Due
		})
		switch {
		case st.Status == "over":
			return
		case st.Overlay == "round":
			p.click(`[data-action=close-overlay]`)
			continue
		case st.MyTurn != "1":
			return
		}
		switch st.Phase {
		case "peek":
			p.caboLook(st.caboPage)
		case "turn":
			if st.Cabo {
				p.click(`[data-action=cabo]`)
				p.pressWhen(`[data-action=confirm-cabo]`)
			} else {
				p.click(`[data-action=drawpile]`)
			}
		case "drawn":
			var d int
			fmt.Sscan(st.Drawn, &d)
			if d >= 8 && len(st.Mine) > 0 {
				p.click(mySlot(st.Mine[0]))
				p.click(`[data-action=replace]`)
			} else {
				p.click(`[data-action=discard]`)
			}
		default:
			p.t.Fatalf("a phase the test does not play: %+v", st)
		}
	}
}

// soleDeadline returns the deadline of table id's one due seat, as its
// clock in the store has it, and false when more than one seat is due (a
// peek at a round's start) or none.
func soleDeadline(t *testing.T, h *servertest.Server, id string) (time.Time, bool) {
	t.Helper()
	c, ok, err := h.Store.Clock(t.Context(), id)
	if err != nil || !ok {
		t.Fatalf("the table's clock: %v %v", ok, err)
	}
	due := 0
	for _, d := range c.Due {
		if !d.IsZero() {
			due++
		}
	}
	return c.Deadline, due == 1 && !c.Deadline.IsZero()
}

// daysTable is what the test reads of a table through the API.
type daysTable struct {
	Status      string `json:"status"`
	Match       int    `json:"match"`
	TurnBased   bool   `json:"turn_based"`
	TurnSeconds int    `json:"turn_seconds"`
}

func tableInfo(t *testing.T, base, id string) daysTable {
	t.Helper()
	resp, err := http.Get(base + "/api/tables/" + id)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var in daysTable
	if err := json.NewDecoder(resp.Body).Decode(&in); err != nil {
		t.Fatal(err)
	}
	return in
}

// postbox is the test's SMTP server, sorting the mails by recipient.
type postbox struct {
	*catcher
	mu  sync.Mutex
	got map[string][]string // by the address's local part
}

func newPostbox(t *testing.T) *postbox {
	return &postbox{catcher: mailCatcher(t), got: map[string][]string{}}
}

// next returns who's next mail (quoted-printable decoded),
// keeping the others' for them.
func (b *postbox) next(t *testing.T, who string) string {
	t.Helper()
	to := regexp.MustCompile(`(?m)^To: .*?([a-z]+)@example\.org`)
	for {
		b.mu.Lock()
		if l := b.got[who]; len(l) > 0 {
			b.got[who] = l[1:]
			b.mu.Unlock()
			return l[0]
		}
		b.mu.Unlock()
		m := b.catcher.next(t)
		if dec, err := io.ReadAll(quotedprintable.NewReader(strings.NewReader(m))); err == nil {
			m = string(dec)
		}
		r := to.FindStringSubmatch(m)
		if r == nil {
			t.Fatalf("a mail to nobody known: %q", m)
		}
		b.mu.Lock()
		b.got[r[1]] = append(b.got[r[1]], m)
		b.mu.Unlock()
	}
}

// expect returns who's next mail, failing unless it links to link and
// says what (in its subject or text, any case).
func (b *postbox) expect(t *testing.T, who, link, what string) string {
	t.Helper()
	m := b.next(t, who)
	if !strings.Contains(m, link) || !strings.Contains(strings.ToLower(m), strings.ToLower(what)) {
		t.Fatalf("%s's mail does not say %q with %s: %q", who, what, link, m)
	}
	return m
}

// pushBox is a push service of the test's, over TLS: an endpoint per
// player, decrypting each push with that subscription's keys.
type pushBox struct {
	*httptest.Server
	mu       sync.Mutex
	browsers map[string]pushtest.Browser
	pushes   chan note
	last     note
}

// note is one push, decrypted: to whom, and its message.
type note struct {
	who, kind, url, title string
}

func newPushBox(t *testing.T) *pushBox {
	b := &pushBox{browsers: map[string]pushtest.Browser{}, pushes: make(chan note, 64)}
	b.Server = httptest.NewTLSServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		who := strings.TrimPrefix(r.URL.Path, "/")
		b.mu.Lock()
		br, ok := b.browsers[who]
		b.mu.Unlock()
		body, _ := io.ReadAll(r.Body)
		var msg map[string]string
		plain, err := br.Decrypt(body)
		if err == nil {
			err = json.Unmarshal(plain, &msg)
		}
		if !ok || err != nil {
			t.Errorf("a push to %s that does not open: %v", who, err)
			w.WriteHeader(http.StatusBadRequest)
			return
		}
		w.WriteHeader(http.StatusCreated)
		b.pushes <- note{who: who, kind: msg["kind"], url: msg["url"], title: msg["title"]}
	}))
	t.Cleanup(b.Close)
	return b
}

// endpoint makes who's subscription.
func (b *pushBox) endpoint(t testing.TB, who string) string {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.browsers[who] = pushtest.NewBrowser(t)
	return b.URL + "/" + who
}

// keys are who's subscription's keys.
func (b *pushBox) keys(who string) map[string]string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.browsers[who].Keys()
}

// next returns the next push.
func (b *pushBox) next(t *testing.T) note {
	t.Helper()
	select {
	case n := <-b.pushes:
		b.last = n
		return n
	case <-time.After(untilLimit):
		t.Fatal("no push came")
		return note{}
	}
}

// check fails unless push n links to link.
func (b *pushBox) check(t *testing.T, n note, link string) {
	t.Helper()
	if n.url != link || n.title == "" {
		t.Fatalf("the push %+v, want a title and the link %s", n, link)
	}
}
