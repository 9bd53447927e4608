package leaderboard

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	"tapis/rating"
	"tapis/store"
)

// players makes a store of three players, two of them claimed.
func players(t *testing.T) *store.Memory {
	st := store.NewMemory()
	for _, p := range []store.Player{{ID: "ada", Name: "Ada", Username: "ada"}, {ID: "bob", Name: "Bob", Username: "bob"}, {ID: "cyd", Name: "Cyd"}} {
		if err := st.CreatePlayer(context.Background(), p); err != nil {
			t.Fatal(err)
		}
	}
	return st
}

// rated records n rated Limits matches of ada against bob, won by ada,
// at tables named from prefix.
func rated(t *testing.T, st *store.Memory, prefix string, n int) {
	t.Helper()
	ctx := context.Background()
	for i := range n {
		m := store.RatedMatch{Table: fmt.Sprint(prefix, i), No: 1, Game: "limits", At: time.Now(),
			Seats: []store.RatedSeat{{Seat: 0, Player: "ada", Rank: 0}, {Seat: 1, Player: "bob", Rank: 1}}}
		err := st.RecordRated(ctx, m, func(before []store.Standing) ([]store.Standing, error) {
			in := make([]rating.Rating, len(before))
			for i, b := range before {
				in[i] = rating.Rating{Mu: b.Mu, Sigma: b.Sigma}
				if b.New {
					in[i] = rating.New()
				}
			}
			out, err := rating.Update(in, []int{0, 1})
			after := make([]store.Standing, len(out))
			for i, r := range out {
				after[i] = store.Standing{Mu: r.Mu, Sigma: r.Sigma}
			}
			return after, err
		})
		if err != nil {
			t.Fatal(err)
		}
	}
}

func serve(st Store, me string) http.Handler {
	s := New(Config{Store: st, Games: []string{"cabo", "limits"}, Logger: slog.New(slog.NewTextHandler(io.Discard, nil)),
		Player: func(*http.Request) (store.Player, bool) { return store.Player{ID: me}, me != "" }})
	mux := http.NewServeMux()
	s.Routes(mux)
	return mux
}

func get(t *testing.T, h http.Handler, path string, out any) int {
	t.Helper()
	w := httptest.NewRecorder()
	h.ServeHTTP(w, httptest.NewRequest("GET", path, nil))
	if err := json.Unmarshal(w.Body.Bytes(), out); err != nil {
		t.Fatalf("%s: %v: %s", path, err, w.Body)
	}
	return w.Code
}

type board struct {
	Game     string
	MinGames int `json:"min_games"`
	Offset   int
	Players  []boardLine
	You      *boardLine
	Bots     []botLine
	New      newPlayer `json:"new_player"`
}

type failure struct{ Code string }

func TestLeaderboard(t *testing.T) {
	st := players(t)
	rated(t, st, "a", minRatedGames-1)
	var b board
	if code := get(t, serve(st, "bob"), "/api/leaderboard?game=limits", &b); code != http.StatusOK || len(b.Players) != 0 || b.You != nil {
		t.Fatalf("before %d games: %d %+v", minRatedGames, code, b)
	}
	rated(t, st, "b", 1)
	if code := get(t, serve(st, "bob"), "/api/leaderboard?game=limits", &b); code != http.StatusOK {
		t.Fatalf("leaderboard: %d", code)
	}
	if b.Game != "limits" || b.MinGames != minRatedGames || len(b.Players) != 2 || b.Players[0].ID != "ada" || b.Players[0].Name != "Ada" ||
		b.Players[0].Rank != 1 || b.Players[0].Wins != minRatedGames || b.You == nil || b.You.ID != "bob" || b.You.Rank != 2 {
		t.Fatalf("leaderboard: %+v", b)
	}
	if len(b.Bots) != len(rating.Levels) {
		t.Errorf("bots %+v, want the anchors of %v", b.Bots, rating.Levels)
	}
	// Issue 27: the bots in level order, a new player's start, and each
	// player's estimate on the bots' scale.
	for i, l := range rating.Levels {
		if a, _ := rating.Anchor("limits", l); i >= len(b.Bots) || b.Bots[i].Level != l || b.Bots[i].Rating != a.Display() {
			t.Errorf("bots %+v, want %v in that order", b.Bots, rating.Levels)
		}
	}
	if b.New.Rating != 1500 || b.New.Estimate != rating.New().Estimate() {
		t.Errorf("a new player: %+v", b.New)
	}
	st0, _ := st.Rank(context.Background(), "limits", "ada", 0)
	if want := (rating.Rating{Mu: st0.Mu, Sigma: st0.Sigma}).Estimate(); b.Players[0].Estimate != want || want <= b.Players[0].Rating {
		t.Errorf("Ada's estimate %d (rating %d), want %d", b.Players[0].Estimate, b.Players[0].Rating, want)
	}
	if code := get(t, serve(st, ""), "/api/leaderboard?game=limits&offset=1", &b); code != http.StatusOK || len(b.Players) != 1 || b.Players[0].ID != "bob" || b.You != nil {
		t.Fatalf("offset 1, nobody signed in: %d %+v", code, b)
	}
	var f failure
	for path, want := range map[string]string{
		"/api/leaderboard?game=chess":            "bad_game",
		"/api/leaderboard":                       "bad_game",
		"/api/leaderboard?game=limits&offset=-1": "bad_offset",
		"/api/leaderboard?game=limits&offset=x":  "bad_offset",
	} {
		if code := get(t, serve(st, ""), path, &f); code != http.StatusBadRequest || f.Code != want {
			t.Errorf("%s: %d %s, want 400 %s", path, code, f.Code, want)
		}
	}
}

func TestProfile(t *testing.T) {
	st := players(t)
	rated(t, st, "a", 3)
	var pr struct {
		ID, Name, Username string
		Games              []profileGame
		Recent             []recentGame
	}
	if code := get(t, serve(st, ""), "/api/players/ada", &pr); code != http.StatusOK {
		t.Fatalf("profile: %d", code)
	}
	if pr.ID != "ada" || pr.Name != "Ada" || pr.Username != "ada" || len(pr.Games) != 1 || pr.Games[0].Game != "limits" ||
		pr.Games[0].Games != 3 || pr.Games[0].Wins != 3 || len(pr.Games[0].History) != 3 || len(pr.Recent) != 3 || pr.Recent[0].Rank != 0 {
		t.Fatalf("profile: %+v", pr)
	}
	if g := pr.Games[0]; g.Estimate <= g.Rating || len(g.Bots) != len(rating.Levels) || g.Bots[0].Level != "random" || g.Bots[3].Level != "hard" {
		t.Errorf("the profile's estimate and bots: %+v", g)
	}
	if r := pr.Recent[len(pr.Recent)-1]; r.Before != rating.New().Display() {
		t.Errorf("the first game's rating before %d, want a new player's %d", r.Before, rating.New().Display())
	}
	if code := get(t, serve(st, ""), "/api/players/cyd", &pr); code != http.StatusOK || len(pr.Games) != 0 || pr.Recent == nil {
		t.Fatalf("a player with no rated game: %d %+v", code, pr)
	}
	if err := st.DeletePlayer(context.Background(), "bob"); err != nil {
		t.Fatal(err)
	}
	var f failure
	for path, want := range map[string]string{"/api/players/bob": "deleted_player", "/api/players/nobody": "no_player"} {
		if code := get(t, serve(st, ""), path, &f); code != http.StatusNotFound || f.Code != want {
			t.Errorf("%s: %d %s, want 404 %s", path, code, f.Code, want)
		}
	}
}
