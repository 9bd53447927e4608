package browser

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"

	"tapis/tutorial"
)

// tutorialState is what the tutorials' test reads of the page.
type tutorialState struct {
	Mode   string    `json:"mode"` // "step", "waiting", "done", or "" without a panel
	Step   int       `json:"step"`
	Of     int       `json:"of"`
	Text   string    `json:"text"`
	Box    []float64 `json:"box"`
	Ring   []float64 `json:"ring"`
	Point  []float64 `json:"point"` // the step's point, [] when not on the page
	W      float64   `json:"w"`
	H      float64   `json:"h"`
	Lang   string    `json:"lang"`
	Guide  bool      `json:"guide"` // the first-turn guide's bubble is there too
	Stored string    `json:"stored"`
	Toast  string    `json:"toast"`
}

// inside says whether the panel is wholly inside the window.
func (s tutorialState) inside() bool {
	return len(s.Box) == 4 && s.Box[0] >= 0 && s.Box[1] >= 0 && s.Box[2] <= s.W && s.Box[3] <= s.H
}

// readTutorial reads a tutorialState; point is the step's selector.
func readTutorial(game, point string) string {
	return fmt.Sprintf(`(() => {
  const b = document.querySelector('#tutorial'), r = document.querySelector('.guide-ring'), pt = %q && document.querySelector(%q);
  const rect = e => { const x = e.getBoundingClientRect(); return [x.left, x.top, x.right, x.bottom]; };
  const toast = document.querySelector('#toast.show');
  return {mode: b ? b.dataset.mode : '', step: b ? +b.dataset.step : 0, of: b ? +b.dataset.of : 0,
    text: b ? b.querySelector('.guide-text').textContent : '', box: b ? rect(b) : [],
    ring: r && r.style.display !== 'none' ? rect(r) : [], point: pt ? rect(pt) : [],
    w: document.documentElement.clientWidth, h: window.innerHeight, lang: document.documentElement.lang,
    guide: !!document.querySelector('#guide'), stored: localStorage.getItem('tapis.tutorial.%s') || '',
    toast: toast ? toast.textContent : ''};
})()`, point, point, game)
}

// caboSlot is the selector of seat's slot in a two-player Cabo screen
// seen from seat 0.
func caboSlot(seat, slot int) string {
	if seat == tutorial.Seat {
		return mySlot(slot)
	}
	return fmt.Sprintf(`.player:not(.mine) .slot[data-slot="%d"]`, slot)
}

// playCabo makes the Cabo move m by clicking, as the step's words say.
func (p *page) playCabo(m json.RawMessage) {
	p.t.Helper()
	var mv struct {
		Type  string
		Slots []int
		Slot  int
		Seat  int
		A, B  struct{ Seat, Slot int }
	}
	if err := json.Unmarshal(m, &mv); err != nil {
		p.t.Fatal(err)
	}
	press := func(action string) { p.pressWhen(fmt.Sprintf(`[data-action=%s]:not([disabled])`, action)) }
	switch mv.Type {
	case "peek_initial":
		for _, s := range mv.Slots {
			p.click(mySlot(s))
		}
		press("look")
	case "draw":
		press("drawpile")
	case "replace":
		for _, s := range mv.Slots {
			p.click(mySlot(s))
		}
		press("replace")
	case "discard":
		press("discard")
	case "peek":
		p.click(mySlot(mv.Slot))
		press("peek")
	case "spy":
		p.click(caboSlot(mv.Seat, mv.Slot))
		press("spy")
	case "swap":
		p.click(caboSlot(mv.A.Seat, mv.A.Slot))
		p.click(caboSlot(mv.B.Seat, mv.B.Slot))
		press("swap")
	case "cabo":
		// A player's first games ask before a call (settings.js); the
		// step says to confirm.
		press("cabo")
		p.pressWhen(`#confirm-cabo [data-action=confirm-cabo]`)
	default:
		p.t.Fatalf("no click for %s", m)
	}
}

