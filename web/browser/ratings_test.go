package browser

import (
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	cdpruntime "github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/chromedp"

	"tapis/server/servertest"
)

// boardView is what the ratings test reads of the leaderboard.
type boardView struct {
	Game string   `json:"game"`
	Rows []string `json:"rows"` // each player's row: id|rank|name|rating|games|wins|mine
	Bots []string `json:"bots"` // the bots' reference lines, top to bottom
}

const readBoard = `(() => ({
	game: document.querySelector('#leaderboard')?.dataset.game || '',
	rows: [...document.querySelectorAll('#leaderboard tr.prow')].map(r => [r.dataset.player,
		...[...r.cells].map(c => c.textContent.trim()), r.classList.contains('me') ? 'me' : ''].join('|')),
	bots: [...document.querySelectorAll('#leaderboard tr.botline')].map(r => r.textContent.trim()),
}))()`

// profileView is what the ratings test reads of a profile.
type profileView struct {
	Name   string   `json:"name"`
	Games  []string `json:"games"`  // each game's card: game|rating|stats
	Points int      `json:"points"` // the chart's polyline's points
	Labels int      `json:"labels"` // the chart's axis labels
	Recent []string `json:"recent"` // the recent games' links
}

const readProfile = `(() => ({
	name: document.querySelector('#profile h1')?.textContent || '',
	games: [...document.querySelectorAll('#profile .profgame')].map(g => [g.dataset.game,
		g.querySelector('.pgrating strong')?.textContent, g.querySelector('.pgstats')?.textContent].join('|')),
	points: (document.querySelector('#profile svg.ratingchart polyline')?.getAttribute('points') || '').trim().split(/\s+/).filter(Boolean).length,
	labels: document.querySelectorAll('#profile svg.ratingchart text').length,
	recent: [...document.querySelectorAll('#profile .recentlist a.rlink')].map(a => a.getAttribute('href')),
}))()`

// fetchJS runs a request from the page (its cookies, its origin) and
// returns the status.
func (p *page) fetchJS(what, method, path, body string) int {
	p.t.Helper()
	var status int
	p.run(what, chromedp.Evaluate(fmt.Sprintf(`fetch(%q, {method: %q, headers: {'Content-Type': 'application/json'}, body: %q || undefined}).then(r => r.status)`,
		path, method, body), &status, func(e *cdpruntime.EvaluateParams) *cdpruntime.EvaluateParams { return e.WithAwaitPromise(true) }))
	return status
}

