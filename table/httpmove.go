package table

import (
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"sync"
	"time"

	"golang.org/x/time/rate"

	"tapis/api"
	"tapis/game"
	"tapis/limit"
	"tapis/store"
	"tapis/wire"
)

// Moves without a socket (issue 29): a seat's move over plain HTTP, so
// that a move can be made from a notification's link on a phone with a
// cold start, and its seat's state to answer. Both take the seat's token
// (?token=, as the WebSocket does) or the signed-in player who sits
// there, and go through the table's goroutine as a socket's move does:
// the same checks (play), the same store write before the answer, the
// same states sent to the sockets of the others.

// httpRoutes registers the moves and states over HTTP, on the table's
// node, and the player's turns (turns.go), on any.
func (s *Host) httpRoutes(m *http.ServeMux) {
	m.HandleFunc("POST /api/tables/{id}/moves", s.own.Owned(s.postMove))
	m.HandleFunc("GET /api/tables/{id}/state", s.own.Owned(s.getState))
	m.HandleFunc("POST /api/tables/{id}/hint", s.own.Owned(s.postHint)) // coach.go
	m.HandleFunc("GET /api/me/turns", s.myTurns)
}

// movePace bounds the moves sent over HTTP, per client and per network,
// as a socket's messages are (Config.Rate and Burst, per connection): a
// network's clients share four times a client's budget.
type movePace struct {
	once            sync.Once
	client, network *limit.Rates
}

// allow spends a move of r's client and of its network, or answers 429
// with Retry-After and returns false.
func (s *Host) allowMove(w http.ResponseWriter, r *http.Request) bool {
	p := &s.moves
	p.once.Do(func() {
		if s.cfg.Rate < 0 {
			p.client, p.network = limit.NewRates(rate.Inf, 1, 1), limit.NewRates(rate.Inf, 1, 1)
			return
		}
		p.client = limit.NewRates(rate.Limit(s.cfg.Rate), s.cfg.Burst, 1<<16)
		p.network = limit.NewRates(rate.Limit(4*s.cfg.Rate), 4*s.cfg.Burst, 1<<16)
	})
	retry, ok := p.client.Allow(s.guard.Client(r))
	if ok {
		retry, ok = p.network.Allow(limit.Network(s.cfg.Proxies.Client(r)))
	}
	if !ok {
		w.Header().Set("Retry-After", limit.RetryAfter(retry))
		api.Error(w, http.StatusTooManyRequests, api.CodeTooFast, fmt.Sprintf("server: too many moves; try again in %s", retry.Round(time.Millisecond)))
	}
	return ok
}

// The refusals of a request that acts for no seat.
var (
	errBadToken = errors.New("server: this seat token is not valid at this table")
	errNoSeat   = errors.New("server: only a seated player may move: give your seat's token, or sign in")
	errNoMatch  = errors.New("server: the game has not started: seats are still free")
)

// seatFor returns the seat a request acts for: its token's (?token=), or
// without one the signed-in player's; or errBadToken, errNoSeat. It runs
// in the table's goroutine.
func (t *table) seatFor(token, player string) (game.Seat, error) {
	if token != "" {
		if s, ok := t.seatOf(token); ok {
			return s, nil
		}
		return game.Spectator, errBadToken
	}
	if s, ok := t.seatOfPlayer(player); ok {
		return s, nil
	}
	return game.Spectator, errNoSeat
}

// refuseSeat answers a request that acts for no seat (seatFor's errors,
// errNoMatch) and reports whether err was one.
func refuseSeat(w http.ResponseWriter, err error) bool {
	switch {
	case errors.Is(err, errBadToken):
		api.Error(w, http.StatusForbidden, api.CodeBadToken, err.Error())
	case errors.Is(err, errNoSeat):
		api.Error(w, http.StatusForbidden, api.CodeNotSeated, err.Error())
	case errors.Is(err, errNoMatch):
		api.Error(w, http.StatusConflict, api.CodeNotStarted, err.Error())
	default:
		return false
	}
	return true
}

// present tells the table that seat s's player has just acted without a
// socket: a stand-in that played for them while they were away leaves,
// and their grace period starts again, as when a page connects.
func (t *table) present(s game.Seat) {
	seat := &t.seats[s]
	if seat.conns == 0 {
		seat.away = time.Now()
	}
	if seat.player != nil && seat.Bot == "" && !seat.turnBot {
		t.dismiss(s)
		t.broadcastInfo()
	}
}

