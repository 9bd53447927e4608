package browser

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"tapis/rating"
	"tapis/server/servertest"
)

// scaleView is what the scale test reads of a leaderboard or a profile.
type scaleView struct {
	Lang   string   `json:"lang"`
	Levels []string `json:"levels"` // the bot levels listed, in order
	Bots   []string `json:"bots"`   // their lines' words
	Start  string   `json:"start"`  // a new player's line
	Rating string   `json:"rating"` // the player's rating cell or card
	How    string   `json:"how"`    // how ratings work
}

const readScale = `(() => ({
	lang: document.documentElement.lang,
	levels: [...document.querySelectorAll('ol.botlevels li')].map(l => l.dataset.bot),
	bots: [...document.querySelectorAll('ol.botlevels li')].map(l => l.textContent),
	start: document.querySelector('.newstart')?.textContent || '',
	rating: (document.querySelector('#leaderboard tr.prow td.rating') || document.querySelector('#profile .pgrating'))?.textContent || '',
	how: document.querySelector('#how')?.textContent || '',
}))()`

// TestBrowserRatingScale (issue 27, ratings that make sense to people):
// Ada, after 5 rated games, is provisional on Cabo's leaderboard and her
// profile, her rating shown with her estimate on the bots' scale; both
// pages list the bot levels in level order (random, easy, normal, hard)
// with their numbers, the leaderboard a new player's start (1500,
// estimate 2028), and "How ratings work" explains the scale, in English
// and French, at 390×844 and 1366×768.
func TestBrowserRatingScale(t *testing.T) {
	t.Parallel() // waits on conditions only: see parallel in page_test.go
	p := newPage(t, 0, 6*time.Minute)
	ada, adaID := p.h.SignUp("Ada", "ada")
	for range 5 {
		servertest.PlayRated(t, ada)
	}
	var board struct {
		Players []struct {
			ID          string `json:"id"`
			Rating      int    `json:"rating"`
			Estimate    int    `json:"estimate"`
			Provisional bool   `json:"provisional"`
		} `json:"players"`
		Bots []struct {
			Level  string `json:"level"`
			Rating int    `json:"rating"`
		} `json:"bots"`
	}
	ada.Must(200, "GET", "/api/leaderboard?game=cabo", nil, &board)
	if len(board.Players) != 1 || !board.Players[0].Provisional || board.Players[0].Estimate <= board.Players[0].Rating {
		t.Fatalf("Ada on the board: %+v", board.Players)
	}
	est := fmt.Sprint(board.Players[0].Estimate)
	p.signIn("ada")
	check := func(where string, v scaleView, lang string) {
		t.Helper()
		if strings.Join(v.Levels, ",") != strings.Join(rating.Levels, ",") || len(v.Bots) != len(board.Bots) {
			t.Errorf("%s: the levels %v, want %v", where, v.Levels, rating.Levels)
		}
		for i, b := range board.Bots {
			if i < len(v.Bots) && !strings.Contains(v.Bots[i], fmt.Sprint(b.Rating)) {
				t.Errorf("%s: %q does not say %s's %d", where, v.Bots[i], b.Level, b.Rating)
			}
		}
		words := map[string][2]string{"en": {"estimate " + est, "2028"}, "fr": {"estimation " + est, "2028"}}[lang]
		if !strings.Contains(v.Rating, words[0]) || !strings.Contains(v.How, words[1]) {
			t.Errorf("%s in %s: the rating says %q, how ratings work %q", where, lang, v.Rating, v.How)
		}
		// (How ratings work says "places" in French, a word the check
		// takes for English.)
		for _, s := range append([]string{v.Rating, v.Start}, v.Bots...) {
			if why := badWords(lang, s); why != "" {
				t.Errorf("%s in %s: %s: %q", where, lang, why, s)
			}
		}
	}

	p.run("the leaderboard", chromedp.Navigate(p.h.URL+"/leaderboard/cabo"))
	var v scaleView
	p.until("the scale on the leaderboard", readScale, &v, func() bool { return len(v.Levels) > 0 && v.Rating != "" })
	check("the leaderboard", v, "en")
	if !strings.Contains(v.Start, "A new player: rating 1500, estimate 2028") {
		t.Errorf("a new player's line: %q", v.Start)
	}
	p.checkIn("scale-board", actionSizes, `#board-scale`, `#leaderboard tr.prow`)
	p.click(`#lang`)
	p.until("the leaderboard in French", readScale, &v, func() bool { return v.Lang == "fr" && strings.Contains(v.Start, "nouveau joueur") })
	check("the leaderboard", v, "fr")
	p.run("how ratings work", chromedp.Evaluate(`document.querySelector('#how').open = true; document.querySelector('#how').scrollIntoView()`, nil))
	p.shootSizes("scale-how-fr", 0)
	p.click(`#lang`)

	p.run("the profile", chromedp.Navigate(p.h.URL+"/p/"+adaID))
	p.until("the scale on the profile", readScale, &v, func() bool { return len(v.Levels) > 0 && v.Rating != "" && v.Lang == "en" })
	check("the profile", v, "en")
	p.checkIn("scale-profile", actionSizes, `#profile .pgrating`)
	p.shootSizes("scale-profile-full", 0)
	p.click(`#lang`)
	p.until("the profile in French", readScale, &v, func() bool { return v.Lang == "fr" && strings.Contains(v.Rating, "estimation") })
	check("the profile", v, "fr")
}