// The web side of ratings, as a player sees it: a guest sees the
// Rated box disabled with the reason, and a rated table marked in the
// lobby and on its join page; a player with a username creates a rated
// Cabo table against a bot from the form, and at its end the panel shows
// their rating change; the leaderboard lists them (highlighted) among
// the bots' reference lines, and links to their profile, whose chart
// draws their rating history and whose recent games link to the
// matches' pages.
func TestBrowserRatings(t *testing.T) {
	t.Parallel() // waits on conditions only: see parallel in page_test.go
	p := newPage(t, 0, 5*time.Minute)
	h := p.h
	// Bob has 5 rated games (he is ranked) and a rated table waiting for
	// a second person; Ada has 4, the fifth is played from the browser.
	bob, _ := h.SignUp("Bob", "bob")
	for range 5 {
		servertest.PlayRated(t, bob)
	}
	var waiting servertest.Seat
	bob.Must(http.StatusCreated, "POST", "/api/tables", map[string]any{"game": "cabo", "players": 2, "bots": []string{"", ""}, "rated": true, "public": true}, &waiting)
	// Bob's page is open at it: the lobby lists only tables someone
	// seated has connected to.
	h.Dial(waiting.Table, waiting.Token).Next("welcome")
	ada, adaID := h.SignUp("Ada", "ada")
	for range 4 {
		servertest.PlayRated(t, ada)
	}

	// A guest: the Rated box is disabled, says why and offers the
	// account panel; the lobby and the join page mark the rated table.
	p.home()
	p.setName("Gus")
	var guestBox struct {
		Disabled bool   `json:"disabled"`
		Why      string `json:"why"`
		Tag      string `json:"tag"`
	}
	p.until("the guest's Rated box and the lobby's rated row", fmt.Sprintf(`({
		disabled: !!document.querySelector('#ratedfield input[name=rated]')?.disabled,
		why: document.querySelector('#rated-why')?.textContent || '',
		tag: document.querySelector('[data-table=%q] .ratedtag')?.textContent || '',
	})`, waiting.Table), &guestBox, func() bool { return guestBox.Disabled && guestBox.Why != "" && guestBox.Tag != "" })
	if !strings.Contains(guestBox.Why, "username") || guestBox.Tag != "Rated" {
		t.Fatalf("the guest reads %+v", guestBox)
	}
	p.narrow(100 * time.Millisecond)
	p.shoot("ratings-guest-form-360.png")
	p.desktop()
	p.click(`[data-action=rated-account]`)
	p.run("the account panel", chromedp.WaitVisible(`#account`, chromedp.ByQuery))
	p.run("close it", chromedp.Evaluate(`document.dispatchEvent(new KeyboardEvent('keydown', {key: 'Escape'}))`, nil))
	// Joining it from the lobby is refused in the guest's words.
	p.click(fmt.Sprintf(`[data-join=%q]`, waiting.Table))
	var refused string
	p.until("the refusal", text(`#toast`), &refused, func() bool { return strings.Contains(refused, "username") })
	p.run("the join page", chromedp.Navigate(h.URL+"/t/"+waiting.Table), chromedp.WaitVisible(`#joinrated`, chromedp.ByQuery))
	// The guest is not ranked: the leaderboard says what it takes.
	p.run("the leaderboard", chromedp.Navigate(h.URL+"/leaderboard"))
	var unranked string
	p.until("the guest's note", text(`#board-unranked`), &unranked, func() bool { return strings.Contains(unranked, "at least 5 rated games") })

	// Ada signs in on this browser and creates a rated table.
	if st := p.fetchJS("sign in", "POST", "/api/account/signin", `{"username":"ada","password":"correct-horse-ada"}`); st != http.StatusOK {
		t.Fatalf("signing in: %d", st)
	}
	p.fill(table{game: "cabo", name: "Ada", players: 2, bots: []string{"random"}})
	var enabled bool
	p.until("the Rated box enabled", `!document.querySelector('#ratedfield input[name=rated]').disabled`, &enabled, func() bool { return enabled })
	p.click(`#ratedfield input[name=rated]`)
	p.create(`#table`)
	var tab struct{ Path, Tag string }
	p.until("the rated table", `({path: location.pathname, tag: document.querySelector('.tablebar h1 .ratedtag')?.textContent || ''})`, &tab,
		func() bool { return strings.HasPrefix(tab.Path, "/t/") && tab.Tag != "" })
	id := strings.TrimPrefix(tab.Path, "/t/")
	// The form's "no time per move" makes a rated table with the rated
	// default (issue 24, finding 7): a rated table always has one.
	if n := ada.Info(id).TurnSeconds; n != 60 {
		t.Fatalf("the rated table made with the form has %d s per move, want 60", n)
	}

	// Ada's moves are played from here (her seat is hers on every device);
	// the page shows the end.
	c := ada.Dial(id)
	seat := c.Next("welcome").Seat
	if m, err := servertest.PlayRandom(c, seat, 9, 1<<30); err != nil || m.Status != "over" {
		t.Fatalf("playing: %v %+v", err, m.Status)
	}
	c.Conn.CloseNow()
	var info servertest.TableInfo
	servertest.Eventually(t, "the match rated", func() bool {
		ada.Must(http.StatusOK, "GET", "/api/tables/"+id, nil, &info)
		return len(info.Ratings) == 2
	})
	r := info.Ratings[seat]
	want := fmt.Sprintf("%d → %d", r.Before, r.After)
	var change string
	p.until("the end panel's rating change", fmt.Sprintf(`document.querySelector('#overlay[data-kind=over] #rating-changes li[data-seat="%d"]')?.textContent || ''`, seat),
		&change, func() bool { return strings.Contains(change, want) })
	if d := r.After - r.Before; !strings.Contains(change, fmt.Sprintf("%+d", d)) && !strings.Contains(change, fmt.Sprintf("−%d", -d)) {
		t.Fatalf("the change %q does not say %+d", change, d)
	}
	if r.Provisional != strings.Contains(change, "provisional") {
		t.Fatalf("the change %q, provisional %v", change, r.Provisional)
	}
	p.shootSizes("ratings-end", 200*time.Millisecond)

	// The leaderboard, from the header: both ranked, Ada's row hers; the
	// four bot levels as reference lines.
	p.click(`#toplink-board`)
	var b boardView
	p.until("the leaderboard", readBoard, &b, func() bool { return b.Game == "cabo" && len(b.Rows) == 2 })
	mine := 0
	for _, row := range b.Rows {
		f := strings.Split(row, "|")
		if f[0] == adaID {
			mine++
			if f[6] != "me" || !strings.HasPrefix(f[3], fmt.Sprint(r.After)) || f[4] != "5" {
				t.Fatalf("Ada's row: %q (rating %d)", row, r.After)
			}
		}
	}
	if mine != 1 || len(b.Bots) != 4 || !strings.Contains(strings.Join(b.Bots, ";"), "normal bot: ") {
		t.Fatalf("the leaderboard: %+v", b)
	}
	p.shootSizes("ratings-board", 200*time.Millisecond)
	p.narrow(0) // nothing sticks out sideways at 360 px
	p.desktop()
	// Another game's tab: nobody is ranked there yet.
	p.click(`[data-board-game=papayoo]`)
	var empty string
	p.until("Papayoo's empty board", `location.pathname + '|' + (document.querySelector('#board-empty')?.textContent || '')`, &empty,
		func() bool { return strings.HasPrefix(empty, "/leaderboard/papayoo|Nobody") })
	p.run("back to Cabo", chromedp.NavigateBack())
	p.until("Cabo's board again", readBoard, &b, func() bool { return b.Game == "cabo" && len(b.Rows) == 2 })

	// Her profile, from her name: the chart has her five games and the
	// start (1500), the recent games link to their matches.
	p.click(fmt.Sprintf(`tr[data-player=%q] td.name a`, adaID))
	var pv profileView
	p.until("the profile", readProfile, &pv, func() bool { return pv.Name == "Ada" && pv.Points == 6 && len(pv.Recent) == 5 })
	if pv.Labels < 5 || len(pv.Games) != 1 || !strings.HasPrefix(pv.Games[0], fmt.Sprintf("cabo|%d|", r.After)) ||
		!strings.Contains(pv.Games[0], "Games: 5") || !strings.Contains(pv.Games[0], "plays like the") {
		t.Fatalf("the profile: %+v", pv)
	}
	if pv.Recent[0] != "/m/"+id+"/1" {
		t.Fatalf("the newest recent game links to %q, want /m/%s/1", pv.Recent[0], id)
	}
	p.shootSizes("ratings-profile", 200*time.Millisecond)
	p.narrow(0)
	p.desktop()
	// In French, with how ratings work open.
	p.run("French", chromedp.Evaluate(`document.querySelector('#lang').click()`, nil),
		chromedp.Evaluate(`document.querySelector('#how').open = true`, nil))
	var fr string
	p.until("the profile in French", text(`#profile .pgstats`), &fr, func() bool { return strings.Contains(fr, "Parties : 5") })
	p.shootSizes("ratings-profile-fr", 200*time.Millisecond)
	// The French leaderboard reached by the link to how ratings work,
	// which opens it.
	p.run("how ratings work", chromedp.Navigate(h.URL+"/leaderboard/cabo#how"))
	var how string
	p.until("how ratings work, open, in French", `document.querySelector('#how[open]') ? document.querySelector('#how').textContent : ''`, &how,
		func() bool { return strings.Contains(how, "Comment marche la cote") && strings.Contains(how, "1500") })
	p.narrow(100 * time.Millisecond)
	p.shoot("ratings-board-fr-360.png")
	p.desktop()
	p.run("the recent game's match", chromedp.Navigate(h.URL+pv.Recent[0]))
	var code string
	p.until("the match's page", `document.querySelector('#hist-pos') ? 'ok' : ''`, &code, func() bool { return code == "ok" })
}
