package server

import (
	"bufio"
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strconv"

	"tapis/api"
	"tapis/game"
	"tapis/limit"
	"tapis/replay"
	"tapis/store"
)

// A finished match's history, read from the store (a finished table soon
// leaves memory, and its earlier matches never were there):
//
//	GET /api/tables/{id}/replay[?match=N]       the `tapis replay` script
//	GET /api/tables/{id}/matches/{no}           players, result, score sheet
//	GET /api/tables/{id}/matches/{no}/steps     every position, for the viewer
//
// Nothing of an unfinished match is served: its moves and the seed that
// deals it would show every hidden card. A match is finished when the
// store says so and its moves, replayed, end the game; anything else is
// refused as "not_over". Each request replays the match once (a few
// thousand moves at most, well under a millisecond of rules); nothing is
// cached, and histSlots bounds how many are computed at once, shared in
// turn among the networks waiting (limit.Fair), so that a burst of viewers
// cannot take the cores from the tables nor one network the history from
// everyone else.

// histSlots is how many history answers are computed at once, and
// histQueue how many one network may have waiting for a slot.
const (
	histSlots = 2
	histQueue = 4
)

// replayed is a finished match as the store keeps it, played through.
type replayed struct {
	sv    store.Saved
	g     game.Game
	moves []game.Move
}