// playPapayoo makes the Papayoo move m by clicking: the cards of a pass
// then its button, or the card played.
func (p *page) playPapayoo(m json.RawMessage) {
	p.t.Helper()
	var mv struct {
		Type  string
		Card  string
		Cards []string
	}
	if err := json.Unmarshal(m, &mv); err != nil {
		p.t.Fatal(err)
	}
	card := func(c string) string { return fmt.Sprintf(`#hand [data-card="%s"]:not([disabled])`, c) }
	switch mv.Type {
	case "pass":
		for _, c := range mv.Cards {
			p.pressWhen(card(c))
		}
		p.pressWhen(`#pass:not([disabled])`)
	case "play":
		p.pressWhen(card(mv.Card))
	default:
		p.t.Fatalf("no click for %s", m)
	}
}

// playLimits makes the Limits move m by clicking: a hand card then its
// button, the exchange's button, or a seat then Accuse.
func (p *page) playLimits(m json.RawMessage) {
	p.t.Helper()
	var mv struct {
		Type  string
		Card  string
		Cards []string
		Color string
		Seat  int
	}
	if err := json.Unmarshal(m, &mv); err != nil {
		p.t.Fatal(err)
	}
	card := func(c string) string { return fmt.Sprintf(`.lim-hand [data-card="%s"]:not([disabled])`, c) }
	switch mv.Type {
	case "hide":
		for _, c := range mv.Cards {
			p.pressWhen(card(c))
		}
		p.pressWhen(`[data-action=hide]:not([disabled])`)
	case "place":
		p.pressWhen(card(mv.Card))
		p.pressWhen(`[data-action=place]:not([disabled])`)
	case "exchange":
		p.pressWhen(fmt.Sprintf(`[data-action=exchange][data-color="%s"]:not([disabled])`, mv.Color))
	case "accuse":
		p.pressWhen(fmt.Sprintf(`button.lim-opp[data-seat="%d"]:not([disabled])`, mv.Seat))
		p.pressWhen(`[data-action=accuse]:not([disabled])`)
	default:
		p.t.Fatalf("no click for %s", m)
	}
}

// playDacapo makes the Da Capo! move m by clicking: a source (the
// personal pile, a hand card, a helper pile, an opponent's pile), then a
// building pile or a helper pile; or End turn.
func (p *page) playDacapo(m json.RawMessage) {
	p.t.Helper()
	var mv struct {
		Type        string
		From        string
		Card        json.RawMessage
		Pile, Index int
		Seat        int
	}
	if err := json.Unmarshal(m, &mv); err != nil {
		p.t.Fatal(err)
	}
	card := strings.Trim(string(mv.Card), `"`)
	pile := fmt.Sprintf(`[data-pile="%d"]:not([disabled])`, mv.Pile)
	switch {
	case mv.Type == "end":
		p.pressWhen(`[data-action=end]:not([disabled])`)
	case mv.Type == "helper":
		p.pressWhen(fmt.Sprintf(`[data-src=hand][data-card="%s"]:not([disabled])`, card))
		p.pressWhen(fmt.Sprintf(`[data-helper="%d"]:not([disabled])`, mv.Index))
	case mv.From == "stock":
		p.pressWhen(`[data-src=stock]:not([disabled])`)
		p.pressWhen(pile)
	case mv.From == "hand":
		p.pressWhen(fmt.Sprintf(`[data-src=hand][data-card="%s"]:not([disabled])`, card))
		p.pressWhen(pile)
	case mv.From == "helper":
		p.pressWhen(fmt.Sprintf(`[data-src=helper][data-index="%d"]:not([disabled])`, mv.Index))
		p.pressWhen(pile)
	case mv.From == "opponent":
		p.pressWhen(fmt.Sprintf(`[data-src=opponent][data-seat="%d"]:not([disabled])`, mv.Seat))
		p.pressWhen(pile)
	default:
		p.t.Fatalf("no click for %s", m)
	}
}

// A tutorial run: how it starts, in which language, at which size.
type tutorialRun struct {
	lang string
	w, h int64
	// from: "help" (the help page's Tutorial button), "offer" (the offer
	// at a first table against a bot), "home" (the home page's link).
	from string
	// upTo, if not 0, is the last step played: the run stops there,
	// having tried what it is for (see testTutorial).
	upTo int
}

