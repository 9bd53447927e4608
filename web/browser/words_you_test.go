package browser

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"tapis/server/servertest"
)

// youGame is one table of TestBrowserWordsYou: Ann (seat 0) plays it over
// her own socket while the page follows it as Ann.
type youGame struct {
	p    *page
	t    *testing.T
	c    *servertest.Client
	rng  *rand.Rand
	last servertest.Msg
	own  bool // a move of Ann's is sent and not yet back
}

// sit creates the table, the other human seats taken by others (join
// is called with the table), and opens Ann's page on it, in English.
func (p *page) sit(game string, bots []string, opts string, seed uint64, join func(table string)) *youGame {
	p.t.Helper()
	ann := p.h.Create(game, bots, "Ann", opts)
	if join != nil {
		join(ann.Table)
	}
	p.run("the page as Ann", chromedp.Navigate(p.h.URL+"/"), chromedp.WaitVisible(`#create`, chromedp.ByQuery),
		chromedp.Evaluate(fmt.Sprintf(`localStorage.setItem('tapis.seat.%s', JSON.stringify({seat: 0, token: %q}));
			localStorage.setItem('tapis.guide.%s', 'no'); localStorage.setItem('tapis.lang', 'en');`, ann.Table, ann.Token, game), nil),
		chromedp.Navigate(p.h.URL+"/t/"+ann.Table), chromedp.WaitVisible(`#game`, chromedp.ByQuery))
	return &youGame{p: p, t: p.t, c: p.h.Dial(ann.Table, ann.Token), rng: rand.New(rand.NewPCG(seed, 26))}
}

// until plays Ann's seat (choose picks her move, at random when it
// returns nil) until a state where reached says so, Ann's own move not
// pending; the match must not end before.
func (g *youGame) until(what string, choose func(legal []json.RawMessage) json.RawMessage, reached func(v map[string]any) bool) {
	g.t.Helper()
	// The state the last call stopped at comes first: the table may wait
	// for Ann there.
	m, fresh := g.last, false
	for {
		if fresh || m.Type == "" {
			m = g.c.Next("state", "error")
			if m.Type == "error" {
				g.t.Fatalf("%s: error %s: %s", what, m.Code, m.Error)
			}
			g.last = m
			if m.By == 0 {
				g.own = false
			}
		}
		fresh = true
		var v map[string]any
		if err := json.Unmarshal(m.View, &v); err != nil {
			g.t.Fatal(err)
		}
		if !g.own && reached(v) {
			return
		}
		if m.Status == "over" {
			g.t.Fatalf("the match ended before %s", what)
		}
		if !g.own && slices.Contains(m.ToMove, 0) && len(m.Legal) > 0 {
			mv := (json.RawMessage)(nil)
			if choose != nil {
				mv = choose(m.Legal)
			}
			if mv == nil {
				mv = m.Legal[g.rng.IntN(len(m.Legal))]
			}
			g.own = true
			g.c.Send(map[string]any{"type": "move", "move": mv})
		}
	}
}

// says waits until the text js reads contains want, in the page's
// language lang, and checks it never names Ann as "Ann (you)".
func (p *page) says(what, js, lang, want string) string {
	p.t.Helper()
	var r struct {
		Lang string `json:"lang"`
		Text string `json:"text"`
	}
	p.until(what+" in "+lang, fmt.Sprintf(`({lang: document.documentElement.lang, text: (() => { try { return %s || ''; } catch { return ''; } })()})`, js),
		&r, func() bool { return r.Lang == lang && strings.Contains(r.Text, want) })
	if ownSubject.MatchString(r.Text) {
		p.t.Errorf("%s in %s names the page's own player as a subject: %q", what, lang, r.Text)
	}
	return r.Text
}

// both checks a text in English then in French (enWant, frWant), and
// leaves the page in English.
func (p *page) both(what, js, enWant, frWant string) {
	p.t.Helper()
	p.says(what, js, "en", enWant)
	p.click(`#lang`)
	p.says(what, js, "fr", frWant)
	p.click(`#lang`)
}

