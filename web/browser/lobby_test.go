package browser

import (
	"fmt"
	"strings"
	"testing"
	"time"

	cdpruntime "github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/chromedp"
)

// Issue 16 in the browser: players, the lobby, quick match and accounts,
// each person in a browser context of their own (their own cookies, so
// their own session), as on two computers.

// another opens a second person's browser on the same server, as on
// another computer: its own chromium, so its own cookies and storage. (A
// new browser context in the same chromium cannot open a tab in headless
// chromium: "no browser is open".) It runs until p's time is up.
func (p *page) another() *page {
	p.t.Helper()
	timeout := 3 * time.Minute
	if dl, ok := p.ctx.Deadline(); ok {
		timeout = time.Until(dl)
	}
	ctx := browser(p.t, timeout)
	q := &page{t: p.t, h: p.h, ctx: ctx, dir: p.dir}
	q.press = func(sel string) { q.t.Helper(); q.click(sel) }
	chromedp.ListenTarget(ctx, func(ev any) {
		if e, ok := ev.(*cdpruntime.EventExceptionThrown); ok {
			q.mu.Lock()
			q.errs = append(q.errs, e.ExceptionDetails.URL+" "+e.ExceptionDetails.Error())
			q.mu.Unlock()
		}
	})
	p.t.Cleanup(func() {
		q.mu.Lock()
		defer q.mu.Unlock()
		if len(q.errs) > 0 {
			p.t.Errorf("script errors on the second page: %q", q.errs)
		}
	})
	q.run("the second browser", chromedp.EmulateViewport(desktopW, desktopH))
	return q
}

// home opens the home page and waits for its lobby.
func (p *page) home() {
	p.t.Helper()
	p.run("home page", chromedp.Navigate(p.h.URL+"/"), chromedp.WaitVisible(`#lobby`, chromedp.ByQuery))
}

// text reads the text of the element sel names ("" when there is none).
func text(sel string) string {
	return fmt.Sprintf(`document.querySelector(%q)?.textContent || ''`, sel)
}

// setName types the player's name on the home page, as a person does
// before anything else, and waits for the header to show the guest made.
func (p *page) setName(name string) {
	p.t.Helper()
	p.run("name", setValue(`#who-name`, name))
	var shown string
	p.until("the header to name "+name, text(`#me .nm`), &shown, func() bool { return shown == name })
}

// atTable waits for the page to show a table whose game is playing and
// returns its id and the page's seat.
func (p *page) atTable() (id, seat string) {
	p.t.Helper()
	var at struct{ Path, Status, Seat string }
	p.until("a table under way", `({path: location.pathname, status: document.querySelector('#table')?.dataset.status || '',
		seat: document.querySelector('#table')?.dataset.seat || ''})`, &at, func() bool {
		return strings.HasPrefix(at.Path, "/t/") && at.Status == "playing" && at.Seat != "" && at.Seat != "-1"
	})
	return strings.TrimPrefix(at.Path, "/t/"), at.Seat
}

// quickMatch chooses a quick match of Cabo for 2 with bots after wait (the
// select's value) and presses the button; the page says it is looking.
func (p *page) quickMatch(wait string) {
	p.t.Helper()
	p.run("quick match", setValue(`select[name=qm_game]`, "cabo"), setValue(`select[name=qm_players]`, "2"),
		setValue(`select[name=qm_wait]`, wait))
	p.click(`[data-action=quick]`)
	// Someone waiting already makes a match at once: the page may go
	// straight to the table.
	var looking string
	p.until("looking for players or a table", `location.pathname.startsWith('/t/') ? 'table' : `+text(`#queued`), &looking, func() bool {
		return looking == "table" || strings.Contains(looking, "Looking for players")
	})
}

