package browser

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"tapis/game"
	"tapis/games"
	"tapis/server/servertest"
)

// The screenshots of docs/screenshots (issue 26): the home page, its
// lobby, an invite link's page, and every game at its start, its middle
// and its end, at a phone's size (390×844) and a laptop's (1366×768), in
// English. TestBrowserScreenshots takes them into its temporary folder and
// checks them; it writes them into the repository only when asked:
//
//	TAPIS_SCREENSHOTS=$PWD/docs/screenshots go test ./web/browser -run 'TestBrowserScreenshots$' -count=1 -timeout 40m
//
// (docs/screenshots/README.md says so too), so that a test run never
// rewrites the repository's pictures.

// shotsDir is where TestBrowserScreenshots writes: $TAPIS_SCREENSHOTS, a
// folder that must exist (a relative path would be the package's folder,
// not the repository's: go test runs there), or else dflt.
func shotsDir(t *testing.T, dflt string) string {
	t.Helper()
	d := os.Getenv("TAPIS_SCREENSHOTS")
	if d == "" {
		return dflt
	}
	if fi, err := os.Stat(d); err != nil || !fi.IsDir() {
		t.Fatalf("TAPIS_SCREENSHOTS=%s is not a folder (go test runs in web/browser: give an absolute path)", d)
	}
	return d
}

// midView is what the test reads of a game's view to know that the game
// is well under way: a round, a phase, and the cards on the table.
type midView struct {
	Round     int                   `json:"round"`
	Phase     string                `json:"phase"`
	Discard   []json.RawMessage     `json:"discard"`    // Cabo
	Hand      []json.RawMessage     `json:"hand"`       // Papayoo, Da Capo!
	Trick     []json.RawMessage     `json:"trick"`      // Papayoo
	PileCount int                   `json:"pile_count"` // Limits
	Helpers   [][][]json.RawMessage `json:"helpers"`    // Da Capo!
	Piles     [][]json.RawMessage   `json:"piles"`      // Da Capo!
}

// shotGame is how a game is photographed: the options that keep it short
// (as the home page's form takes them), when it is in its middle, and what
// the player must see then.
type shotGame struct {
	options map[string]string
	middle  func(v midView, me game.Seat) bool
	see     []string
}

// shotGames are the four games' middles: cards on the table, the log
// filled, the player to move.
var shotGames = map[string]shotGame{
	"cabo": {
		middle: func(v midView, _ game.Seat) bool { return v.Round >= 2 && v.Phase == "turn" && len(v.Discard) >= 3 },
		see:    mustSee["cabo"]},
	"papayoo": {options: map[string]string{"rounds": "2"},
		middle: func(v midView, _ game.Seat) bool { return v.Phase == "play" && len(v.Trick) >= 1 && len(v.Hand) <= 10 },
		see:    []string{`#hand > *`, `.trickzone`, `.passinfo`}},
	"limits": {
		middle: func(v midView, _ game.Seat) bool { return v.Round >= 3 && v.Phase == "turn" && v.PileCount >= 2 },
		see:    mustSee["limits"]},
	"dacapo": {options: map[string]string{"pile_size": "10"},
		middle: func(v midView, me game.Seat) bool {
			if int(me) >= len(v.Helpers) {
				return false
			}
			helpers, piles := 0, 0
			for _, h := range v.Helpers[me] {
				helpers += len(h)
			}
			for _, p := range v.Piles {
				piles += len(p)
			}
			return helpers >= 3 && piles >= 2
		},
		see: []string{`#hand > *`, `.dc-mine .dc-stackwrap`, `.dc-mine .dc-hpile > :last-child`, `.dc-bpiles > *`}},
}

