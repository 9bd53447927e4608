package server_test

import (
	"context"
	"fmt"
	"net/http"
	"slices"
	"testing"
	"time"

	"tapis/history"
	"tapis/server/servertest"
	"tapis/store"
)

// myPage is GET /api/me/matches's answer.
type myPage struct {
	Matches []struct {
		Table  string    `json:"table"`
		Match  int       `json:"match"`
		Game   string    `json:"game"`
		Date   time.Time `json:"date"`
		Rated  bool      `json:"rated"`
		Public bool      `json:"public"`
		Seat   int       `json:"seat"`
		Place  int       `json:"place"`
		Score  int       `json:"score"`
		Seats  []struct {
			Name  string `json:"name"`
			Bot   string `json:"bot"`
			Score int    `json:"score"`
			Place int    `json:"place"`
		} `json:"seats"`
	} `json:"matches"`
	Next string `json:"next"`
}

func (p myPage) tables() []string {
	var out []string
	for _, m := range p.Matches {
		out = append(out, fmt.Sprintf("%s/%d", m.Table, m.Match))
	}
	return out
}

// TestMyGames: GET /api/me/matches lists the finished matches the
// signed-in player sat in, unrated and private ones too, newest first,
// with each seat's score and place as the match's page has them; never
// another player's, never an unfinished one; paged by cursor, its limit
// bounded; refused to nobody.
func TestMyGames(t *testing.T) {
	s := servertest.New(t, servertest.Unlimited())
	ann, _ := s.SignUp("Ann", "ann")
	bob, _ := s.SignUp("Bob", "bob")
	if code := s.Person().Do("GET", "/api/me/matches", nil, nil); code != http.StatusUnauthorized {
		t.Fatalf("nobody's games: status %d, want 401", code)
	}
	var none myPage
	ann.Must(http.StatusOK, "GET", "/api/me/matches", nil, &none)
	if len(none.Matches) != 0 || none.Next != "" || none.Matches == nil {
		t.Fatalf("before any game: %+v", none)
	}

	// play has p create a private, unrated Cabo table against a random
	// bot and play it: to its end, or only stop moves.
	play := func(p *servertest.Person, stop int) string {
		t.Helper()
		var tab servertest.Seat
		p.Must(http.StatusCreated, "POST", "/api/tables", map[string]any{"game": "cabo", "players": 2, "bots": []string{"", "random"}}, &tab)
		c := p.Dial(tab.Table)
		defer c.Conn.CloseNow()
		m, err := servertest.PlayRandom(c, tab.Seat, 5, stop)
		if err != nil || (stop > 1000) != (m.Status == "over") {
			t.Fatalf("playing: %v, %+v", err, m.Status)
		}
		return tab.Table
	}
	private := play(ann, 1<<30)
	unfinished := play(ann, 2)
	bobs := play(bob, 1<<30)
	rated := servertest.PlayRated(t, ann)

	var pg myPage
	ann.Must(http.StatusOK, "GET", "/api/me/matches", nil, &pg)
	if got, want := pg.tables(), []string{rated + "/1", private + "/1"}; !slices.Equal(got, want) {
		t.Fatalf("Ann's games %v, want %v (not %s, unfinished, nor Bob's %s)", got, want, unfinished, bobs)
	}
	if pg.Next != "" || !pg.Matches[0].Rated || pg.Matches[1].Rated || pg.Matches[1].Public {
		t.Fatalf("Ann's games: %+v", pg)
	}
	for _, m := range pg.Matches {
		var info struct {
			Result struct {
				Scores []int `json:"scores"`
			} `json:"result"`
			You *int `json:"you"`
		}
		page := fmt.Sprintf("/api/tables/%s/matches/%d", m.Table, m.Match)
		ann.Must(http.StatusOK, "GET", page, nil, &info)
		// The match's page tells Ann which seat was hers, and nobody else.
		if info.You == nil || *info.You != m.Seat {
			t.Fatalf("%s: the page gives Ann the seat %v, want %d", page, info.You, m.Seat)
		}
		var other struct {
			You *int `json:"you"`
		}
		if bob.Must(http.StatusOK, "GET", page, nil, &other); other.You != nil {
			t.Fatalf("%s: Bob, who did not play it, is told he sat at %d", page, *other.You)
		}
		if m.Game != "cabo" || m.Seat != 0 || len(m.Seats) != 2 || m.Seats[0].Name != "Ann" || m.Seats[1].Bot != "random" ||
			m.Score != info.Result.Scores[0] || m.Seats[1].Score != info.Result.Scores[1] || m.Place != m.Seats[0].Place ||
			m.Place < 1 || m.Place > 2 || m.Date.IsZero() {
			t.Fatalf("%s: %+v, the match's page has %v", m.Table, m, info.Result.Scores)
		}
	}
	var bp myPage
	bob.Must(http.StatusOK, "GET", "/api/me/matches", nil, &bp)
	if got := bp.tables(); !slices.Equal(got, []string{bobs + "/1"}) {
		t.Fatalf("Bob's games %v, want only his %s", got, bobs)
	}

	// Pages of one, each after the cursor of the one before.
	var seen []string
	for before := ""; ; {
		var p myPage
		ann.Must(http.StatusOK, "GET", "/api/me/matches?limit=1&before="+before, nil, &p)
		if len(p.Matches) > 1 {
			t.Fatalf("a page of one holds %v", p.tables())
		}
		seen = append(seen, p.tables()...)
		if p.Next == "" {
			break
		}
		before = p.Next
	}
	if !slices.Equal(seen, pg.tables()) {
		t.Fatalf("paged: %v, want %v", seen, pg.tables())
	}

	// More finished matches than a page may hold: copies of Ann's private
	// one, written to the store (the same seed and moves end the game).
	ctx := context.Background()
	sv, err := s.Store.Match(ctx, private, 1)
	if err != nil {
		t.Fatal(err)
	}
	for i := range history.MaxMine + 5 {
		tb := sv.Table
		tb.ID, tb.Created = fmt.Sprintf("copy%02d", i), sv.Created.Add(-time.Hour)
		if err := s.Store.CreateTable(ctx, tb, &store.Start{No: 1, Seed: sv.Match.Seed}); err != nil {
			t.Fatal(err)
		}
		for k, mv := range sv.Match.Moves {
			if err := s.Store.AppendMove(ctx, tb.ID, 1, k, mv); err != nil {
				t.Fatal(err)
			}
		}
		if err := s.Store.EndMatch(ctx, tb.ID, 1); err != nil {
			t.Fatal(err)
		}
	}
	var big myPage
	ann.Must(http.StatusOK, "GET", "/api/me/matches?limit=1000", nil, &big)
	if len(big.Matches) != history.MaxMine || big.Next == "" {
		t.Fatalf("limit 1000 gave %d matches (next %q), want at most %d", len(big.Matches), big.Next, history.MaxMine)
	}
	var dflt myPage
	ann.Must(http.StatusOK, "GET", "/api/me/matches", nil, &dflt)
	if len(dflt.Matches) != history.DefaultMine {
		t.Fatalf("a page holds %d matches by default, want %d", len(dflt.Matches), history.DefaultMine)
	}
	for _, q := range []string{"limit=0", "limit=-3", "limit=ten", "before=nonsense", "before=1.0.x"} {
		if code := ann.Do("GET", "/api/me/matches?"+q, nil, nil); code != http.StatusBadRequest {
			t.Fatalf("?%s: status %d, want 400", q, code)
		}
	}
}