// httpStatus is the HTTP status and code of a move's refusal of
// WebSocket code (play).
func httpStatus(code string) (int, string) {
	switch code {
	case wire.CodeBadMessage:
		return http.StatusBadRequest, api.CodeBadRequest
	case wire.CodeBadMove:
		return http.StatusBadRequest, api.CodeBadMove
	case wire.CodeStore:
		return http.StatusInternalServerError, api.CodeStore
	}
	// not_started, over, stale, refused: the position does not allow it.
	return http.StatusConflict, code
}

// moveReq is POST /api/tables/{id}/moves's body.
type moveReq struct {
	// N is the move count of the position the move answers: required, as
	// a move made from a link may come long after.
	N    *int            `json:"n"`
	Move json.RawMessage `json:"move"`
}

// seatRequest opens the requests a seat makes without a socket (a move,
// its state, a hint): paced before the table is looked for, so that a
// flood loads no table; then the table, the seat's token if given and the
// signed-in player. A nil table: the request is answered already.
func (s *Host) seatRequest(w http.ResponseWriter, r *http.Request) (t *table, token string, p store.Player) {
	if !s.allowMove(w, r) {
		return nil, "", p
	}
	if t = s.find(w, r.PathValue("id")); t == nil {
		return nil, "", p
	}
	p, _ = s.Player(r)
	return t, r.URL.Query().Get("token"), p
}

// postMove answers POST /api/tables/{id}/moves: the seat's state after
// its move, once stored, or the refusal.
func (s *Host) postMove(w http.ResponseWriter, r *http.Request) {
	t, token, p := s.seatRequest(w, r)
	if t == nil {
		return
	}
	var req moveReq
	if !api.Read(w, r, &req) {
		return
	}
	if req.N == nil || len(req.Move) == 0 {
		api.Error(w, http.StatusBadRequest, api.CodeBadRequest, `server: a move is {"n":N,"move":{…}}: n, the move count of the state it answers, is needed`)
		return
	}
	if s.stopping() {
		api.Error(w, http.StatusServiceUnavailable, api.CodeStopping, errStopping.Error())
		return
	}
	var (
		state []byte
		code  string
		err   error
	)
	// Once handed to the table, the move is played whole, whether or not
	// the client waits (call waits for a function it queued).
	if cerr := s.callAwake(r.Context(), t, func(t *table) {
		var seat game.Seat
		if seat, err = t.seatFor(token, p.ID); err != nil {
			return
		}
		t.present(seat)
		if code, err = t.play(seat, req.N, req.Move, time.Time{}); err == nil {
			state = t.stateFor(seat, seat, t.moveEvents.Events)
		}
		// Published now rather than once the answer is sent (schedule): a
		// client that asks for its turns next finds this table's new ones.
		t.publishTurns()
	}); cerr != nil {
		api.Error(w, http.StatusServiceUnavailable, api.CodeClosed, cerr.Error())
		return
	}
	switch {
	case refuseSeat(w, err):
	case err != nil:
		status, short := httpStatus(code)
		api.Refuse(w, status, short, err)
	default:
		writeState(w, state)
	}
}

// getState answers GET /api/tables/{id}/state: the seat's state now, as
// the WebSocket sends it on arrival.
func (s *Host) getState(w http.ResponseWriter, r *http.Request) {
	t, token, p := s.seatRequest(w, r)
	if t == nil {
		return
	}
	var state []byte
	var err error
	if cerr := s.callAwake(r.Context(), t, func(t *table) {
		var seat game.Seat
		switch seat, err = t.seatFor(token, p.ID); {
		case err != nil:
		case t.st == nil:
			err = errNoMatch
		default:
			state = t.stateFor(seat, game.Spectator, nil)
		}
	}); cerr != nil {
		api.Error(w, http.StatusServiceUnavailable, api.CodeClosed, cerr.Error())
		return
	}
	if !refuseSeat(w, err) {
		writeState(w, state)
	}
}

// writeState answers with a state message as encoded for a socket.
func writeState(w http.ResponseWriter, state []byte) {
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Cache-Control", "no-store")
	w.Write(state)
}
