// Package history serves finished matches, read from the store (a
// finished table soon leaves the table host's memory, and its earlier
// matches never were there):
//
//	GET /api/tables/{id}/replay[?match=N]       the `tapis replay` script
//	GET /api/tables/{id}/matches/{no}           players, result, score sheet
//	GET /api/tables/{id}/matches/{no}/steps     every position, for the viewer
//	GET /api/me/matches?before=CURSOR&limit=N   the signed-in player's finished matches
//	GET /api/tables/{id}/matches/{no}/analysis  the cost of each person's moves
//
// Nothing of an unfinished match is served: its moves and the seed that
// deals it would show every hidden card. A match is finished when the
// store says so and its moves, replayed, end the game; anything else is
// refused as "not_over". Each request replays the match once (a few
// thousand moves at most, well under a millisecond of rules); nothing is
// cached, and Config.Slots bounds how many are computed at once, shared in
// turn among the networks waiting (limit.Fair), so that a burst of viewers
// cannot take the cores from the tables nor one network the history from
// everyone else.
package history

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"strconv"

	"tapis/api"
	"tapis/game"
	"tapis/limit"
	"tapis/store"
)

// Store is what the history reads of the store.
type Store interface {
	// Load returns a table with its latest match.
	Load(ctx context.Context, table string) (store.Saved, error)
	// Match returns a table with match no; a missing one wraps
	// store.ErrNotFound.
	Match(ctx context.Context, table string, no int) (store.Saved, error)
	// PlayedMatches lists a player's finished matches ("My games").
	PlayedMatches(ctx context.Context, player string, after store.PlayedCursor, limit int) ([]store.Played, error)
}

// Config sets up a Service. Store, Games, Slots and Network are required.
type Config struct {
	Store Store
	// Games are the games whose matches can be replayed.
	Games []game.Game
	// Slots bounds the answers computed at once, shared in turn among
	// the networks waiting.
	Slots *limit.Fair
	// Network names the network a request comes from (limit.Network),
	// the key under which it waits for a slot.
	Network func(r *http.Request) string
	// Settle, if set, is asked about a match the store holds unfinished:
	// it reports true if it has marked it over, its moves having ended
	// the game before a crash (the table host's settle), and the match is
	// then read again.
	Settle func(ctx context.Context, table string) bool
	// Me names the signed-in player of a request (package account), for
	// "My games"; false for nobody, whom it refuses.
	Me func(r *http.Request) (player string, ok bool)
	// Analyses, if set, serves the matches' analyses (analysis.go).
	Analyses Analyses
	// Logger receives the errors (default slog.Default()).
	Logger *slog.Logger
}

// Service answers the history's requests.
type Service struct {
	cfg   Config
	games map[string]game.Game
	log   *slog.Logger
}

// New returns the history service of c.
func New(c Config) *Service {
	s := &Service{cfg: c, games: map[string]game.Game{}, log: c.Logger}
	if s.log == nil {
		s.log = slog.Default()
	}
	for _, g := range c.Games {
		s.games[g.Name()] = g
	}
	return s
}

// Routes registers the history's API on mux.
func (s *Service) Routes(mux *http.ServeMux) {
	mux.HandleFunc("GET /api/tables/{id}/replay", s.Export)
	mux.HandleFunc("GET /api/tables/{id}/matches/{no}", s.Info)
	mux.HandleFunc("GET /api/tables/{id}/matches/{no}/steps", s.Steps)
	mux.HandleFunc("GET /api/me/matches", s.Mine)
	mux.HandleFunc("GET /api/tables/{id}/matches/{no}/analysis", s.Analysis)
}

// replayed is a finished match as the store keeps it, played through.
type replayed struct {
	sv    store.Saved
	g     game.Game
	moves []game.Move
}

// Played deals the latest match of sv (a game g table) again from its
// seed and applies its moves, returning the state reached: whether the
// moves end the game, whatever the store says of the match.
func Played(g game.Game, sv store.Saved) (game.State, error) {
	return (&replayed{sv: sv, g: g}).played()
}

// played deals the match and applies all its moves.
func (rp *replayed) played() (game.State, error) {
	st, err := rp.start()
	if err == nil {
		err = rp.walk(st, func(int, game.Seat, game.State) {})
	}
	return st, err
}

// NoteRound appends to rounds the round scores of res if a round was
// completed since: a table keeps them so as its moves are made, and a
// finished match's page as its moves are replayed. A move completes at
// most one round in every game (Result.RoundScores is only the last
// round's), so one append per increase keeps them all.
func NoteRound(rounds [][]int, res game.Result) [][]int {
	if res.Rounds > len(rounds) {
		rounds = append(rounds, res.RoundScores)
	}
	return rounds
}