// Cabo's tutorial, completed end to end by clicking, in English and in
// French on a phone, and in English on a laptop: each step's words are
// the script's in the page's language, its outline on what the step is
// done with, its panel inside the window; another move is refused in
// words; the tutorial is left and resumed from the home page; at its end
// the summary offers a real game. Every step is played in French on a
// phone (the longer words on the smaller screen) and in English on a
// laptop; the English phone run, which is there for the help page's way
// in, the refusal and the leaving and resuming, stops at step 6: the
// rest of its steps is what the other two runs check (each whole run
// costs a minute or two of the browser tests' time).
func TestBrowserTutorialCabo(t *testing.T) { testTutorial(t, "cabo") }

// Papayoo's tutorial, as Cabo's: the pass, the die, following suit,
// playing off suit when void, a trick's points, a whole round.
func TestBrowserTutorialPapayoo(t *testing.T) { testTutorial(t, "papayoo") }

// Limits' tutorial: hiding, placing, exchanging, accusing and the
// accusation's resolution.
func TestBrowserTutorialLimits(t *testing.T) { testTutorial(t, "limits") }

// Da Capo!'s tutorial: building from the personal pile, the hand, a
// helper pile and an opponent's pile, Jokers, a completed pile, refills,
// a card onto a helper pile, and end.
func TestBrowserTutorialDacapo(t *testing.T) { testTutorial(t, "dacapo") }

func testTutorial(t *testing.T, game string) {
	t.Parallel() // waits on conditions only: see parallel in page_test.go
	sc, ok := tutorial.For(game)
	if !ok {
		t.Fatalf("no %s tutorial", game)
	}
	for _, run := range []tutorialRun{{"en", 390, 844, "help", 6}, {"fr", 390, 844, "offer", 0}, {"en", 1366, 768, "home", 0}} {
		t.Run(fmt.Sprintf("%s-%d-%s", run.lang, run.w, run.from), func(t *testing.T) {
			p := newPage(t, 20*time.Millisecond, 6*time.Minute)
			p.dir = screenshotDir(p.dir)
			p.run("size", chromedp.EmulateViewport(run.w, run.h))
			p.playTutorial(sc, run)
		})
	}
}

