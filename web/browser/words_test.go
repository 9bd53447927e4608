package browser

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	cdpruntime "github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/chromedp"

	"tapis/game"
	"tapis/server/servertest"
)

// wordsGame is a short game the words test plays: its table, and whether
// it stops after its first round to read the round's end panel.
type wordsGame struct {
	game  string
	bots  []string
	opts  string
	round bool // read the first round's end panel
}

// The words of every game, as a player reads them: each of the four games
// is played to its end with bots, and the page's log, the round and game
// end panels and the replay viewer's captions are read in English and in
// French. None may leave a plural to the reader ("card(s)"), show a move's
// raw fields ("index 0", "·" lists), a dictionary key or a placeholder for
// a missing word, English words on a French page (or French on an
// English one), "a 8", "de Ann", or "Ann (you)’s". The end panels and the
// viewer are photographed at 390×844 and 1366×768.
func TestBrowserWords(t *testing.T) {
	t.Parallel() // waits on conditions only: see parallel in page_test.go
	// Each part has its own browser and server and runs beside the
	// others: one after the other they took most of the package's time.
	t.Run("lobby", func(t *testing.T) {
		t.Parallel()
		wordsPage(t).lobbyWords()
	})
	t.Run("cabo-scoring", func(t *testing.T) {
		t.Parallel()
		wordsPage(t).caboScoring()
	})
	for i, g := range []wordsGame{
		{"cabo", []string{"", "random", "random"}, "", true},
		{"papayoo", []string{"", "random", "random"}, `{"rounds":2}`, true},
		{"limits", []string{"", "random"}, "", false},
		{"dacapo", []string{"", "random", "random"}, `{"pile_size":5}`, false},
	} {
		t.Run(g.game, func(t *testing.T) {
			t.Parallel()
			wordsPage(t).words(g, uint64(i+1))
		})
	}
}

// wordsPage is a part of TestBrowserWords' page: its bots play at once.
func wordsPage(t *testing.T) *page {
	p := newPage(t, time.Millisecond, 15*time.Minute)
	t.Logf("screenshots in %s", p.dir)
	return p
}

