package history

import (
	"bufio"
	"cmp"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strconv"

	"tapis/api"
	"tapis/game"
	"tapis/replay"
)

// Export answers GET /api/tables/{id}/replay[?match=N] with the
// match as a `tapis replay` script (docs/replay.md's input).
func (s *Service) Export(w http.ResponseWriter, r *http.Request) {
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
	// message gives them.
	Rounds [][]int `json:"rounds"`
	Moves  int     `json:"moves"`
	// You is the seat of the signed-in player asking, when they sat at
	// it: their replay speaks to them on any device, not only on the one
	// that kept the seat's token. Absent for anyone else.
	You *int `json:"you,omitempty"`
}

// Info answers GET /api/tables/{id}/matches/{no}.
func (s *Service) Info(w http.ResponseWriter, r *http.Request) {
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
	rp.walk(st, func(_ int, _ game.Seat, st game.State) { rounds = NoteRound(rounds, st.Result()) })
	pg := matchPage{Table: rp.sv.ID, Game: rp.sv.Game, Match: rp.sv.Match.No, Players: rp.sv.Players, Options: rp.sv.Options,
		Result: st.Result(), Rounds: rounds, Moves: len(rp.sv.Match.Moves)}
	if len(pg.Options) == 0 {
		pg.Options = json.RawMessage("{}")
	}
	me, signed := "", false
	if s.cfg.Me != nil {
		me, signed = s.cfg.Me(r)
	}
	for i, se := range rp.sv.Seats {
		pg.Seats = append(pg.Seats, historySeat{Name: se.Name, Bot: se.Bot})
		if signed && me != "" && se.Player == me && pg.You == nil {
			pg.You = &i
		}
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

// Steps answers GET /api/tables/{id}/matches/{no}/steps?seat=K|all.
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
func (s *Service) Steps(w http.ResponseWriter, r *http.Request) {
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
		letGo: s.release, retake: func() error { return s.acquire(r) }}
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