// playTutorial plays the tutorial sc as run says.
func (p *page) playTutorial(sc *tutorial.Script, run tutorialRun) {
	t := p.t
	t.Helper()
	game := sc.Game
	var s tutorialState
	read := func(point string) string { return readTutorial(game, point) }
	shot := func(what string) { p.shoot(fmt.Sprintf("tapis-tutorial-%s-%s-%s-%d.png", game, what, run.lang, run.w)) }
	french := func() {
		p.click(`#lang`)
		p.until("the page in French", read(""), &s, func() bool { return s.Lang == "fr" })
	}
	switch run.from {
	case "help":
		p.run("the help page", chromedp.Navigate(p.h.URL+"/help/"+game), chromedp.WaitVisible(`#helppage`, chromedp.ByQuery))
		if run.lang == "fr" {
			french()
		}
		var links string
		p.until("the help page's tutorial link", `document.querySelector('#helppage .tutlinks')?.innerText || ''`, &links, func() bool { return links != "" })
		if want := map[string]string{"en": "Tutorial", "fr": "Tutoriel"}[run.lang]; links != want {
			t.Errorf("the help page's tutorial links read %q, want %q", links, want)
		}
		p.pressWhen(`#helppage [data-action=tutorial-start]`)
	case "home":
		p.run("the home page", chromedp.Navigate(p.h.URL+"/"), chromedp.WaitVisible(`#create`, chromedp.ByQuery))
		if run.lang == "fr" {
			french()
		}
		p.pressWhen(fmt.Sprintf(`#helplinks [data-action=tutorial-start][data-game=%s]`, game))
	case "offer":
		// A first table of the game against a bot offers the tutorial.
		p.fill(table{game: game, players: sc.Players})
		if run.lang == "fr" {
			french()
		}
		p.create(`#game`)
		var g guideState
		p.until("the guide's offer of the tutorial", readGuide(game), &g, func() bool { return g.Mode == "offer" })
		title := map[string]string{"cabo": "Cabo", "papayoo": "Papayoo", "limits": "Limits", "dacapo": "Da Capo!"}[game]
		want := "New to " + title + "? Learn it by playing the tutorial"
		if run.lang == "fr" {
			want = "Nouveau à " + title + " ? Apprenez en jouant le tutoriel"
		}
		if !strings.HasPrefix(g.Text, want) {
			t.Errorf("the offer reads %q", g.Text)
		}
		// The bots play on under the offer, and a redraw may move its
		// button between the read of its place and the press: a person
		// seeing nothing happen presses again.
		p.clickFor(`#guide [data-action=guide-tutorial]`, "the tutorial started", read(""), &s, func() bool { return s.Mode != "" })
	}
	refused, resumed := false, false
	step := 0
	for i, m := range sc.Moves {
		if m.Step == nil {
			continue
		}
		step++
		if run.upTo > 0 && step > run.upTo {
			if !resumed || !refused && game == "cabo" {
				t.Fatal("the run did not try everything")
			}
			return
		}
		words := m.Step.Text.In(run.lang)
		p.until(fmt.Sprintf("step %d", step), read(m.Step.Point), &s, func() bool {
			return s.Mode == "step" && s.Step == step && s.Text == words && outlines(s.Ring, s.Point)
		})
		if s.Of != sc.Steps() || s.Guide || s.Lang != run.lang || !s.inside() {
			t.Fatalf("step %d: %+v", step, s)
		}
		switch {
		case step == 1:
			shot("start")
			// The panel's "Leave the tutorial" is the way out: the seat's
			// "Leave the table" is not shown.
			var leave bool
			p.read(`!!document.querySelector('[data-action=leave], [data-action=close-table]')`, &leave)
			if leave {
				t.Error("a tutorial table shows the seat's leave button")
			}
			if !refused && game == "cabo" {
				// Two other cards: the tutorial refuses, and says why.
				p.click(mySlot(2))
				p.click(mySlot(3))
				p.pressWhen(`[data-action=look]:not([disabled])`)
				want := "The tutorial asks for another move here: follow its step."
				if run.lang == "fr" {
					want = "Le tutoriel attend un autre coup ici : suivez son étape."
				}
				p.until("the refusal", read(""), &s, func() bool { return s.Toast == want })
				p.click(mySlot(2))
				p.click(mySlot(3))
				refused = true
			}
		case step == sc.Steps()/2:
			shot("middle")
		case step == 5 && run.from == "help" && !resumed:
			// Left, then resumed from the home page.
			id := s.Stored
			p.click(`#tutorial [data-action=tutorial-leave]`)
			p.run("home", chromedp.WaitVisible(`#create`, chromedp.ByQuery))
			var links string
			p.until("the home page's resume link", fmt.Sprintf(`document.querySelector('#helplinks [data-tutorial=%s]')?.innerText || ''`, game), &links,
				func() bool { return strings.Contains(links, "Resume") })
			if links != "Tutorial\nResume the tutorial" && links != "TutorialResume the tutorial" {
				t.Errorf("the home page's tutorial links read %q", links)
			}
			p.pressWhen(fmt.Sprintf(`#helplinks [data-action=tutorial-resume][data-game=%s]`, game))
			p.until("the same step again", read(m.Step.Point), &s, func() bool { return s.Mode == "step" && s.Step == step })
			if s.Stored != id || id == "" {
				t.Fatalf("resumed table %q, left %q", s.Stored, id)
			}
			resumed = true
		}
		_ = i
		switch game {
		case "cabo":
			p.playCabo(m.Move)
		case "papayoo":
			p.playPapayoo(m.Move)
		case "limits":
			p.playLimits(m.Move)
		case "dacapo":
			p.playDacapo(m.Move)
		default:
			t.Fatalf("no clicks for %s", game)
		}
	}
	end := sc.End.In(run.lang)
	p.until("the summary", read(""), &s, func() bool { return s.Mode == "done" && s.Text == end })
	if !s.inside() || s.Stored != "" {
		t.Fatalf("the end: %+v", s)
	}
	if run.from == "help" && (!refused && game == "cabo" || !resumed) {
		t.Fatal("the run did not try everything")
	}
	shot("end")
	p.click(`#tutorial [data-action=tutorial-real]`)
	p.run("a real game", chromedp.WaitVisible(`#create`, chromedp.ByQuery))
}