// The acceptance test: two people press quick match for Cabo for
// two and land at the same table, at different seats, and the game
// starts; a third, alone in the queue with a short wait, gets a bot and
// plays. A reload while waiting shows the wait again; Cancel leaves.
func TestBrowserQuickMatch(t *testing.T) {
	t.Parallel() // waits on conditions only: see parallel in page_test.go
	p := newPage(t, 20*time.Millisecond, 4*time.Minute)
	p.dir = screenshotDir(t.TempDir())
	p.home()
	p.setName("Ada")
	// A wait cancelled is left at once: the form is back; pressed again,
	// the player waits again.
	p.quickMatch("-1")
	p.click(`[data-action=quick-cancel]`)
	var back bool
	p.until("the form back after Cancel", `!!document.querySelector('[data-action=quick]') && !document.querySelector('#queued')`, &back, func() bool { return back })
	p.quickMatch("-1")
	var elapsed string
	p.until("the time waited to count", text(`#elapsed`), &elapsed, func() bool { return elapsed != "" && elapsed != "0:00" })
	p.run("reload", chromedp.Reload(), chromedp.WaitVisible(`#lobby`, chromedp.ByQuery))
	var queued string
	p.until("the wait shown again after a reload", text(`#queued`), &queued, func() bool { return strings.Contains(queued, "Looking for players") })
	p.shootSizes("quick-wait", 100*time.Millisecond)
	p.click(`#lang`)
	p.until("the wait in French", text(`#queued`), &queued, func() bool { return strings.Contains(queued, "Recherche de joueurs") })
	p.click(`#lang`)

	q := p.another()
	q.home()
	q.setName("Bea")
	q.quickMatch("-1")

	idP, seatP := p.atTable()
	idQ, seatQ := q.atTable()
	if idP != idQ || seatP == seatQ {
		t.Fatalf("the two quick matches sit at %s seat %s and %s seat %s, want one table, two seats", idP, seatP, idQ, seatQ)
	}
	in := p.h.Info(idP)
	for i, s := range in.Seats {
		if s.Bot != "" || s.Free {
			t.Fatalf("seat %d of the matched table is %+v, want a person", i, s)
		}
	}

	r := p.another()
	r.home()
	r.setName("Cid")
	r.quickMatch("5")
	idR, _ := r.atTable()
	if idR == idP {
		t.Fatalf("the third player joined the full table %s", idR)
	}
	bots := 0
	for _, s := range p.h.Info(idR).Seats {
		if s.Bot != "" {
			bots++
		}
	}
	if bots != 1 {
		t.Fatalf("the lone player's table has %d bots, want 1: %+v", bots, p.h.Info(idR).Seats)
	}
}

