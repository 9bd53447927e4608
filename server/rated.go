package server

import (
	"context"
	"errors"
	"net/http"
	"strconv"
	"strings"
	"time"

	"tapis/api"
	"tapis/game"
	"tapis/rating"
	"tapis/store"
	"tapis/wire"
)

// Rated tables: chosen at creation, for signed-in players with a username
// only (bots may sit too: they are the anchors). When a rated match ends,
// its ranks (game.Result.Ranks: winners first, then by score; a seat a
// stand-in played for most of its moves last) go through package rating,
// bots fixed, and the store records the new ratings in one transaction,
// once per match: a replayed end finds it recorded (store.ErrRecorded).

// minRatedGames is how many rated games a player needs to be listed on a
// leaderboard.
const minRatedGames = 5

// leaderboardPage is how many players a leaderboard answer lists.
const leaderboardPage = 50

// recentGames is how many recent games a profile lists.
const recentGames = 20

var errRatedAccount = errors.New("server: a rated table is for signed-in players with a username: sign in or claim a username first")

// claimed reports whether p may sit at a rated table.
func claimed(p store.Player, ok bool) bool { return ok && p.Username != "" && !p.Deleted }

// botID is the player id under which a bot level's anchor is stored.
func botID(level string) string {
	if level == "heuristic" {
		level = "easy" // the old name of the level
	}
	level, _, _ = strings.Cut(level, "@")
	return "bot:" + level
}

// countMove counts seat s's move about to be recorded: its player's own,
// or a stand-in's (an absent seat's, or one out of time). The counts are
// kept in memory only: after a restart the moves replayed count as
// nobody's, so a leaver is judged on the moves made since.
func (t *table) countMove(s game.Seat) {
	if int(s) >= len(t.seats) || t.seats[s].Bot != "" {
		return
	}
	if t.moved == nil {
		t.moved = make([][2]int, len(t.seats))
	}
	if t.seats[s].player != nil {
		t.moved[s][1]++
	} else {
		t.moved[s][0]++
	}
}

// left reports whether human seat s was played by a stand-in for most of
// its moves in this match.
func (t *table) left(s int) bool {
	return t.moved != nil && t.moved[s][1] > t.moved[s][0]
}

// goneLong reports whether human seat s has had nobody connected for
// longer than the abandonment time (Config.AbandonAfter): its player left
// the match, however few of its moves a stand-in made.
func (t *table) goneLong(s int) bool {
	seat := &t.seats[s]
	return seat.Bot == "" && seat.conns == 0 && time.Since(seat.away) >= t.srv.cfg.AbandonAfter
}

// rateMatch records the finished match's ratings, if the table is rated,
// and keeps each seat's change for the end panel. Recording is idempotent:
// a match recorded already (before a restart, by another node) is read
// back instead. A person who left ranks last: one whose moves a stand-in
// made most of, or gone longer than the abandonment time.
func (t *table) rateMatch() {
	if !t.rated || t.st == nil || !t.st.Over() {
		return
	}
	t.rate(func(s int) bool { return t.left(s) || t.goneLong(s) })
}

// rateAbandoned rates a rated match that is closed unfinished because
// nobody played it for the abandonment time: walking away is not a way
// out of a loss. Every person's seat ranks last (nobody stayed to play
// it; they tie), the bots by the scores so far.
func (t *table) rateAbandoned() {
	if !t.rated || t.st == nil || t.st.Over() {
		return
	}
	t.rate(func(s int) bool { return true })
}

