package browser

import (
	"fmt"
	"strings"
	"testing"
	"time"

	cdpruntime "github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"
)

// helpPage is what the help test reads of a help page.
type helpPage struct {
	Path     string   `json:"path"`
	Lang     string   `json:"lang"`
	Game     string   `json:"game"`
	Title    string   `json:"title"`
	Text     string   `json:"text"`
	Cards    int      `json:"cards"`    // card pictures on the page
	Powers   []string `json:"powers"`   // the cards pictured in the powers section
	Overflow int      `json:"overflow"` // how far the page sticks out sideways
}

const readHelp = `(() => {
  const a = document.querySelector('article.help');
  const q = s => [...document.querySelectorAll(s)];
  return {path: location.pathname, lang: document.documentElement.lang,
    game: a ? a.dataset.game : '', title: a ? a.querySelector('h1').textContent : '', text: a ? a.textContent : '',
    cards: q('article.help .hcard svg').length,
    powers: q('article.help [data-section=powers] .hcard svg').map(s => s.getAttribute('aria-label')),
    overflow: document.documentElement.scrollWidth - window.innerWidth};
})()`

// A person opens Cabo's rules from the home page, reads them in English
// and in French, with the cards drawn as at the table; then, at a Cabo
// table, the hint line says what to do (and why a move was refused), and
// "?" opens the same rules over the table, closed with Escape.
func TestBrowserHelp(t *testing.T) {
	t.Parallel() // waits on conditions only: see parallel in page_test.go
	p := newPage(t, 20*time.Millisecond, 8*time.Minute)
	p.run("home page", chromedp.Navigate(p.h.URL+"/"), chromedp.WaitVisible(`#helplinks a[data-help=cabo]`, chromedp.ByQuery))
	p.click(`#helplinks a[data-help=cabo]`)
	var hp helpPage
	p.until("Cabo's help", readHelp, &hp, func() bool { return hp.Game == "cabo" })
	if hp.Path != "/help/cabo" || hp.Lang != "en" || hp.Title != "How to play Cabo" {
		t.Fatalf("the help page is %+v, want /help/cabo in English titled How to play Cabo", hp)
	}
	for _, want := range []string{"Peek", "Spy", "Swap", "Call Cabo", "Kamikaze"} {
		if !strings.Contains(hp.Text, want) {
			t.Errorf("Cabo's help does not say %q", want)
		}
	}
	// The powers are shown by the cards that have them, drawn by cards.js.
	if strings.Join(hp.Powers, ",") != "7,8,9,10,11,12" || hp.Cards < 15 {
		t.Errorf("Cabo's help pictures %d cards, its powers section %q; want 7 to 12 there", hp.Cards, hp.Powers)
	}

	// As a player sees it: on a phone and on a laptop.
	for _, size := range []struct{ w, h int64 }{{390, 844}, {1366, 768}} {
		p.run("viewport", chromedp.EmulateViewport(size.w, size.h))
		var inner int64
		p.until("the new width", `window.innerWidth`, &inner, func() bool { return inner == size.w })
		p.read(readHelp, &hp)
		if hp.Overflow > 0 {
			t.Errorf("at %d px the help page sticks out %d px sideways", size.w, hp.Overflow)
		}
		p.shoot(fmt.Sprintf("tapis-help-cabo-%d.png", size.w))
	}
	p.desktop()

	// The other games' pages are a link away, each with its cards.
	for _, g := range []struct{ name, title string }{{"papayoo", "How to play Papayoo"}, {"limits", "How to play Limits"}, {"dacapo", "How to play Da Capo!"}} {
		p.click(`.hnav a[data-help=` + g.name + `]`)
		p.until(g.name+"'s help", readHelp, &hp, func() bool { return hp.Game == g.name })
		if hp.Title != g.title || hp.Cards < 6 || hp.Path != "/help/"+g.name {
			t.Errorf("%s's help is titled %q at %s with %d cards", g.name, hp.Title, hp.Path, hp.Cards)
		}
		p.run("phone", chromedp.EmulateViewport(390, 844))
		p.shoot("tapis-help-" + g.name + "-390.png")
		p.desktop()
	}
	p.click(`.hnav a[data-help=cabo]`)
	p.until("Cabo's help again", readHelp, &hp, func() bool { return hp.Game == "cabo" })

	p.click(`#lang`)
	p.until("Cabo's help in French", readHelp, &hp, func() bool { return hp.Lang == "fr" && hp.Game == "cabo" })
	if hp.Title != "Comment jouer à Cabo" || !strings.Contains(hp.Text, "Coup d’œil") || !strings.Contains(hp.Text, "Annoncer Cabo") {
		t.Errorf("Cabo's help in French reads %q: %q", hp.Title, hp.Text)
	}
	p.shoot("tapis-help-cabo-fr.png")
	// Back to English for the table, the language being kept by the browser.
	p.click(`#lang`)
	p.until("English again", readHelp, &hp, func() bool { return hp.Lang == "en" })

	p.createTable(table{game: "cabo", players: 2, bots: []string{"easy"}}, `#game`)
	hint := func(what string, ok func(cls, text string) bool) string {
		t.Helper()
		var h struct{ Cls, Text string }
		p.until(what, `(() => { const e = document.querySelector('#hint'); return e ? {cls: e.className, text: e.textContent} : {}; })()`,
			&h, func() bool { return ok(h.Cls, h.Text) })
		return h.Text
	}
	hint("the hint to look at 2 cards", func(cls, text string) bool {
		return strings.Contains(cls, "mine") && text == "Your turn: choose 2 of your cards to look at, then press Look."
	})
	// The bot looks at its cards first, so that no move of its own clears
	// the refusal below from the line before it is read.
	var logged bool
	p.until("the bot's look", `[...document.querySelectorAll('#log li')].some(l => /^Bot 2 .* looked at 2 cards/.test(l.textContent))`,
		&logged, func() bool { return logged })
	// One card is not enough: the server refuses, and the line says why.
	p.click(`.player.mine .slot[data-slot="0"]`)
	p.click(`[data-action=look]`)
	hint("the refusal in the hint line", func(cls, text string) bool {
		return strings.Contains(cls, "refused") && text == "Not allowed: Choose exactly 2 of your cards."
	})
	p.click(`.player.mine .slot[data-slot="1"]`)
	p.click(`[data-action=look]`)
	// Seat 0 plays first: once both have looked, the line lists the moves.
	hint("the hint of the first turn", func(cls, text string) bool {
		return strings.Contains(cls, "mine") && strings.HasPrefix(text, "Your turn: draw a card") && strings.Contains(text, "call Cabo")
	})
	p.shoot("tapis-help-hint-desktop.png")
	p.run("phone", chromedp.EmulateViewport(390, 844))
	p.shoot("tapis-help-hint-390.png")
	p.desktop()

	// "?" shows the rules over the table, which stays underneath.
	p.click(`#helpbtn`)
	var over struct {
		Game, Focus string
		Table       bool
	}
	const readOver = `(() => { const d = document.querySelector('#help article.help');
		return {game: d ? d.dataset.game : '', focus: document.activeElement?.dataset?.action || '', table: !!document.querySelector('#game')}; })()`
	p.until("the help over the table", readOver, &over, func() bool { return over.Game == "cabo" })
	if over.Focus != "close-help" || !over.Table {
		t.Errorf("over the table the help has the focus on %q and the table is there: %v", over.Focus, over.Table)
	}
	p.run("screenshot", chromedp.EmulateViewport(390, 844))
	p.shoot("tapis-help-overlay-390.png")
	p.desktop()
	p.run("Escape", chromedp.KeyEvent(kb.Escape))
	p.until("the help closed", readOver, &over, func() bool { return over.Game == "" })
	if !over.Table {
		t.Error("the table went away with the help")
	}
}