// finished loads match no of a table (no 0: the latest finished one) and
// checks that it is over, answering the request itself and returning nil
// when it cannot be served.
func (s *Service) finished(w http.ResponseWriter, r *http.Request, id string, no int) *replayed {
	sv, err := s.loadFinished(r.Context(), id, no)
	if errors.Is(err, errNotOver) && s.cfg.Settle != nil && s.cfg.Settle(r.Context(), id) {
		// Its moves had ended the game before a crash.
		sv, err = s.loadFinished(r.Context(), id, no)
	}
	switch {
	case errors.Is(err, errNotOver):
		api.Error(w, http.StatusConflict, api.CodeNotOver, "server: this match is not over: its history is shown once it ends")
		return nil
	case errors.Is(err, store.ErrNotFound):
		api.Error(w, http.StatusNotFound, api.CodeNotFound, "server: no such table or match")
		return nil
	case err != nil:
		s.log.Error("history", "table", id, "match", no, "err", err)
		api.Error(w, http.StatusInternalServerError, api.CodeStore, "server: the match could not be read; try again")
		return nil
	}
	g := s.games[sv.Game]
	if g == nil {
		api.Error(w, http.StatusNotFound, api.CodeNotFound, fmt.Sprintf("server: no game %q here", sv.Game))
		return nil
	}
	rp := &replayed{sv: sv, g: g}
	st, err := rp.played()
	if err == nil && !st.Over() {
		err = errNotOver
	}
	if errors.Is(err, errNotOver) {
		api.Error(w, http.StatusConflict, api.CodeNotOver, "server: this match is not over: its history is shown once it ends")
		return nil
	}
	if err != nil {
		s.log.Error("history: replay", "table", id, "match", sv.Match.No, "err", err)
		api.Error(w, http.StatusInternalServerError, api.CodeBroken, "server: this match cannot be replayed")
		return nil
	}
	return rp
}

var errNotOver = errors.New("server: the match is not over")

// slot waits for one of the history's slots in the turn of r's network
// (limit.Fair), false (the request answered) if the client goes first or
// its network already has as many answers waiting as it may; release
// gives it back. A slot is CPU: it is held while the match is replayed
// and encoded, never while an answer waits for a slow client to read it
// (Steps lets it go around each write), so that a few slow readers cannot
// keep everyone from the history pages.
func (s *Service) slot(w http.ResponseWriter, r *http.Request) bool {
	var full *limit.FullError
	switch err := s.acquire(r); {
	case errors.As(err, &full):
		w.Header().Set("Retry-After", limit.RetryAfter(full.Retry))
		api.Error(w, http.StatusTooManyRequests, api.CodeTooFast, "server: too many history answers for your network at once; try again in a moment")
		return false
	case err != nil:
		api.Error(w, http.StatusServiceUnavailable, api.CodeBusy, "server: try again in a moment")
		return false
	}
	return true
}

// acquire waits for a slot in the turn of r's network.
func (s *Service) acquire(r *http.Request) error {
	return s.cfg.Slots.Acquire(r.Context(), s.cfg.Network(r))
}

func (s *Service) release() { s.cfg.Slots.Release() }

// loadFinished reads match no of table id (0: the latest finished one),
// refusing with errNotOver one the store does not mark as over.
func (s *Service) loadFinished(ctx context.Context, id string, no int) (store.Saved, error) {
	if no == 0 {
		sv, err := s.cfg.Store.Load(ctx, id)
		if err != nil {
			// Load has no sentinel for a missing table: nothing to read
			// is not found, whatever the store's words.
			return sv, fmt.Errorf("%v: %w", err, store.ErrNotFound)
		}
		switch {
		case sv.Match == nil:
			return sv, store.ErrNotFound
		case sv.Match.Over:
			return sv, nil
		case sv.Match.No == 1:
			return sv, errNotOver
		}
		// "Play again" starts a match only once the last is over.
		no = sv.Match.No - 1
	}
	sv, err := s.cfg.Store.Match(ctx, id, no)
	if err == nil && !sv.Match.Over {
		err = errNotOver
	}
	return sv, err
}

// start deals the match again from its seed.
func (rp *replayed) start() (game.State, error) {
	return rp.g.New(game.Config{Players: rp.sv.Players, Options: rp.sv.Options, Seed: rp.sv.Match.Seed})
}

// walk applies the match's moves to st, calling f after each with the
// position's number (from 1), the seat that moved and the state.
func (rp *replayed) walk(st game.State, f func(n int, by game.Seat, st game.State)) error {
	decode := rp.moves == nil
	for i, mv := range rp.sv.Match.Moves {
		if mv.Seat < 0 || mv.Seat >= rp.sv.Players {
			return fmt.Errorf("server: move %d is by seat %d", i, mv.Seat)
		}
		if decode {
			m, err := rp.g.UnmarshalMove(mv.Move)
			if err != nil {
				return fmt.Errorf("server: move %d: %v", i, err)
			}
			rp.moves = append(rp.moves, m)
		}
		if err := st.Apply(game.Seat(mv.Seat), rp.moves[i], nil); err != nil {
			return fmt.Errorf("server: move %d: %v", i, err)
		}
		f(i+1, game.Seat(mv.Seat), st)
	}
	return nil
}

// matchNo reads a match number from a path or query value; "" is 0.
func matchNo(w http.ResponseWriter, v string) (int, bool) {
	if v == "" {
		return 0, true
	}
	n, err := strconv.Atoi(v)
	if err != nil || n < 1 {
		api.Error(w, http.StatusBadRequest, api.CodeBadRequest, fmt.Sprintf("server: %q is not a match number", v))
		return 0, false
	}
	return n, true
}

// finishedFor reads the finished match of the request's table whose
// number is noText (empty: the latest finished), holding one of the
// history's slots, which the caller gives back (release) when it is done;
// or it answers the request itself (a bad number, too many at once, no
// such match, not over) and returns nil, holding nothing.
func (s *Service) finishedFor(w http.ResponseWriter, r *http.Request, noText string) *replayed {
	no, ok := matchNo(w, noText)
	if !ok || !s.slot(w, r) {
		return nil
	}
	rp := s.finished(w, r, r.PathValue("id"), no)
	if rp == nil {
		s.release()
	}
	return rp
}