// shotSizes checks the page at each of sizes and photographs the window
// (what a player sees, not the whole scrolled page) as <name>-<w>.png in
// dir. On a table's page (table true) what sels name, the table's tools
// and any open panel's buttons must be in the window (the newest log line,
// checked by TestBrowserLayoutLate, is left out); on any page nothing may
// stick out sideways. The window shows the top of the page, or the element
// show names when it is not "".
func (p *page) shotSizes(dir, name string, table bool, sels []string, show string) {
	p.t.Helper()
	for _, sz := range sizes {
		p.resize(sz[0], sz[1])
		var bad []string
		if table {
			var all []string
			p.eval("what lies outside the window", lateScript(sels), &all)
			for _, b := range all {
				if !strings.HasPrefix(b, `#log li:last-child`) {
					bad = append(bad, b)
				}
			}
		} else {
			var wide int
			p.eval("the page's width", `document.documentElement.scrollWidth`, &wide)
			if wide > sz[0] {
				bad = append(bad, fmt.Sprintf("page %d px wide", wide))
			}
		}
		if len(bad) > 0 {
			p.t.Errorf("%s at %dx%d: outside the window: %q", name, sz[0], sz[1], bad)
		}
		var png []byte
		scroll := `window.scrollTo(0, 0)`
		if show != "" {
			scroll = fmt.Sprintf(`window.scrollTo(0, 0); document.querySelector(%q).scrollIntoView({block: 'end'})`, show)
		}
		p.run("screenshot "+name, chromedp.Evaluate(scroll, nil), chromedp.CaptureScreenshot(&png))
		if err := os.WriteFile(filepath.Join(dir, fmt.Sprintf("%s-%d.png", name, sz[0])), png, 0o644); err != nil {
			p.t.Fatal(err)
		}
	}
	p.desktop()
}

// TestBrowserScreenshots takes docs/screenshots' pictures (see above) and
// checks what they show. The home page first, then its lobby with two
// public tables waiting, then the page a guest's invite link opens. Then
// each game, its table made from the home page's defaults but the number
// of players and the options that shorten it (so the test also checks
// that the default seats, bots at every seat but the creator's, start a
// game at once): its start is the player's first turn; its middle, a
// position the test plays the player's seat to over its own socket (the
// same seat, at random among the legal moves, the bots moving at once),
// the page opened again there; its end, the game-over panel with the
// results, the test playing on with the page open.
func TestBrowserScreenshots(t *testing.T) {
	t.Parallel() // waits on conditions only: see parallel in page_test.go
	p := newPage(t, 0, 10*time.Minute)
	out := shotsDir(t, p.dir)

	p.home()
	p.shotSizes(out, "home", false, nil, "")
	p.checkHome()

	// Two tables waiting in the lobby, made by other people.
	var waiting []string
	for _, tb := range []struct {
		game, name string
		bots       []string
		opts       string
	}{
		{"cabo", "Ada", []string{"", "", "easy"}, `{"hand_size":6}`},
		{"papayoo", "Noé", []string{"", "normal", "", "normal"}, ""},
	} {
		req := map[string]any{"game": tb.game, "players": len(tb.bots), "bots": tb.bots, "name": tb.name, "public": true}
		if tb.opts != "" {
			req["options"] = json.RawMessage(tb.opts)
		}
		var s servertest.Seat
		if code := p.h.Post("/api/tables", req, &s); code != http.StatusCreated {
			t.Fatalf("create a public %s table: status %d", tb.game, code)
		}
		// Listed only while its host is there: their page is open.
		p.h.Dial(s.Table, s.Token)
		waiting = append(waiting, s.Table)
	}
	p.home()
	var rows int
	p.until("both tables in the lobby", `document.querySelectorAll('#lobby li[data-table]').length`, &rows, func() bool { return rows == 2 })
	p.shotSizes(out, "lobby", false, nil, "#lobby")

	p.run("an invite link's page", chromedp.Navigate(p.h.URL+"/t/"+waiting[0]), chromedp.WaitVisible(`#joininfo`, chromedp.ByQuery))
	p.shotSizes(out, "join", false, nil, "")
	p.checkJoin()

	// The pictures show the tables as a returning player sees them: the
	// first-time guide has been answered.
	p.run("guides answered", chromedp.Evaluate(`['cabo','papayoo','limits','dacapo'].forEach(g => localStorage.setItem('tapis.guide.' + g, 'no'))`, nil))
	for i, g := range games.All() {
		sg, ok := shotGames[g.Name()]
		if !ok {
			t.Fatalf("%s: no screenshots planned", g.Name())
		}
		t.Run(g.Name(), func(t *testing.T) {
			p.t = t
			p.shootGame(out, g, sg, uint64(i)+1)
		})
		p.t = t
	}
}