// TestBrowserDictionaries checks, in the modules as the browser loads
// them, that English and French have the same keys, in i18n.js and in
// help.js, and no empty text: a key missing in one language would show
// the other language (or the key) to a player.
func TestBrowserDictionaries(t *testing.T) {
	t.Parallel() // waits on conditions only: see parallel in page_test.go
	p := newPage(t, 0, 2*time.Minute)
	p.run("home page", chromedp.Navigate(p.h.URL+"/"), chromedp.WaitVisible(`#create`, chromedp.ByQuery))
	var problems []string
	p.run("check the dictionaries", chromedp.Evaluate(`(async () => {
  const out = [];
  const check = (file, d) => {
    const langs = Object.keys(d || {});
    if (langs.length < 2) out.push(file + ': fewer than two languages');
    for (const a of langs) for (const b of langs) {
      if (a === b) continue;
      for (const k of Object.keys(d[a])) {
        if (!(k in d[b])) out.push(file + ': ' + k + ' is in ' + a + ', not in ' + b);
        else if (Array.isArray(d[a][k]) && [].concat(d[b][k]).length !== d[a][k].length) out.push(file + ': ' + k + ' has not as many paragraphs in ' + a + ' as in ' + b);
      }
    }
    for (const l of langs) for (const [k, v] of Object.entries(d[l])) {
      const vs = [].concat(v);
      if (!vs.length || vs.some(x => typeof x !== 'string' || !x.trim())) out.push(file + ': ' + l + ' ' + k + ' is empty');
    }
  };
  check('i18n.js', (await import('/static/i18n.js')).dicts);
  check('help.js', (await import('/static/help.js')).TEXTS);
  return out;
})()`, &problems, func(ep *cdpruntime.EvaluateParams) *cdpruntime.EvaluateParams { return ep.WithAwaitPromise(true) }))
	for _, pr := range problems {
		t.Error(pr)
	}
}