// rate records the match's ratings as rateMatch says, the human seats
// for which leaver is true ranked last.
func (t *table) rate(leaver func(s int) bool) {
	ctx, cancel := t.srv.persist()
	defer cancel()
	res := t.st.Result()
	ranks := res.Ranks()
	m := store.RatedMatch{Table: t.id, No: t.match, Game: t.g.Name(), At: time.Now()}
	for i, seat := range t.seats {
		rs := store.RatedSeat{Seat: i, Player: seat.Player, Rank: ranks[i], Score: res.Scores[i]}
		if seat.Bot != "" {
			rs.Player = botID(seat.Bot)
			// The anchor is written from the table in code at every
			// rated end: cheap, and a changed table takes effect.
			a, ok := rating.Anchor(m.Game, strings.TrimPrefix(rs.Player, "bot:"))
			if !ok {
				a = rating.Rating{Mu: rating.DefaultMu, Sigma: rating.AnchorSigma}
			}
			if err := t.srv.cfg.Store.SetAnchor(ctx, rs.Player, m.Game, a.Mu, a.Sigma); err != nil {
				t.srv.log.Error("rated: anchor", "table", t.id, "err", err)
				return
			}
		} else if leaver(i) {
			rs.Rank = len(t.seats) // after everyone; leavers tie
		}
		m.Seats = append(m.Seats, rs)
	}
	err := t.srv.cfg.Store.RecordRated(ctx, m, func(before []store.Standing) ([]store.Standing, error) {
		in := make([]rating.Rating, len(before))
		fixed := make([]bool, len(before))
		rk := make([]int, len(before))
		for i, b := range before {
			in[i], fixed[i], rk[i] = rating.Rating{Mu: b.Mu, Sigma: b.Sigma}, b.Fixed, m.Seats[i].Rank
			if b.New {
				in[i] = rating.New()
			}
		}
		out, err := rating.UpdateFixed(in, rk, fixed)
		if err != nil {
			return nil, err
		}
		after := make([]store.Standing, len(out))
		for i, r := range out {
			after[i] = store.Standing{Mu: r.Mu, Sigma: r.Sigma}
		}
		return after, nil
	})
	if err != nil && !errors.Is(err, store.ErrRecorded) {
		t.srv.log.Error("rated: record", "table", t.id, "match", t.match, "err", err)
		return
	}
	rows, err := t.srv.cfg.Store.MatchResults(ctx, t.id, t.match)
	if err != nil {
		t.srv.log.Error("rated: read back", "table", t.id, "match", t.match, "err", err)
		return
	}
	t.ratings = make([]wire.Rating, len(t.seats))
	for _, r := range rows {
		if r.Seat < 0 || r.Seat >= len(t.ratings) {
			continue
		}
		before := rating.Rating{Mu: r.MuBefore, Sigma: r.SigmaBefore}
		if r.SigmaBefore == 0 {
			before = rating.New() // the player's first rated game
		}
		after := rating.Rating{Mu: r.MuAfter, Sigma: r.SigmaAfter}
		t.ratings[r.Seat] = wire.Rating{Before: before.Display(), After: after.Display(), Provisional: after.Provisional()}
	}
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
}

// botLine is a bot level's anchor, listed beside the leaderboard.
type botLine struct {
	Level  string `json:"level"`
	Rating int    `json:"rating"`
}

// line is a standing as a leaderboard shows it, the player's name read
// from the store ("" for a deleted player, whom the page calls so).
func (s *Server) line(ctx context.Context, r store.Ranked) boardLine {
	rt := rating.Rating{Mu: r.Mu, Sigma: r.Sigma}
	l := boardLine{Rank: r.Rank, ID: r.Player, Rating: rt.Display(), Games: r.Games, Wins: r.Wins, Provisional: rt.Provisional()}
	if p, err := s.cfg.Store.Player(ctx, r.Player); err == nil {
		l.Name = p.Name
	}
	return l
}

// leaderboard answers GET /api/leaderboard?game=cabo[&offset=N]: the
// players with at least minRatedGames rated games, best first (by
// rating, the conservative 1500 + 24·(μ − 3σ)), a page from offset; the
// signed-in player's own line ("you", null if they are not ranked); and
// the bot levels' anchors, to compare with (bots are not ranked).
func (s *Server) leaderboard(w http.ResponseWriter, r *http.Request) {
	g := r.URL.Query().Get("game")
	if s.games[g] == nil {
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
	}{Game: g, MinGames: minRatedGames, Offset: offset, Players: []boardLine{}, Bots: []botLine{}}
	for _, b := range board {
		out.Players = append(out.Players, s.line(ctx, b))
	}
	if p, ok := s.player(r); ok {
		me, err := s.cfg.Store.Rank(ctx, g, p.ID, minRatedGames)
		switch {
		case err == nil:
			l := s.line(ctx, me)
			out.You = &l
		case !errors.Is(err, store.ErrNotFound):
			s.log.Error("leaderboard: rank", "err", err)
		}
	}
	for _, l := range rating.Levels {
		if a, ok := rating.Anchor(g, l); ok {
			out.Bots = append(out.Bots, botLine{Level: l, Rating: a.Display()})
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

// profile answers GET /api/players/{id}: a player's name, username, and
// per game their rating, games, wins, rating history and the bot level
// they play like, and their recent rated games. A deleted player, or an
// unknown id, is not found.
func (s *Server) profile(w http.ResponseWriter, r *http.Request) {
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
			PlaysLike: rating.PlaysLike(st.Game, rt), History: []ratingPoint{}}
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