// A guest claims a username (refused first: too short a password, a
// username taken), signs in from another browser, finds the open table
// under "Your tables" and, opening it, sits at their seat with no token.
func TestBrowserAccountAcrossDevices(t *testing.T) {
	t.Parallel() // waits on conditions only: see parallel in page_test.go
	p := newPage(t, 20*time.Millisecond, 3*time.Minute)
	p.dir = screenshotDir(t.TempDir())
	p.createTable(table{game: "cabo", name: "Ada", players: 2, bots: []string{""}}, `.invite`)
	var id string
	p.eval("table id", `location.pathname.slice(3)`, &id)

	// The account panel of a guest.
	p.home()
	p.click(`#me`)
	p.run("the panel", chromedp.WaitVisible(`#account #acct-claim`, chromedp.ByQuery))
	shootPanel(p, "account-guest")
	claim := func(pg *page, user, pw string) {
		pg.run("claim", chromedp.SetValue(`#acct-claim input[name=username]`, user, chromedp.ByQuery),
			chromedp.SetValue(`#acct-claim input[name=password]`, pw, chromedp.ByQuery))
		pg.click(`[data-action=acct-claim]`)
	}
	claim(p, "ada_1", "short")
	var msg string
	p.until("a password too short refused", text(`#acct-claim .acct-err`), &msg, func() bool { return strings.Contains(msg, "too short") })
	claim(p, "ada_1", "correct horse")
	p.until("the claim", text(`#acct-who`), &msg, func() bool { return strings.Contains(msg, "@ada_1") })
	shootPanel(p, "account-user")
	// The panel follows a language switch, its fields kept.
	p.click(`#lang`)
	p.until("the panel in French", `(`+text(`#acct-title`)+`) + ' ' + (`+text(`#acct-who`)+`)`, &msg, func() bool {
		return msg == "Votre compte Vous jouez sous le nom Ada, connecté en tant que @ada_1."
	})
	shootPanel(p, "account-user-fr")
	p.click(`#lang`)
	p.narrow(100 * time.Millisecond)
	p.desktop()
	p.click(`[data-action=account-close]`)

	// Another browser: its guest may not take the username; it signs in.
	q := p.another()
	q.home()
	q.setName("Someone")
	q.click(`#me`)
	q.run("the panel", chromedp.WaitVisible(`#account #acct-claim`, chromedp.ByQuery))
	claim(q, "ada_1", "another password")
	q.until("a username taken refused", text(`#acct-claim .acct-err`), &msg, func() bool { return strings.Contains(msg, "taken") })
	q.run("sign in", chromedp.SetValue(`#acct-signin input[name=username]`, "ada_1", chromedp.ByQuery),
		chromedp.SetValue(`#acct-signin input[name=password]`, "wrong password", chromedp.ByQuery))
	q.click(`[data-action=acct-signin]`)
	q.until("a wrong password refused", text(`#acct-signin .acct-err`), &msg, func() bool { return strings.Contains(msg, "Wrong username or password") })
	q.run("sign in", chromedp.SetValue(`#acct-signin input[name=password]`, "correct horse", chromedp.ByQuery))
	q.click(`[data-action=acct-signin]`)
	q.until("signed in", text(`#me`), &msg, func() bool { return strings.Contains(msg, "@ada_1") })
	q.click(`[data-action=account-close]`)

	mine := fmt.Sprintf(`#mytables a[data-mytable=%q]`, id)
	var listed bool
	q.until("the table under Your tables", `!!document.querySelector('`+mine+`')`, &listed, func() bool { return listed })
	q.click(mine)
	var seat struct {
		Seat  string
		Join  bool
		Token bool
	}
	q.until("seated by the session", `({seat: document.querySelector('#table')?.dataset.seat || '', join: !!document.querySelector('#join'),
		token: !!JSON.parse(localStorage.getItem('tapis.seat.`+id+`') || 'null')?.token})`, &seat, func() bool { return seat.Seat == "0" })
	if seat.Join || seat.Token {
		t.Fatalf("at the table from Your tables: %+v, want seat 0 with no join form and no token", seat)
	}
	// The table is still waiting for its second player: the invite shows.
	q.run("the invite", chromedp.WaitVisible(`.invite`, chromedp.ByQuery))

	// A new password (the old one mistyped first) signs the other browser out.
	q.click(`#me`)
	setPw := func(old, new string) {
		q.run("passwords", chromedp.WaitVisible(`#acct-password`, chromedp.ByQuery),
			chromedp.SetValue(`#acct-password input[name=old]`, old, chromedp.ByQuery),
			chromedp.SetValue(`#acct-password input[name=new]`, new, chromedp.ByQuery))
		q.click(`[data-action=acct-password]`)
	}
	setPw("not my password", "a new password")
	q.until("a wrong password refused", text(`#acct-password .acct-err`), &msg, func() bool { return msg == "Wrong password." })
	setPw("correct horse", "a new password")
	q.until("the password changed", text(`#acct-password .acct-ok`), &msg, func() bool { return strings.Contains(msg, "Password changed") })
	p.home()
	p.until("the first browser signed out", text(`#me`), &msg, func() bool { return msg == "Sign in" })

	// The account deleted, after its confirmation: the browser is nobody.
	q.click(`.acct-delete summary`)
	q.run("password", chromedp.SetValue(`#acct-delete input[name=password]`, "a new password", chromedp.ByQuery))
	q.click(`[data-action=acct-delete]`)
	q.until("the account deleted", text(`#account`), &msg, func() bool { return strings.Contains(msg, "Your account is deleted.") })
	q.until("nobody signed in", text(`#me`), &msg, func() bool { return msg == "Sign in" })
}

