package browser

import (
	"context"
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"tapis/server/servertest"
	"tapis/store"
)

// mgLine is a line of "My games" as the test reads it.
type mgLine struct {
	Table string `json:"table"`
	Match string `json:"match"`
	Href  string `json:"href"`
	Text  string `json:"text"`
}

// mgView is the "My games" page as the test reads it.
type mgView struct {
	Title string   `json:"title"`
	Empty bool     `json:"empty"`
	Lines []mgLine `json:"lines"`
	More  bool     `json:"more"`
}

const readMyGames = `(() => ({
	title: document.querySelector('#mygames h1')?.textContent || '',
	empty: !!document.querySelector('#mygames-none'),
	lines: [...document.querySelectorAll('#mygames-list li')].map(li => ({table: li.dataset.table, match: li.dataset.match,
		href: li.querySelector('a')?.getAttribute('href') || '', text: li.innerText})),
	more: !!document.querySelector('[data-action=mygames-more]'),
}))()`

// TestBrowserMyGames: a signed-in player's "My games" (the header's
// menu) says so when they have finished no game; after a short unrated,
// private game against bots played to its end (Papayoo, one round), it
// lists that game in English and French, with the bots and their level,
// the player's place and score, at 390×844 and 1366×768; "More" brings
// the older games a page did not hold; a line opens the match's replay.
func TestBrowserMyGames(t *testing.T) {
	t.Parallel() // waits on conditions only: see parallel in page_test.go
	p := newPage(t, 0, 6*time.Minute)
	ada, _ := p.h.SignUp("Ada", "ada")
	p.signIn("ada")
	p.run("no guide", chromedp.Evaluate(`localStorage.setItem('tapis.guide.papayoo', 'no')`, nil))
	var v mgView
	open := func(what string, ok func() bool) {
		t.Helper()
		p.click(`#me`)
		p.run("the menu", chromedp.WaitVisible(`[data-action=my-games]`, chromedp.ByQuery))
		p.click(`[data-action=my-games]`)
		p.until(what, readMyGames, &v, ok)
	}
	open("My games, empty", func() bool { return v.Empty })
	if v.Title != "My games" {
		t.Errorf("the page's title is %q", v.Title)
	}
	p.checkIn("mygames-empty", actionSizes, `#mygames-none a`)

	// The game, Ada's page open at the table, her seat played over her
	// own socket.
	var tab servertest.Seat
	ada.Must(http.StatusCreated, "POST", "/api/tables", map[string]any{"game": "papayoo", "players": 3,
		"bots": []string{"", "random", "random"}, "options": map[string]any{"rounds": 1}}, &tab)
	c := ada.Dial(tab.Table)
	defer c.Conn.CloseNow()
	p.run("the table", chromedp.Navigate(p.h.URL+"/t/"+tab.Table), chromedp.WaitVisible(`#game`, chromedp.ByQuery))
	if m, err := servertest.PlayRandom(c, tab.Seat, 4, 1<<30); err != nil || m.Status != "over" {
		t.Fatalf("the game ended as %q: %v", m.Status, err)
	}
	var kind string
	p.until("the game's end panel", `(document.querySelector('#overlay') || {dataset: {}}).dataset.kind || ''`, &kind,
		func() bool { return kind == "over" })

	open("My games, one game", func() bool { return len(v.Lines) == 1 })
	l := v.Lines[0]
	if l.Table != tab.Table || l.Match != "1" || l.Href != fmt.Sprintf("/m/%s/1", tab.Table) || v.More {
		t.Fatalf("the line is %+v (more: %v), want table %s, match 1", l, v.More, tab.Table)
	}
	for _, w := range []string{"Papayoo", "Unrated", "Private", "You", "Bot 2 (random)", "Bot 3 (random)", " of 3", "your score: ", "Replay"} {
		if !strings.Contains(l.Text, w) {
			t.Errorf("the line says %q, without %q", l.Text, w)
		}
	}
	if strings.Contains(l.Text, "Ada") {
		t.Errorf("the line names the player instead of saying you: %q", l.Text)
	}
	p.checkIn("mygames-list", actionSizes, `#mygames-list li:first-child a`)

	p.click(`#lang`)
	p.until("My games in French", readMyGames, &v, func() bool { return v.Title == "Mes parties" && len(v.Lines) == 1 })
	for _, w := range []string{"Non classée", "Privée", "Vous", "Robot 2 (hasard)", " sur 3", "votre score : ", "Revoir"} {
		if !strings.Contains(v.Lines[0].Text, w) {
			t.Errorf("the French line says %q, without %q", v.Lines[0].Text, w)
		}
	}
	p.checkIn("mygames-fr", actionSizes, `#mygames-list li:first-child a`)
	p.click(`#lang`)

	// 21 older games (copies of this one, the same seed and moves) fill
	// a page: "More" brings the last.
	ctx := context.Background()
	sv, err := p.h.Store.Match(ctx, tab.Table, 1)
	if err != nil {
		t.Fatal(err)
	}
	for i := range 21 {
		tb := sv.Table
		tb.ID, tb.Created = fmt.Sprintf("older%02d", i), sv.Created.Add(-time.Duration(i+1)*time.Hour)
		must(t, p.h.Store.CreateTable(ctx, tb, &store.Start{No: 1, Seed: sv.Match.Seed}))
		for k, mv := range sv.Match.Moves {
			must(t, p.h.Store.AppendMove(ctx, tb.ID, 1, k, mv))
		}
		must(t, p.h.Store.EndMatch(ctx, tb.ID, 1))
	}
	p.run("My games again", chromedp.Navigate(p.h.URL+"/games"))
	p.until("a page of 20", readMyGames, &v, func() bool { return len(v.Lines) == 20 })
	if !v.More || v.Lines[0].Table != tab.Table || v.Lines[19].Table != "older18" {
		t.Fatalf("the first page: more %v, lines %v … %v", v.More, v.Lines[0].Table, v.Lines[19].Table)
	}
	p.resize(390, 844)
	p.shoot("mygames-page-390x844.png")
	p.desktop()
	p.click(`[data-action=mygames-more]`)
	p.until("the rest", readMyGames, &v, func() bool { return len(v.Lines) == 22 })
	if v.More || v.Lines[21].Table != "older20" {
		t.Fatalf("after More: more %v, last %v", v.More, v.Lines[21].Table)
	}

	// A line opens its match's replay. As on another device (this
	// browser forgets what it knew of the table's seat), the replay still
	// speaks to Ada of her own moves: the server says which seat was hers.
	p.run("another device", chromedp.Evaluate(fmt.Sprintf(`localStorage.removeItem('tapis.seat.' + %q)`, tab.Table), nil))
	p.click(`#mygames-list li:first-child a`)
	var pos string
	p.until("the replay", `document.querySelector('#hist-pos')?.textContent || ''`, &pos, func() bool { return strings.HasPrefix(pos, "Move 0 of ") })
	if !strings.HasSuffix(p.location(), "/m/"+tab.Table+"/1") {
		t.Errorf("the line opened %q", p.location())
	}
	said := 0
	for _, c := range p.captions("0", "en") {
		if strings.HasPrefix(c, "You ") {
			said++
		}
		if strings.HasPrefix(c, "Ada ") {
			t.Errorf("a caption of Ada's move, on her other device, names her: %q", c)
		}
	}
	if said == 0 {
		t.Error("on her other device, no caption of the replay says Ada's moves to her")
	}
}

// must fails the test on err.
func must(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

// location is the page's address.
func (p *page) location() string {
	var href string
	p.eval("the address", `location.href`, &href)
	return href
}

// signIn signs the page in as username (servertest.SignUp's password),
// from the home page's account dialog, and waits until the header says so.
func (p *page) signIn(username string) {
	p.t.Helper()
	p.run("home", chromedp.Navigate(p.h.URL+"/"), chromedp.WaitVisible(`#me`, chromedp.ByQuery))
	p.click(`#me`)
	p.run("sign in", chromedp.WaitVisible(`#acct-signin`, chromedp.ByQuery),
		chromedp.SetValue(`#acct-signin input[name=username]`, username, chromedp.ByQuery),
		chromedp.SetValue(`#acct-signin input[name=password]`, "correct-horse-"+username, chromedp.ByQuery))
	p.click(`[data-action=acct-signin]`)
	var me string
	p.until("signed in", `document.querySelector('#me')?.textContent || ''`, &me, func() bool { return strings.Contains(me, "@"+username) })
}