// TestBrowserWordsYou (issue 26, words): where the page's own player is
// a sentence's subject it says "you", in English and French, never
// "Ann (you)" with a verb of the third person: Papayoo's status line
// when Ann deals ("Round 1 of 3 · you deal") and the first trick she
// leads; Limits' last accusation line, the accusation's hidden cards in
// the log and in its panel; Cabo's line after Ann calls Cabo and the
// round's explanation of her score.
func TestBrowserWordsYou(t *testing.T) {
	t.Parallel() // waits on conditions only: see parallel in page_test.go
	p := newPage(t, 150*time.Millisecond, 10*time.Minute)
	t.Run("papayoo", func(t *testing.T) {
		p.t = t
		g := p.sit("papayoo", []string{"", "random", "random"}, `{"rounds":3}`, 1, nil)
		g.until("Ann deals", nil, func(v map[string]any) bool { return v["dealer"] == 0.0 && v["phase"] == "pass" })
		p.both("the status line", `document.querySelector('#status').innerText`, "you deal", "vous distribuez")
		g.until("Ann leads the first trick", nil, func(v map[string]any) bool {
			tr, _ := v["trick"].([]any)
			return v["phase"] == "play" && v["turn"] == 0.0 && len(tr) == 0 && v["last_trick"] == nil
		})
		p.both("the trick's caption", `document.querySelector('#trick .caption').innerText`, "You lead the trick", "Vous entamez le pli")
	})
	t.Run("limits", func(t *testing.T) {
		p.t = t
		g := p.sit("limits", []string{"", "random"}, "", 2, nil)
		g.until("Ann takes a limit card", nil, func(v map[string]any) bool {
			a, _ := v["last_accusation"].(map[string]any)
			return a != nil && a["taker"] == 0.0 && v["phase"] == "hide"
		})
		p.both("the accusation's hidden cards", `document.querySelector('#overlay .lim-hiddentable').innerText`, "You", "Vous")
		p.both("the log's accusation", `[...document.querySelectorAll('#log li')].map(l => l.innerText).filter(l => /Hidden cards|Cartes cachées/.test(l)).pop()`,
			"you: ", "vous : ")
		p.click(`[data-action=close-overlay]`)
		p.both("the last accusation", `document.querySelector('.lim-lastacc').innerText`, "you take the limit card", "vous prenez la carte limite")
	})
	t.Run("cabo", func(t *testing.T) {
		p.t = t
		// Bea, the seat after Ann, is the test's too: she waits once Ann
		// has called Cabo, so that the line is read before the round ends.
		var bea *servertest.Client
		release := make(chan struct{})
		var held atomic.Bool
		g := p.sit("cabo", []string{"", ""}, "", 3, func(table string) {
			s := p.h.Join(table, "Bea")
			bea = p.h.Dial(table, s.Token)
		})
		done := make(chan struct{})
		go func() {
			defer close(done)
			rng := rand.New(rand.NewPCG(4, 26))
			pending := false
			for {
				m, err := bea.NextE("state")
				if err != nil || m.Status == "over" {
					return
				}
				if m.By == 1 {
					pending = false
				}
				if !pending && slices.Contains(m.ToMove, 1) && len(m.Legal) > 0 {
					if held.Load() {
						<-release
						held.Store(false)
					}
					pending = true
					if bea.SendE(map[string]any{"type": "move", "move": m.Legal[rng.IntN(len(m.Legal))]}) != nil {
						return
					}
				}
			}
		}()
		defer func() { bea.Conn.CloseNow(); <-done }()
		call := func(legal []json.RawMessage) json.RawMessage {
			for _, mv := range legal {
				if strings.Contains(string(mv), `"cabo"`) {
					held.Store(true)
					return mv
				}
			}
			return nil
		}
		g.until("Ann calls Cabo", call, func(v map[string]any) bool { return v["caller"] == 0.0 })
		p.both("the status line", `document.querySelector('#status').innerText`, "You called Cabo: 1 turn left", "Vous avez annoncé Cabo : encore 1 tour")
		close(release)
		g.until("the round's end", nil, func(v map[string]any) bool { return v["last_round"] != nil })
		p.both("the round's explanation", `document.querySelector('#explain').innerText`, "you", "vous")
	})
}
