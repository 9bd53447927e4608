package browser

import (
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"tapis/server/servertest"
)

// Issue 27: the post-game analysis in the replay viewer and the coach at
// the table. Ann plays a one-round Papayoo at random against two bots; on
// her match's page, once the server has analysed it, the slider carries a
// mark at each costly move, a mark steps the viewer to its move, whose
// cost and best move are said (to Ann, the page holding her seat: "You
// play…"), and the players' list gives her accuracy. Then at a table
// created with the coach, Ann asks for a hint at her turn: the coach's
// move is said with its win chance, and the score sheet counts the hint.
// Photographed at a phone's size and a laptop's.
func TestBrowserAnalysisAndCoach(t *testing.T) {
	t.Parallel() // waits on conditions only: see parallel in page_test.go
	p := newPage(t, 5*time.Millisecond, 8*time.Minute)
	t.Logf("screenshots in %s", p.dir)
	ann := p.h.Create("papayoo", []string{"", "easy", "easy"}, "Ann", `{"rounds":1}`)
	c := p.h.Dial(ann.Table, ann.Token)
	if m, err := servertest.PlayRandom(c, ann.Seat, 3, 1<<30); err != nil || m.Status != "over" {
		t.Fatalf("%v %+v", err, m)
	}
	p.run("the page as Ann", chromedp.Navigate(p.h.URL+"/"), chromedp.WaitVisible(`#create`, chromedp.ByQuery),
		chromedp.Evaluate(fmt.Sprintf(`localStorage.setItem('tapis.seat.%s', JSON.stringify({seat: 0, token: %q}));
			localStorage.setItem('tapis.guide.papayoo', 'no'); localStorage.setItem('tapis.lang', 'en');`, ann.Table, ann.Token), nil),
		chromedp.Navigate(fmt.Sprintf("%s/m/%s/1", p.h.URL, ann.Table)))
	var marks int
	p.until("the analysis's marks", `document.querySelector('#hist-analysis')?.dataset.status === 'ready'
		? document.querySelectorAll('#hist-marks .hist-tick').length : -1`, &marks, func() bool { return marks >= 0 })
	if marks == 0 {
		t.Fatal("a match played at random has no costly move marked")
	}
	var acc string
	p.eval("Ann's accuracy", `document.querySelector('.hist-accuracy[data-seat="0"]')?.textContent || ''`, &acc)
	if !strings.Contains(acc, "accuracy ") {
		t.Fatalf("Ann's accuracy: %q", acc)
	}
	var bots int
	p.eval("the bots' accuracy", `document.querySelectorAll('.hist-accuracy[data-seat="1"], .hist-accuracy[data-seat="2"]').length`, &bots)
	if bots != 0 {
		t.Fatal("a bot's moves were judged")
	}
	// The costliest mark: Ann's blunder or mistake, said to her.
	p.click(`#hist-marks .hist-tick[data-mark=blunder], #hist-marks .hist-tick[data-mark=mistake], #hist-marks .hist-tick`)
	var v struct{ Pos, Move, Judge, Mark string }
	p.until("the marked move", `({pos: document.querySelector('#hist-pos').textContent, move: document.querySelector('#hist-move').textContent,
		judge: document.querySelector('#hist-judge')?.textContent || '', mark: document.querySelector('#hist-judge')?.dataset.mark || ''})`, &v,
		func() bool { return v.Judge != "" && !strings.HasPrefix(v.Pos, "Move 0 ") })
	if !strings.HasPrefix(v.Move, "You ") || !strings.Contains(v.Judge, "points of win chance lost") || v.Mark == "" {
		t.Fatalf("the marked move: %+v", v)
	}
	p.shootSizes("analysis-replay", 200*time.Millisecond)

	// The coach.
	var coached servertest.Seat
	if code := p.h.Post("/api/tables", map[string]any{"game": "papayoo", "players": 3, "bots": []string{"", "easy", "easy"},
		"name": "Ann", "options": map[string]any{"rounds": 1}, "coach": true}, &coached); code != http.StatusCreated {
		t.Fatalf("a coached table: %d", code)
	}
	p.run("the coached table", chromedp.Evaluate(fmt.Sprintf(`localStorage.setItem('tapis.seat.%s', JSON.stringify({seat: 0, token: %q}))`,
		coached.Table, coached.Token), nil), chromedp.Navigate(p.h.URL+"/t/"+coached.Table))
	var hint string
	p.clickFor(`#coach-ask:not([disabled])`, "the coach's hint", `document.querySelector('#coach-hint')?.textContent || ''`, &hint,
		func() bool { return hint != "" })
	if !strings.HasPrefix(hint, "Coach: You ") || !strings.Contains(hint, "Win chance after it: ") {
		t.Fatalf("the hint says %q", hint)
	}
	p.shootSizes("coach-hint", 200*time.Millisecond)
	var info struct{ Hints []int }
	if code := p.h.Person().Do("GET", "/api/tables/"+coached.Table, nil, &info); code != http.StatusOK || len(info.Hints) != 3 || info.Hints[0] != 1 {
		t.Fatalf("the table's hints: %d %+v", code, info)
	}
	var used string
	p.clickFor(`[data-action=sheet]`, "the score sheet's hints", `document.querySelector('.sheet-hints [data-hints="0"]')?.textContent || ''`, &used,
		func() bool { return used != "" })
	if used != "1" {
		t.Fatalf("the sheet counts %q hints for Ann", used)
	}
	p.shootSizes("coach-sheet", 200*time.Millisecond)
}
