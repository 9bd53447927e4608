// Package leaderboard serves the leaderboards and the players' profiles,
// read from the store's rated games:
//
//	GET /api/leaderboard?game=G[&offset=N]   a game's best players, the
//	                                         asker's own line, the bots' anchors
//	GET /api/players/{id}                    a player's ratings, charts and
//	                                         recent rated games
//
// Rating a finished match is the table host's (it happens as the match
// ends, at its table); package rating is the maths both use. This package
// is apart from rating so that the maths stays pure, importable by the
// games and the bots without the store and HTTP that serving needs.
package leaderboard

import (
	"context"
	"errors"
	"log/slog"
	"net/http"
	"strconv"
	"time"

	"tapis/api"
	"tapis/rating"
	"tapis/store"
)

// minRatedGames is how many rated games a player needs to be listed on a
// leaderboard.
const minRatedGames = 5

// leaderboardPage is how many players a leaderboard answer lists.
const leaderboardPage = 50

// recentGames is how many recent games a profile lists.
const recentGames = 20

// Store is what the leaderboards and profiles read of the store.
type Store interface {
	// Player returns a player by id (store.ErrNotFound if none).
	Player(ctx context.Context, id string) (store.Player, error)
	// Leaderboard, Rank and Profile are store.Ratings'.
	Leaderboard(ctx context.Context, game string, minGames, limit, offset int) ([]store.Ranked, error)
	Rank(ctx context.Context, game, player string, minGames int) (store.Ranked, error)
	Profile(ctx context.Context, player string, recent int) (store.Profile, error)
}

// Config sets up a Service. Store and Player are required.
type Config struct {
	Store Store
	// Games are the names of the games with leaderboards.
	Games []string
	// Player returns the signed-in player of a request, if any (package
	// account's Current).
	Player func(r *http.Request) (store.Player, bool)
	// Logger receives the errors (default slog.Default()).
	Logger *slog.Logger
}

// Service answers the leaderboards' and profiles' requests.
type Service struct {
	cfg   Config
	games map[string]bool
	log   *slog.Logger
}

// New returns the service of c.
func New(c Config) *Service {
	s := &Service{cfg: c, games: map[string]bool{}, log: c.Logger}
	if s.log == nil {
		s.log = slog.Default()
	}
	for _, g := range c.Games {
		s.games[g] = true
	}
	return s
}

// Routes registers the leaderboards' and profiles' API on mux.
func (s *Service) Routes(mux *http.ServeMux) {
	mux.HandleFunc("GET /api/leaderboard", s.Leaderboard)
	mux.HandleFunc("GET /api/players/{id}", s.Profile)
}

// boardLine is one line of a leaderboard.
type boardLine struct {
	Rank        int    `json:"rank"`
	ID          string `json:"id"`
	Name        string `json:"name"`
	Rating      int    `json:"rating"`
	Games       int    `json:"games"`
	Wins        int    `json:"wins"`
	Provisional bool   `json:"provisional"`
	// Estimate is the player's mean on the bots' scale (rating.Estimate).
	Estimate int `json:"estimate"`
}

// botLine is a bot level's anchor, listed beside the leaderboard.
type botLine struct {
	Level  string `json:"level"`
	Rating int    `json:"rating"`
}

// line is a standing as a leaderboard shows it, the player's name read
// from the store ("" for a deleted player, whom the page calls so).
func (s *Service) line(ctx context.Context, r store.Ranked) boardLine {
	rt := rating.Rating{Mu: r.Mu, Sigma: r.Sigma}
	l := boardLine{Rank: r.Rank, ID: r.Player, Rating: rt.Display(), Games: r.Games, Wins: r.Wins, Provisional: rt.Provisional(),
		Estimate: rt.Estimate()}
	if p, err := s.cfg.Store.Player(ctx, r.Player); err == nil {
		l.Name = p.Name
	}
	return l
}

// newPlayer is where a new player starts: their rating and estimate.
type newPlayer struct {
	Rating   int `json:"rating"`
	Estimate int `json:"estimate"`
}

// bots lists game's bot levels' anchors in level order, weakest first
// (rating.Levels), whatever their numbers: a level is what a player
// chooses, and the page says when two numbers are too close to tell
// apart.
func bots(game string) []botLine {
	out := []botLine{}
	for _, l := range rating.Levels {
		if a, ok := rating.Anchor(game, l); ok {
			out = append(out, botLine{Level: l, Rating: a.Display()})
		}
	}
	return out
}