// shootPanel photographs the account panel at both sizes.
func shootPanel(p *page, base string) {
	p.t.Helper()
	p.shootSizes(base, 100*time.Millisecond)
}

// A public table shows in another person's lobby, live, with its seats
// and rules in words, and one click seats them; a private one never
// shows. The lobby's filter hides the other games' tables.
func TestBrowserLobby(t *testing.T) {
	t.Parallel() // waits on conditions only: see parallel in page_test.go
	p := newPage(t, 20*time.Millisecond, 3*time.Minute)
	p.dir = screenshotDir(t.TempDir())
	// The other person is on the home page first: the table must appear
	// while they look.
	q := p.another()
	q.home()
	var empty string
	q.until("the empty lobby", text(`#lobby-empty`), &empty, func() bool { return strings.Contains(empty, "quick match") })
	q.shootSizes("lobby-empty", 100*time.Millisecond)

	p.createTable(table{game: "cabo", name: "Ada", players: 3, bots: []string{"", "easy"}, turn: "60",
		options: map[string]string{"hand_size": "6"}}, `.invite`)
	var public string
	p.eval("table id", `location.pathname.slice(3)`, &public)
	p.fill(table{game: "cabo", name: "Ada", players: 2, bots: []string{""}})
	p.click(`input[name=visibility][value=private]`)
	p.create(`.invite`)
	var private string
	p.eval("table id", `location.pathname.slice(3)`, &private)

	row := fmt.Sprintf(`#lobby li[data-table=%q]`, public)
	var shown string
	q.until("the public table in the lobby", text(row), &shown, func() bool { return shown != "" })
	for _, w := range []string{"Cabo", "EN", "2/3 seated", "Ada", "Bot 3 (easy)", "1 free", "Cards per player: 6", "1 min"} {
		if !strings.Contains(shown, w) {
			t.Errorf("the lobby's row does not say %q: %q", w, shown)
		}
	}
	var privateShown bool
	q.eval("the private table", fmt.Sprintf(`!!document.querySelector('#lobby li[data-table=%q]')`, private), &privateShown)
	if privateShown {
		t.Fatal("the private table shows in the lobby")
	}
	q.shootSizes("lobby", 100*time.Millisecond)
	q.narrow(100 * time.Millisecond) // nothing sticks out sideways at 360 px
	q.desktop()
	q.click(`#lang`)
	q.until("the lobby in French", text(`#lobby h2`), &shown, func() bool { return shown == "Tables qui attendent des joueurs" })
	q.shootSizes("lobby-fr", 100*time.Millisecond)
	q.click(`#lang`)

	// The filter: another game's tables only, then Cabo's again.
	q.click(`[data-lobby-game=papayoo]`)
	q.until("no Papayoo table", text(`#lobby-empty`), &empty, func() bool { return strings.Contains(empty, "Papayoo") })
	q.click(`[data-lobby-game=cabo]`)
	q.until("the Cabo table again", text(row), &shown, func() bool { return shown != "" })

	// One click: the name asked first, then seated.
	q.click(fmt.Sprintf(`[data-join=%q]`, public))
	var named bool
	q.until("the name asked for", `document.activeElement?.id === 'who-name'`, &named, func() bool { return named })
	q.setName("Bea")
	q.click(fmt.Sprintf(`[data-join=%q]`, public))
	id, seat := q.atTable()
	if id != public || seat != "1" {
		t.Fatalf("joined from the lobby at %s seat %s, want %s seat 1", id, seat, public)
	}
	p.run("the creator's table", chromedp.Navigate(p.h.URL+"/t/"+public))
	if id, seat := p.atTable(); id != public || seat != "0" {
		t.Fatalf("the creator is at %s seat %s", id, seat)
	}
	// A table under way leaves the lobby.
	q.home()
	var gone bool
	q.until("the started table gone from the lobby", fmt.Sprintf(`!document.querySelector('#lobby li[data-table=%q]')`, public), &gone, func() bool { return gone })
}