// shootGame plays one game from the home page to its end, photographing
// its start, middle and end (see TestBrowserScreenshots).
func (p *page) shootGame(out string, g game.Game, sg shotGame, seed uint64) {
	t := p.t
	t.Helper()
	name := g.Name()
	lo, hi := g.Players()
	n := min(max(lo, 4), hi)
	p.fill(table{game: name, players: n, options: sg.options})
	var seats []string
	p.eval("the seats chosen", `[...document.querySelectorAll('select[name^=seat]')].map(s => s.value)`, &seats)
	if want := slices.Repeat([]string{"normal"}, n-1); !slices.Equal(seats, want) {
		t.Fatalf("for %d: the seats default to %q, want %q", n, seats, want)
	}
	p.create(`#game`)
	var st tableState
	p.untilTurn(readTable(""), &st, &st)
	// Created full, the table plays at once: nobody is waited for.
	var invite bool
	p.eval("the invite panel", `!!document.querySelector('.invite')`, &invite)
	if st.Status != "playing" || invite {
		t.Fatalf("a table made with the default seats is %q (invite panel shown: %v)", st.Status, invite)
	}
	if st.MyTurn != "1" {
		t.Fatal("the game ended before my first turn")
	}
	p.shotSizes(out, name+"-start", true, mustSee[name], "")

	// The middle: the test plays the page's seat over its own socket.
	var id string
	var seat struct {
		Seat  game.Seat `json:"seat"`
		Token string    `json:"token"`
	}
	p.eval("the table", `location.pathname.slice(3)`, &id)
	p.eval("the seat's token", fmt.Sprintf(`JSON.parse(localStorage.getItem('tapis.seat.%s'))`, id), &seat)
	sp := &seatPlayer{c: p.h.Dial(id, seat.Token), seat: seat.Seat, rng: rand.New(rand.NewPCG(seed, 26))}
	sp.playUntil(t, func(m servertest.Msg) bool {
		var v midView
		json.Unmarshal(m.View, &v)
		return sg.middle(v, sp.seat)
	})
	// Opened again there, the page shows the position as it stands, its
	// log rebuilt, with no card still travelling from the moves before.
	p.run("the page again", chromedp.Navigate(p.h.URL+"/t/"+id), chromedp.WaitVisible(`#game`, chromedp.ByQuery))
	p.until("my turn in the middle of the game", readTable(""), &st, func() bool { return st.MyTurn == "1" && st.Overlay == "" })
	p.shotSizes(out, name+"-middle", true, sg.see, "")
	if name == "dacapo" {
		p.checkDacapoPiles("in the middle")
	}
	if name == "papayoo" {
		p.checkTakes()
	}
	p.resize(1366, 768)
	p.checkLogTop(name + " in the middle")
	p.desktop()

	// The end: played on with the page open, to the game-over panel.
	stop := sp.playOn()
	var panel string
	p.until("the game-over panel", `(document.querySelector('#overlay') || {dataset: {}}).dataset.kind || ''`, &panel,
		func() bool { return panel == "over" })
	stop()
	var buttons []string
	p.eval("the panel's buttons", `[...document.querySelectorAll('#overlay button')].map(b => b.dataset.action)`, &buttons)
	if !slices.Contains(buttons, "close-overlay") || !slices.Contains(buttons, "again") {
		t.Errorf("the game-over panel's buttons: %q", buttons)
	}
	p.shotSizes(out, name+"-end", true, nil, "")
	p.checkLog(name)
	for _, sz := range sizes {
		p.resize(sz[0], sz[1])
		p.checkEndPanel(fmt.Sprintf("%s at %d", name, sz[0]))
	}
	p.desktop()
	if name == "limits" {
		p.checkTokens()
	}
	if name == "dacapo" {
		p.checkDacapoPiles("at the end")
	}
}