// finished loads match no of a table (no 0: the latest finished one) and
// checks that it is over, answering the request itself and returning nil
// when it cannot be served.
func (s *Server) finished(w http.ResponseWriter, r *http.Request, id string, no int) *replayed {
	sv, err := s.loadFinished(r.Context(), id, no)
	if errors.Is(err, errNotOver) && s.settle(r.Context(), id) {
		// Its moves had ended the game before a crash (settle.go).
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
	st, err := rp.start()
	if err == nil {
		err = rp.walk(st, func(int, game.Seat, game.State) {})
	}
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

// slot waits for one of the histSlots in the turn of r's network
// (limit.Fair), false (the request answered) if the client goes first or
// its network already has histQueue answers waiting; release gives it
// back. A slot is CPU: it is held while the match is replayed and
// encoded, never while an answer waits for a slow client to read it
// (matchSteps lets it go around each write), so that a few slow readers
// cannot keep everyone from the history pages.
func (s *Server) slot(w http.ResponseWriter, r *http.Request) bool {
	var full *limit.FullError
	switch err := s.hist.Acquire(r.Context(), s.guard.network(r)); {
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

func (s *Server) release() { s.hist.Release() }

// loadFinished reads match no of table id (0: the latest finished one),
// refusing with errNotOver one the store does not mark as over.
func (s *Server) loadFinished(ctx context.Context, id string, no int) (store.Saved, error) {
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
func (s *Server) finishedFor(w http.ResponseWriter, r *http.Request, noText string) *replayed {
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

// exportReplay answers GET /api/tables/{id}/replay[?match=N] with the
// match as a `tapis replay` script (docs/replay.md's input).
func (s *Server) exportReplay(w http.ResponseWriter, r *http.Request) {
	rp := s.finishedFor(w, r, r.URL.Query().Get("match"))
	if rp == nil {
		return
	}
	sc := replay.Script{Game: rp.sv.Game, Players: rp.sv.Players, Options: rp.sv.Options, Seed: rp.sv.Match.Seed,
		Moves: make([]replay.Step, 0, len(rp.sv.Match.Moves))}
	if len(sc.Options) == 0 {
		sc.Options = json.RawMessage("{}")
	}
	for _, mv := range rp.sv.Match.Moves {
		sc.Moves = append(sc.Moves, replay.Step{Seat: game.Seat(mv.Seat), Move: mv.Move})
	}
	s.release() // the answer is built: writing it costs no CPU worth a slot
	w.Header().Set("Content-Disposition", fmt.Sprintf(`attachment; filename="tapis-%s-%d.json"`, rp.sv.ID, rp.sv.Match.No))
	api.Write(w, http.StatusOK, sc)
}

// historySeat is a seat as a finished match's page shows it.
type historySeat struct {
	Name string `json:"name"`
	Bot  string `json:"bot,omitempty"`
}

// matchPage is a finished match's page.
type matchPage struct {
	Table   string          `json:"table"`
	Game    string          `json:"game"`
	Match   int             `json:"match"`
	Players int             `json:"players"`
	Options json.RawMessage `json:"options"`
	Seats   []historySeat   `json:"seats"`
	Result  game.Result     `json:"result"`
	// Rounds are the round scores of every round, as a table's "state"
	// message gives them (wire.State.Rounds).
	Rounds [][]int `json:"rounds"`
	Moves  int     `json:"moves"`
}

// matchInfo answers GET /api/tables/{id}/matches/{no}.
func (s *Server) matchInfo(w http.ResponseWriter, r *http.Request) {
	rp := s.finishedFor(w, r, r.PathValue("no"))
	if rp == nil {
		return
	}
	st, err := rp.start()
	if err != nil {
		s.release()
		api.Error(w, http.StatusInternalServerError, api.CodeBroken, "server: this match cannot be replayed")
		return
	}
	rounds := [][]int{}
	rp.walk(st, func(_ int, _ game.Seat, st game.State) { rounds = noteRound(rounds, st.Result()) })
	pg := matchPage{Table: rp.sv.ID, Game: rp.sv.Game, Match: rp.sv.Match.No, Players: rp.sv.Players, Options: rp.sv.Options,
		Result: st.Result(), Rounds: rounds, Moves: len(rp.sv.Match.Moves)}
	if len(pg.Options) == 0 {
		pg.Options = json.RawMessage("{}")
	}
	for _, se := range rp.sv.Seats {
		pg.Seats = append(pg.Seats, historySeat{Name: se.Name, Bot: se.Bot})
	}
	s.release()
	api.Write(w, http.StatusOK, pg)
}

// historyStep is one position of a finished match: the move that reached
// it (none for the deal) and what was seen there.
type historyStep struct {
	N      int             `json:"n"`
	By     game.Seat       `json:"by"` // -1 for the deal
	Move   json.RawMessage `json:"move,omitempty"`
	Status string          `json:"status"` // "playing" or "over"
	ToMove []game.Seat     `json:"to_move"`
	Result game.Result     `json:"result"`
	// View is one seat's view (seat=K); Views every seat's and State the
	// whole state, every card shown (seat=all).
	View  any   `json:"view,omitempty"`
	Views []any `json:"views,omitempty"`
	State any   `json:"state,omitempty"`
}

// matchSteps answers GET /api/tables/{id}/matches/{no}/steps?seat=K|all.
//
// The answer is {"table", "match", "game", "seat", "steps": [...]}, one
// step per position, and it is streamed: each step is encoded and written
// as the replay reaches it, so that memory is a step's, not the match's
// (issue 24: built whole, the 28 MB answer of a 12,917-move match cost
// 128 MB of RSS per request). The match was replayed to the end before the
// first byte (finished), so that a broken one is still refused with a
// status. The history's slot is let go while the answer waits for the
// client to read it (stepWriter), and a client too slow to take the answer
// is cut off by the server's write timeout (Timeouts.Write).
func (s *Server) matchSteps(w http.ResponseWriter, r *http.Request) {
	q := r.URL.Query().Get("seat")
	all := q == "all"
	seat, err := strconv.Atoi(q)
	if !all && err != nil {
		api.Error(w, http.StatusBadRequest, api.CodeBadRequest, `server: seat must be a seat number or "all"`)
		return
	}
	rp := s.finishedFor(w, r, r.PathValue("no"))
	if rp == nil {
		return
	}
	sw := &stepWriter{w: bufio.NewWriterSize(w, stepBuffer), rc: http.NewResponseController(w), held: true,
		letGo: s.release, retake: func() error { return s.hist.Acquire(r.Context(), s.guard.network(r)) }}
	defer sw.done()
	if !all && (seat < 0 || seat >= rp.sv.Players) {
		api.Error(w, http.StatusBadRequest, api.CodeBadRequest, fmt.Sprintf("server: seat %d is not at this table", seat))
		return
	}
	st, err := rp.start()
	if err != nil {
		api.Error(w, http.StatusInternalServerError, api.CodeBroken, "server: this match cannot be replayed")
		return
	}
	head, _ := json.Marshal(struct {
		Table string `json:"table"`
		Match int    `json:"match"`
		Game  string `json:"game"`
		Seat  string `json:"seat"`
	}{rp.sv.ID, rp.sv.Match.No, rp.sv.Game, q})
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Cache-Control", "no-store")
	w.WriteHeader(http.StatusOK)
	sw.raw(head[:len(head)-1])
	sw.raw([]byte(`,"steps":[`))
	at := func(n int, by game.Seat, st game.State) {
		if sw.err != nil {
			return // the client is gone: nothing more to encode
		}
		hs := historyStep{N: n, By: by, Status: "playing", ToMove: st.ToMove().List(), Result: st.Result()}
		if n > 0 {
			hs.Move = rp.sv.Match.Moves[n-1].Move
		}
		if st.Over() {
			hs.Status = "over"
		}
		if all {
			for k := range rp.sv.Players {
				hs.Views = append(hs.Views, st.View(game.Seat(k)))
			}
			hs.State = st.Dump()
		} else {
			hs.View = st.View(game.Seat(seat))
		}
		if n > 0 {
			sw.raw([]byte{','})
		}
		sw.value(hs)
	}
	at(0, game.Spectator, st)
	if sw.err == nil {
		// After a failed write, the rest of the moves are applied (walk
		// cannot stop) but not encoded.
		rp.walk(st, at)
	}
	sw.raw([]byte("]}\n"))
	sw.done()
	if !errors.Is(sw.err, errSent) {
		s.log.Debug("history: steps cut off", "table", rp.sv.ID, "match", rp.sv.Match.No, "err", sw.err)
	}
}

// stepBuffer is how much of a steps answer is gathered before it is sent.
const stepBuffer = 32 << 10

// stepWriter writes a streamed answer, remembering its first error (a
// client gone, the write timeout) so that the rest is skipped. It holds
// a history slot (held) while it encodes, and lets it go (letGo) while it
// writes to the client, taking one again (retake) to go on: a slow reader
// holds a request's memory, never a slot.
type stepWriter struct {
	w      *bufio.Writer
	rc     *http.ResponseController
	err    error
	held   bool
	letGo  func()
	retake func() error
}

func (sw *stepWriter) raw(b []byte) {
	if sw.err == nil {
		_, sw.err = sw.w.Write(b)
	}
}

// value writes v as JSON, flushing to the client whenever a buffer's worth
// has gathered.
func (sw *stepWriter) value(v any) {
	if sw.err != nil {
		return
	}
	b, err := json.Marshal(v)
	if err != nil {
		sw.err = err
		return
	}
	sw.raw(b)
	if sw.err == nil && sw.w.Buffered() >= stepBuffer/2 {
		sw.send()
		if sw.err == nil {
			if sw.err = sw.retake(); sw.err == nil {
				sw.held = true
			}
		}
	}
}

// send lets the slot go and writes what has gathered to the client.
func (sw *stepWriter) send() {
	if sw.held {
		sw.letGo()
		sw.held = false
	}
	if sw.err == nil {
		sw.err = sw.w.Flush()
	}
	if sw.err == nil {
		sw.err = sw.rc.Flush()
	}
}

// done sends what is left and gives the slot back; it may be called more
// than once.
func (sw *stepWriter) done() {
	sw.send()
	sw.err = cmp.Or(sw.err, errSent)
}

// errSent stops a stepWriter after done.
var errSent = errors.New("server: the answer is sent")