// The tutorial is offered on the home page to a player new to a game, as
// they pick it, beside what they picked: the create form's game (chosen
// with the keyboard, as a person does) and the lobby's filter; once per
// game in a browser. "Play the tutorial" starts it; "No thanks" takes the
// offer away, and picking the game again offers nothing. A page that
// sets a choice itself (the other tests' forms) is offered nothing.
func TestBrowserTutorialOffer(t *testing.T) {
	t.Parallel() // waits on conditions only: see parallel in page_test.go
	p := newPage(t, 20*time.Millisecond, 3*time.Minute)
	p.dir = screenshotDir(p.dir)
	p.run("size", chromedp.EmulateViewport(390, 844))
	p.run("the home page", chromedp.Navigate(p.h.URL+"/"), chromedp.WaitVisible(`#create`, chromedp.ByQuery))
	type offerState struct {
		Game, Where, Text string
		Box               []float64
		H                 float64
	}
	var o offerState
	readOffer := `(() => { const b = document.querySelector('#tutoffer'); const r = b?.getBoundingClientRect();
  return {game: b?.dataset.game || '', where: b?.parentElement?.closest('section, form')?.id || '', text: b?.querySelector('p').textContent || '',
    box: r ? [r.left, r.top, r.right, r.bottom] : [], h: window.innerHeight}; })()`

	// A choice set by the page itself offers nothing.
	p.run("a game set by script", setValue(`#create select[name=game]`, "limits"), setValue(`#create select[name=game]`, "cabo"))
	p.read(readOffer, &o)
	if o.Game != "" {
		t.Fatalf("a game set by the page's script is offered: %+v", o)
	}

	// The lobby's filter: offered there; No thanks.
	p.click(`[data-lobby-game=papayoo]`)
	p.until("the offer in the lobby", readOffer, &o, func() bool { return o.Game == "papayoo" })
	if o.Where != "lobby" || !strings.HasPrefix(o.Text, "New to Papayoo? Learn it by playing the tutorial") || len(o.Box) != 4 || o.Box[3] > o.H+1 {
		t.Fatalf("the lobby's offer: %+v", o)
	}
	p.shoot("tapis-tutorial-offer-lobby-390.png")
	p.click(`#tutoffer [data-action=tutoffer-no]`)
	p.until("the offer gone", readOffer, &o, func() bool { return o.Game == "" })
	// Once per game: the filter again offers nothing.
	p.click(`[data-lobby-game=""]`)
	// The whole lobby drawn first: a press while it is drawn again may
	// land on the chip it replaces.
	var all bool
	p.until("the whole lobby", `document.querySelector('[data-lobby-game=""]').getAttribute('aria-pressed') === 'true' && !!document.querySelector('#lobby-empty, #lobby li')`, &all, func() bool { return all })
	p.click(`[data-lobby-game=papayoo]`)
	var filtered bool
	p.until("the lobby filtered again", `document.querySelector('[data-lobby-game=papayoo]').getAttribute('aria-pressed') === 'true' && !!document.querySelector('#lobby-empty, #lobby li')`, &filtered, func() bool { return filtered })
	if p.read(readOffer, &o); o.Game != "" {
		t.Fatalf("offered a second time: %+v", o)
	}

	// The create form's game, picked with the keyboard (past Papayoo,
	// offered already): offered in the form, and taken.
	var picked string
	p.eval("focus the game", `(() => { const s = document.querySelector('#create select[name=game]'); s.focus(); return s.value; })()`, &picked)
	for picked == "cabo" || picked == "papayoo" {
		was := picked
		p.run("the next game", chromedp.KeyEvent(kb.ArrowDown))
		p.until("another game picked", `document.querySelector('#create select[name=game]').value`, &picked, func() bool { return picked != was })
	}
	p.until("the offer in the form", readOffer, &o, func() bool { return o.Game == picked })
	title := map[string]string{"limits": "Limits", "dacapo": "Da Capo!"}[picked]
	if o.Where != "create" || !strings.HasPrefix(o.Text, "New to "+title+"? Learn it by playing the tutorial") || len(o.Box) != 4 || o.Box[3] > o.H+1 {
		t.Fatalf("the form's offer: %+v", o)
	}
	p.shoot("tapis-tutorial-offer-create-390.png")
	p.click(`#tutoffer [data-action=tutoffer-play]`)
	var s tutorialState
	p.until("the tutorial's first step", readTutorial(picked, ""), &s, func() bool { return s.Mode == "step" && s.Step == 1 })
}