// Leaderboard answers GET /api/leaderboard?game=cabo[&offset=N]: the
// players with at least minRatedGames rated games, best first (by
// rating, the conservative 1500 + 24·(μ − 3σ)), a page from offset,
// each with their estimate on the bots' scale; the signed-in player's
// own line ("you", null if they are not ranked); the bot levels'
// anchors in level order, to compare with (bots are not ranked); and a
// new player's rating and estimate.
func (s *Service) Leaderboard(w http.ResponseWriter, r *http.Request) {
	g := r.URL.Query().Get("game")
	if !s.games[g] {
		api.Error(w, http.StatusBadRequest, api.CodeBadGame, "server: unknown game "+strconv.Quote(g))
		return
	}
	offset := 0
	if o := r.URL.Query().Get("offset"); o != "" {
		n, err := strconv.Atoi(o)
		if err != nil || n < 0 || n > 1_000_000 {
			api.Error(w, http.StatusBadRequest, api.CodeBadOffset, "server: offset must be a number from 0")
			return
		}
		offset = n
	}
	ctx := r.Context()
	board, err := s.cfg.Store.Leaderboard(ctx, g, minRatedGames, leaderboardPage, offset)
	if err != nil {
		s.log.Error("leaderboard", "err", err)
		api.Error(w, http.StatusInternalServerError, api.CodeStore, "server: the leaderboard could not be read")
		return
	}
	out := struct {
		Game     string      `json:"game"`
		MinGames int         `json:"min_games"`
		Offset   int         `json:"offset"`
		Players  []boardLine `json:"players"`
		You      *boardLine  `json:"you"`
		Bots     []botLine   `json:"bots"`
		New      newPlayer   `json:"new_player"`
	}{Game: g, MinGames: minRatedGames, Offset: offset, Players: []boardLine{}, Bots: bots(g),
		New: newPlayer{Rating: rating.New().Display(), Estimate: rating.New().Estimate()}}
	for _, b := range board {
		out.Players = append(out.Players, s.line(ctx, b))
	}
	if p, ok := s.cfg.Player(r); ok {
		me, err := s.cfg.Store.Rank(ctx, g, p.ID, minRatedGames)
		switch {
		case err == nil:
			l := s.line(ctx, me)
			out.You = &l
		case !errors.Is(err, store.ErrNotFound):
			s.log.Error("leaderboard: rank", "err", err)
		}
	}
	api.Write(w, http.StatusOK, out)
}

// profileGame is a player's standing in one game.
type profileGame struct {
	Game        string        `json:"game"`
	Rating      int           `json:"rating"`
	Provisional bool          `json:"provisional"`
	Games       int           `json:"games"`
	Wins        int           `json:"wins"`
	PlaysLike   string        `json:"plays_like"`
	History     []ratingPoint `json:"history"`
	// Estimate is the player's mean on the bots' scale (rating.Estimate),
	// Bots the game's levels on it, in level order.
	Estimate int       `json:"estimate"`
	Bots     []botLine `json:"bots"`
}

// ratingPoint is a point of a rating chart: the rating after a match.
type ratingPoint struct {
	At     time.Time `json:"at"`
	Rating int       `json:"rating"`
}

// recentGame is one of a player's last rated matches.
type recentGame struct {
	Table   string    `json:"table"`
	Match   int       `json:"match"`
	Game    string    `json:"game"`
	Rank    int       `json:"rank"`
	Players int       `json:"players"`
	Before  int       `json:"rating_before"`
	After   int       `json:"rating_after"`
	At      time.Time `json:"at"`
}

// Profile answers GET /api/players/{id}: a player's name, username, and
// per game their rating, games, wins, rating history and the bot level
// they play like, and their recent rated games. A deleted player, or an
// unknown id, is not found.
func (s *Service) Profile(w http.ResponseWriter, r *http.Request) {
	id := r.PathValue("id")
	ctx := r.Context()
	p, err := s.cfg.Store.Player(ctx, id)
	switch {
	case errors.Is(err, store.ErrNotFound):
		api.Error(w, http.StatusNotFound, api.CodeNoPlayer, "server: no such player")
		return
	case err != nil:
		s.log.Error("profile", "err", err)
		api.Error(w, http.StatusInternalServerError, api.CodeStore, "server: the profile could not be read")
		return
	case p.Deleted:
		api.Error(w, http.StatusNotFound, api.CodeDeletedPlayer, "server: this player deleted their account")
		return
	}
	pr, err := s.cfg.Store.Profile(ctx, id, recentGames)
	if err != nil {
		s.log.Error("profile", "err", err)
		api.Error(w, http.StatusInternalServerError, api.CodeStore, "server: the profile could not be read")
		return
	}
	out := struct {
		ID       string        `json:"id"`
		Name     string        `json:"name"`
		Username string        `json:"username"`
		Games    []profileGame `json:"games"`
		Recent   []recentGame  `json:"recent"`
	}{ID: p.ID, Name: p.Name, Username: p.Username, Games: []profileGame{}, Recent: []recentGame{}}
	for _, st := range pr.Standings {
		rt := rating.Rating{Mu: st.Mu, Sigma: st.Sigma}
		pg := profileGame{Game: st.Game, Rating: rt.Display(), Provisional: rt.Provisional(), Games: st.Games, Wins: st.Wins,
			PlaysLike: rating.PlaysLike(st.Game, rt), History: []ratingPoint{}, Estimate: rt.Estimate(), Bots: bots(st.Game)}
		for _, h := range pr.History {
			if h.Game == st.Game {
				pg.History = append(pg.History, ratingPoint{At: h.At, Rating: rating.Rating{Mu: h.MuAfter, Sigma: h.SigmaAfter}.Display()})
			}
		}
		out.Games = append(out.Games, pg)
	}
	for _, h := range pr.Recent {
		before := rating.Rating{Mu: h.MuBefore, Sigma: h.SigmaBefore}
		if h.SigmaBefore == 0 {
			before = rating.New()
		}
		out.Recent = append(out.Recent, recentGame{Table: h.Table, Match: h.No, Game: h.Game, Rank: h.Rank, Players: h.Players,
			Before: before.Display(), After: rating.Rating{Mu: h.MuAfter, Sigma: h.SigmaAfter}.Display(), At: h.At})
	}
	api.Write(w, http.StatusOK, out)
}