// TestBrowserHints checks the hint line's words for each game from states
// as the server sends them (the fields the hints read), in the module as
// the browser loads it: the seat's legal moves become the sentence.
func TestBrowserHints(t *testing.T) {
	t.Parallel() // waits on conditions only: see parallel in page_test.go
	p := newPage(t, 0, 2*time.Minute)
	p.run("home page", chromedp.Navigate(p.h.URL+"/"), chromedp.WaitVisible(`#create`, chromedp.ByQuery))
	var got map[string]string
	p.run("hints", chromedp.Evaluate(`(async () => {
  const { hintText } = await import('/static/help.js');
  const names = s => ['Ann', 'Bob', 'Cy'][s];
  const st = (view, legal, to_move = [0]) => ({ status: 'playing', to_move, legal, view });
  const play = cards => cards.map(card => ({ type: 'play', card }));
  return {
    cabo_peek: hintText('cabo', st({ phase: 'peek', options: { initial_peek: 3 } }, [{ type: 'peek_initial' }], [0, 1]), 0, names),
    cabo_drawn: hintText('cabo', st({ phase: 'drawn' }, [{ type: 'replace' }, { type: 'discard' }, { type: 'spy' }]), 0, names),
    papayoo_pass: hintText('papayoo', st({ phase: 'pass', pass_size: 5, my_pass: [], players: 3 }, [{ type: 'pass', card: 'S1' }], [0, 1, 2]), 0, names),
    papayoo_follow: hintText('papayoo', st({ phase: 'play', led: 'H' }, play(['H2', 'H9'])), 0, names),
    papayoo_any: hintText('papayoo', st({ phase: 'play', led: 'H' }, play(['S2', 'P9'])), 0, names),
    limits_hide: hintText('limits', st({ phase: 'hide', players: 2 }, [{ type: 'hide' }], [0, 1]), 0, names),
    limits_turn: hintText('limits', st({ phase: 'turn', led: true }, [{ type: 'place' }, { type: 'exchange' }, { type: 'accuse' }]), 0, names),
    dacapo: hintText('dacapo', st({}, [{ type: 'build' }, { type: 'helper' }]), 0, names),
    waiting: hintText('limits', st({ phase: 'hide' }, [], [1, 2]), 0, names),
    watching: hintText('dacapo', st({}, [], [1]), -1, names),
    refused: hintText('cabo', st({ phase: 'turn' }, [{ type: 'draw' }]), 0, names, 'Draw a card first.'),
    over: hintText('cabo', { status: 'over', to_move: [], legal: [], view: { phase: 'over' } }, 0, names),
  };
})()`, &got, func(ep *cdpruntime.EvaluateParams) *cdpruntime.EvaluateParams { return ep.WithAwaitPromise(true) }))
	want := map[string]string{
		"cabo_peek":      "Your turn: choose 3 of your cards to look at, then press Look.",
		"cabo_drawn":     "Your turn: keep the card in place of the card of yours you select (or of a set of equal cards), discard it or select another player’s card to spy on.",
		"papayoo_pass":   "Your turn: choose 5 cards to pass to your left neighbour, Bob, then press Pass.",
		"papayoo_follow": "Your turn: play a card of the suit led.",
		"papayoo_any":    "Your turn: you cannot follow, play any card.",
		"limits_hide":    "Your turn: hide 2 cards face down (select them, then press Hide); each raises its colour’s limit by 1.",
		"limits_turn":    "Your turn: place a card (tap a card, then the pile), exchange 4 cards of a colour or tap a player to accuse them.",
		"dacapo":         "Your turn: build on a centre pile (tap a glowing card, yours or an opponent’s, then a building pile) or put a hand card on a helper pile to end your turn (tap it, then the helper pile).",
		"waiting":        "Waiting for Bob and Cy.",
		"watching":       "You are watching: Bob to play.",
		"refused":        "Not allowed: Draw a card first.",
		"over":           "The game is over.",
	}
	for k, w := range want {
		if got[k] != w {
			t.Errorf("%s: the hint is %q, want %q", k, got[k], w)
		}
	}
}