// words plays g as Ann (seat 0) over a WebSocket, at random, while the
// page follows the table as Ann, and reads and checks its words.
func (p *page) words(g wordsGame, seed uint64) {
	t := p.t
	ann := p.h.Create(g.game, g.bots, "Ann", g.opts)
	p.run("the page as Ann", chromedp.EmulateViewport(1366, 768),
		chromedp.Navigate(p.h.URL+"/"), chromedp.WaitVisible(`#create`, chromedp.ByQuery),
		chromedp.Evaluate(fmt.Sprintf(`localStorage.setItem('tapis.seat.%s', JSON.stringify({seat: 0, token: %q}));
			localStorage.setItem('tapis.guide.%s', 'no'); localStorage.setItem('tapis.lang', 'en');`, ann.Table, ann.Token, g.game), nil),
		chromedp.Navigate(p.h.URL+"/t/"+ann.Table), chromedp.WaitVisible(`#game`, chromedp.ByQuery))
	c := p.h.Dial(ann.Table, ann.Token)
	rng := rand.New(rand.NewPCG(seed, 26))
	var round struct {
		Round int `json:"round"`
	}
	m := playOn(t, c, ann.Seat, rng, nil, func(m servertest.Msg) bool {
		if !g.round {
			return false
		}
		_ = json.Unmarshal(m.View, &round)
		return round.Round >= 2
	})
	var texts []string // every text read, to check
	if g.round && m.Status != "over" {
		// The first round's end panel, in both languages.
		for _, lang := range []string{"en", "fr"} {
			panel := p.panel("round", lang)
			// The panel says where its numbers come from: who scores 0
			// (and why), who took the Papayoo.
			says := map[string]map[string]string{
				"cabo":    {"en": " scores 0", "fr": " marque 0"},
				"papayoo": {"en": "took the Papayoo (", "fr": "ramassé le Papayoo ("},
			}[g.game][lang]
			if !strings.Contains(panel, says) {
				t.Errorf("%s: the round's panel does not say %q: %q", lang, says, panel)
			}
			texts = append(texts, lang+"\t"+panel)
			p.shootWords(g.game + "-round-" + lang)
			p.click(`#lang`)
		}
		p.click(`[data-action=close-overlay]`)
		m = playOn(t, c, ann.Seat, rng, &m, func(servertest.Msg) bool { return false })
	}
	if m.Status != "over" {
		t.Fatalf("the game did not end: %+v", m.Status)
	}
	// The game's end: its panel and the log, in both languages.
	for _, lang := range []string{"en", "fr"} {
		panel := p.panel("over", lang)
		texts = append(texts, lang+"\t"+panel)
		var log []string
		p.eval("the log", `[...document.querySelectorAll('#log li')].map(l => l.innerText)`, &log)
		if len(log) < 20 {
			t.Fatalf("%s: the log has %d lines: %q", lang, len(log), log)
		}
		for _, l := range log {
			texts = append(texts, lang+"\t"+l)
			// Issue 26 (screenshots fixes): my own moves are said to me.
			if ownMove.MatchString(l) || nested(l) {
				t.Errorf("%s: a log line not said to its player, or with brackets in brackets: %q", lang, l)
			}
		}
		p.shootWords(g.game + "-over-" + lang)
		p.click(`#lang`)
	}
	// The replay viewer's captions, as Ann saw the match and with every
	// card shown, in both languages.
	p.run("the replay viewer", chromedp.Navigate(fmt.Sprintf("%s/m/%s/1", p.h.URL, ann.Table)))
	for _, lang := range []string{"en", "fr"} {
		for _, seat := range []string{"0", "all"} {
			caps := p.captions(seat, lang)
			said := 0
			for _, c := range caps {
				texts = append(texts, lang+"\t"+c)
				// A caption is a sentence, not a move's fields.
				if rawMove.MatchString(c) {
					t.Errorf("%s: a replay caption lists the move's fields: %q", lang, c)
				}
				// Issue 27: Ann's own moves are said to her, the page
				// holding her seat ("You play…", "Vous jouez…").
				if strings.HasPrefix(c, map[string]string{"en": "You ", "fr": "Vous "}[lang]) {
					said++
				}
				if ownMove.MatchString(c) || strings.HasPrefix(c, "Ann ") {
					t.Errorf("%s: a caption of Ann's move not said to her: %q", lang, c)
				}
			}
			if said == 0 {
				t.Errorf("%s, as seen by %s: no caption says Ann's moves to her", lang, seat)
			}
		}
		p.shootWords(g.game + "-replay-" + lang)
		p.click(`#lang`)
	}
	// Written beside the screenshots, to be read by a person too.
	if err := os.WriteFile(filepath.Join(p.dir, "words-"+g.game+".txt"), []byte(strings.Join(texts, "\n")+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, s := range texts {
		lang, text, _ := strings.Cut(s, "\t")
		if why := badWords(lang, text); why != "" {
			t.Errorf("%s %s: %s: %q", g.game, lang, why, text)
		}
	}
}

// playOn plays seat's moves at random from the legal moves the server
// sends (starting with from, a state already read, if any) until the
// match is over or stop says so; it returns the last state.
func playOn(t *testing.T, c *servertest.Client, seat game.Seat, rng *rand.Rand, from *servertest.Msg, stop func(servertest.Msg) bool) servertest.Msg {
	t.Helper()
	pending := false
	for {
		var m servertest.Msg
		if from != nil {
			m, from = *from, nil
		} else {
			m = c.Next("state", "error")
		}
		if m.Type == "error" {
			t.Fatalf("seat %d: error %s: %s", seat, m.Code, m.Error)
		}
		if m.Status == "over" || stop(m) {
			return m
		}
		if m.By == seat {
			pending = false
		}
		if !pending && slices.Contains(m.ToMove, seat) && len(m.Legal) > 0 {
			pending = true
			c.Send(map[string]any{"type": "move", "move": m.Legal[rng.IntN(len(m.Legal))]})
		}
	}
}

// panel waits for the table's panel of kind (a round's or the game's end)
// in lang and gives its text, one line per paragraph or row.
func (p *page) panel(kind, lang string) string {
	p.t.Helper()
	var r struct {
		Kind string `json:"kind"`
		Lang string `json:"lang"`
		Text string `json:"text"`
	}
	p.until("the "+kind+" panel in "+lang, `(() => { const o = document.querySelector('#overlay');
		return {kind: o ? o.dataset.kind : '', lang: document.documentElement.lang, text: o ? o.innerText : ''}; })()`, &r,
		func() bool { return r.Kind == kind && r.Lang == lang })
	return r.Text
}

// captions steps the replay viewer, as seat saw the match ("all": every
// card shown), through every move, and gives each move's caption.
func (p *page) captions(seat, lang string) []string {
	p.t.Helper()
	var ready bool
	p.until("the viewer in "+lang, fmt.Sprintf(`(() => { const s = document.querySelector('#hist-seat');
		if (!s || document.documentElement.lang !== %q) return false;
		if (s.value !== %q) { s.value = %q; s.dispatchEvent(new Event('change')); return false; }
		return Number(document.querySelector('#hist-slider').max) > 0 && (%q !== 'all' || !!document.querySelector('#hist-all li')); })()`,
		lang, seat, seat, seat), &ready, func() bool { return ready })
	var caps []string
	p.run("the captions", chromedp.Evaluate(`(() => {
		const s = document.querySelector('#hist-slider'), out = [];
		const at = i => { s.value = String(i); s.dispatchEvent(new Event('input')); };
		for (let i = 1; i <= Number(s.max); i++) { at(i); out.push(document.querySelector('#hist-move').textContent); }
		at(Math.floor(Number(s.max) / 2));
		return out;
	})()`, &caps, func(e *cdpruntime.EvaluateParams) *cdpruntime.EvaluateParams { return e.WithAwaitPromise(true) }))
	if len(caps) < 10 {
		p.t.Fatalf("%s: the viewer has %d moves", lang, len(caps))
	}
	return caps
}

// shootWords photographs the window at a phone's size and a laptop's;
// the whole page when full.
func (p *page) shootWords(name string, full ...bool) {
	p.t.Helper()
	if err := os.MkdirAll(p.dir, 0o755); err != nil {
		p.t.Fatal(err)
	}
	for _, sz := range [][2]int64{{390, 844}, {1366, 768}} {
		var png []byte
		var w int64
		p.run("resize", chromedp.EmulateViewport(sz[0], sz[1]))
		p.until("the new size", `window.innerWidth`, &w, func() bool { return w == sz[0] })
		shot := chromedp.CaptureScreenshot(&png)
		if len(full) > 0 && full[0] {
			shot = chromedp.FullScreenshot(&png, 100)
		}
		p.run("screenshot "+name, chromedp.Sleep(300*time.Millisecond), shot)
		if err := os.WriteFile(filepath.Join(p.dir, fmt.Sprintf("words-%s-%d.png", name, sz[0])), png, 0o644); err != nil {
			p.t.Fatal(err)
		}
	}
}

// The tell-tale words of a language on the other's page: common words a
// sentence of it cannot do without, none of which is a name at the table.
var (
	englishWords = regexp.MustCompile(`(?i)\b(the|and|of|to|with|you|your|takes|plays|draws|discards|turn|cards?|round|winners?|wins|won|hides|places|accuses|game|left|drawn|from|their|calls|over)\b`)
	frenchWords  = regexp.MustCompile(`(?i)(^|[\s(])(le|la|les|de|des|du|et|vous|votre|cartes?|manche|pioche|joue|gagne|tour|sur|avec)\b`)
	// A plural or an agreement left to the reader: "card(s)", "libre(s)".
	parenEnding = regexp.MustCompile(`\p{L}\((?:s|e|es|x|nt|ent)\)`)
	// A missing word: a dictionary key (i18n.js's t gives the key when no
	// dictionary has it), a placeholder left unfilled, a value that is no
	// word.
	rawKey = regexp.MustCompile(`\b(cabo|papayoo|limits|dacapo|table|log|replay|history|sheet|hint|opt|fix|why|err|guide|memory|rated)\.[a-z_]+`)
	// A move's fields listed as the viewer once did: "helper · card 9 ·
	// index 0", "peek_initial".
	// A sentence of the log whose subject is the page's own player by
	// name: "Ann (you) plays", "Ann (vous) joue" (issue 26).
	ownMove = regexp.MustCompile(`(^|[.!?;] |cost |coûte )Ann \((you|vous)\) \p{Ll}`)
	// Anywhere, the page's own player by name followed by a word of the
	// sentence, a verb of the third person ("· Ann (you) deals", "; Ann
	// (you) takes", "Kamikaze: Ann (you) holds"), or by a colon as a
	// list's label ("Hidden cards: Bot 2: red; Ann (you): blue"): it is
	// "you" (issue 26, words). A name before a number (a score) is not.
	ownSubject = regexp.MustCompile(`Ann \((you|vous)\)( \p{Ll}| ?:)`)
	rawMove    = regexp.MustCompile(`·|_|\bindex\b|\bslots \d`)
	hole       = regexp.MustCompile(`\{\w+\}|\bundefined\b|\bNaN\b|\bnull\b|\[object|"type"`)
)

// badWords says what is wrong with a text of the page in lang, or "".
func badWords(lang, text string) string {
	// Names that are the same in both languages.
	plain := strings.NewReplacer("Da Capo!", "", "Cabo", "", "Papayoo", "", "Payoo", "", "Limits", "", "Joker", "").Replace(text)
	switch {
	case parenEnding.MatchString(text):
		return "a plural left to the reader"
	case rawKey.MatchString(text):
		return "a dictionary key instead of words"
	case hole.MatchString(text):
		return "a missing word"
	case strings.Contains(text, "(you)’s") || strings.Contains(text, "(you)'s"):
		return "a possessive of \"(you)\""
	case ownSubject.MatchString(text):
		return "the page's own player named as a subject, not \"you\""
	case lang == "en" && regexp.MustCompile(`\b[aA] (8|11|18)\b`).MatchString(text):
		return "\"a\" before a number said with a vowel"
	case lang == "fr" && regexp.MustCompile(`\b(de|que) [AEIOUÉaeioué]`).MatchString(text):
		return "no elision"
	case lang == "fr" && englishWords.MatchString(plain):
		return fmt.Sprintf("English on the French page (%q)", englishWords.FindString(plain))
	case lang == "en" && frenchWords.MatchString(plain):
		return fmt.Sprintf("French on the English page (%q)", frenchWords.FindString(plain))
	}
	return ""
}

// lobbyWords reads the home page in both languages: a waiting table's
// options by their short names ("Rounds: 2", not the form's "Rounds
// (empty: one per player): 2"), the rules' links as a list in the site's
// colours, and the Papayoo rounds field wide enough for its placeholder.
func (p *page) lobbyWords() {
	t := p.t
	var r servertest.Seat
	if code := p.h.Post("/api/tables", map[string]any{"game": "papayoo", "players": 3, "bots": []string{"", "", "random"},
		"name": "Cy", "options": map[string]any{"rounds": 2}, "public": true}, &r); code != 201 {
		t.Fatalf("create a public table: status %d", code)
	}
	// The lobby lists a table once someone seated has opened it.
	p.h.Dial(r.Table, r.Token).Next()
	p.run("home page", chromedp.EmulateViewport(1366, 768), chromedp.Navigate(p.h.URL+"/"),
		chromedp.Evaluate(`localStorage.setItem('tapis.lang', 'en')`, nil), chromedp.Reload(),
		chromedp.WaitVisible(`#create`, chromedp.ByQuery), setValue(`select[name=game]`, "papayoo"),
		chromedp.WaitVisible(`input[name=rounds]`, chromedp.ByQuery))
	var home struct {
		Lang, Rules, Heading, LinkColor, ListDisplay string
		Links                                        int
		Placeholder                                  string
		Fits                                         bool
	}
	read := fmt.Sprintf(`(() => {
		const row = document.querySelector('#lobby li[data-table=%q] .lrules'), in_ = document.querySelector('input[name=rounds]');
		const a = document.querySelector('#helplinks a'), cs = getComputedStyle(in_);
		const ctx = document.createElement('canvas').getContext('2d'); ctx.font = cs.font;
		const room = in_.clientWidth - parseFloat(cs.paddingLeft) - parseFloat(cs.paddingRight) - 24; // the spinner
		return {Lang: document.documentElement.lang, Rules: row ? row.innerText : '',
			Heading: document.querySelector('#helplinks h2')?.innerText || '', Links: document.querySelectorAll('#helplinks li a').length,
			LinkColor: a ? getComputedStyle(a).color : '', ListDisplay: getComputedStyle(document.querySelector('#helplinks ul')).display,
			Placeholder: in_.placeholder, Fits: ctx.measureText(in_.placeholder).width <= room};
	})()`, r.Table)
	for _, lang := range []string{"en", "fr"} {
		want := map[string]string{"en": "Rounds: 2", "fr": "Manches : 2"}[lang]
		p.until("the lobby in "+lang, read, &home, func() bool { return home.Lang == lang && home.Rules != "" })
		if !strings.Contains(home.Rules, want) || strings.Contains(home.Rules, "(") {
			t.Errorf("%s: the lobby's table reads %q, want %q", lang, home.Rules, want)
		}
		if home.Links != 4 || home.ListDisplay != "flex" || home.LinkColor == "rgb(0, 0, 238)" || strings.HasSuffix(home.Heading, ":") {
			t.Errorf("%s: the rules' links: %+v", lang, home)
		}
		if !home.Fits {
			t.Errorf("%s: the rounds field cuts its placeholder %q", lang, home.Placeholder)
		}
		if why := badWords(lang, home.Rules+"\n"+home.Heading); why != "" {
			t.Errorf("%s: the home page: %s: %q", lang, why, home.Rules)
		}
		p.shootWords("home-"+lang, true)
		p.click(`#lang`)
	}
}

// caboScoring reads the lines under Cabo's round panel for a round that
// a random game seldom plays: a caller who did not have the lowest sum
// (20 scores 25) and a score of exactly 100 dropping back to 50; as a
// spectator reads them, and as each player does, to whom their own line
// says "you" (issue 26, words: "You reached…", not "Ann (you) reached…").
func (p *page) caboScoring() {
	for _, view := range []struct {
		seat int
		want map[string][]string
	}{
		{-1, map[string][]string{
			"en": {"Lowest sum (16): Bob scores 0", "Cy called Cabo without the lowest sum: 20 + 5 penalty = 25.", "Ann reached exactly 100 and drops back to 50.", "A score above 100 ends the game"},
			"fr": {"Plus petite somme (16) : Bob marque 0", "Cy a annoncé Cabo sans avoir la plus petite somme : 20 + 5 de pénalité = 25.", "Ann atteint 100 tout juste et redescend à 50.", "Un score au-dessus de 100 termine la partie"},
		}},
		{0, map[string][]string{
			"en": {"Lowest sum (16): Bob scores 0", "You reached exactly 100 and drop back to 50."},
			"fr": {"Plus petite somme (16) : Bob marque 0", "Vous atteignez 100 tout juste et redescendez à 50."},
		}},
		{1, map[string][]string{
			"en": {"Lowest sum (16): you score 0", "Cy called Cabo without the lowest sum"},
			"fr": {"Plus petite somme (16) : vous marquez 0", "Cy a annoncé Cabo sans avoir"},
		}},
		{2, map[string][]string{
			"en": {"You called Cabo without the lowest sum: 20 + 5 penalty = 25."},
			"fr": {"Vous avez annoncé Cabo sans avoir la plus petite somme : 20 + 5 de pénalité = 25."},
		}},
	} {
		p.caboScoringAs(view.seat, view.want)
	}
}

// caboScoringAs is caboScoring for the page of seat (-1: a spectator's).
func (p *page) caboScoringAs(seat int, want map[string][]string) {
	t := p.t
	for _, lang := range []string{"en", "fr"} {
		var lines []string
		p.run("Cabo's explanations", chromedp.Navigate(p.h.URL+"/"), chromedp.WaitVisible(`#create`, chromedp.ByQuery),
			chromedp.Evaluate(fmt.Sprintf(`Promise.all([import('/static/i18n.js'), import('/static/cabo/draw.js')]).then(([i18n, draw]) => {
				i18n.setLang(%q);
				const S = {ctx: {name: s => ['Ann', 'Bob', 'Cy'][s], seat: %d, state: {view: {options: {reset_at_100_to: 50}}}}};
				const end = {hands: [[], [], []], totals: [30, 16, 20], round_scores: [30, 0, 25], caller: 2, kamikaze: -1, winners: [1], reset: [0]};
				return [...draw.explainEl(S, end, true).querySelectorAll('li')].map(l => l.textContent);
			})`, lang, seat), &lines, func(e *cdpruntime.EvaluateParams) *cdpruntime.EvaluateParams { return e.WithAwaitPromise(true) }))
		for _, w := range want[lang] {
			if !slices.ContainsFunc(lines, func(l string) bool { return strings.HasPrefix(l, w) }) {
				t.Errorf("seat %d, %s: Cabo's explanations %q do not say %q", seat, lang, lines, w)
			}
		}
		for _, l := range lines {
			if why := badWords(lang, l); why != "" {
				t.Errorf("%s: %s: %q", lang, why, l)
			}
		}
	}
	p.run("back to English", chromedp.Evaluate(`localStorage.setItem('tapis.lang', 'en')`, nil))
}
