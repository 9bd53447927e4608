package table

import (
	"net/http"
	"slices"
	"sync/atomic"
	"time"

	"tapis/api"
	"tapis/game"
)

// Your turn, everywhere (issue 29): GET /api/me/turns lists the tables
// where it is the signed-in player's turn, the longest waiting first.
// Each table's goroutine publishes who is due to act at it, and since
// when (publishTurns, from schedule), so that the list reads no table's
// state and waits for no table's goroutine: it costs the store's list of
// the player's tables (as "Your tables" does) and a load per table of
// theirs that this node holds.
//
// A real-time table asleep in the store (nobody has been at it for
// Config.IdleTimeout) is not listed: nothing plays there until someone
// comes back. In a cluster, a node lists the real-time tables it holds.
// A turn-based table is listed loaded or asleep, here or on another node,
// from its clock in the store (deadline.go's asleepTurns).

// turnSeat is a human seat due to act, as a table publishes it.
type turnSeat struct {
	seat   game.Seat
	player string
	since  time.Time
}

// turnsNow is who is due to act at a table: its position (match, n) and
// its human seats with a player who must act.
type turnsNow struct {
	match, n int
	seats    []turnSeat
}

// turnBoard is where a table's goroutine publishes its turnsNow for the
// other goroutines.
type turnBoard struct{ p atomic.Pointer[turnsNow] }

// publishTurns publishes who is due to act now, if it changed. It runs in
// the table's goroutine, after every function it runs (schedule): it
// allocates only when something changed.
func (t *table) publishTurns() {
	var due [game.MaxPlayers]turnSeat
	k := 0
	if t.st != nil && !t.st.Over() {
		for i := range t.seats {
			seat := &t.seats[i]
			if seat.Bot == "" && seat.Player != "" && !seat.due.IsZero() && k < len(due) {
				due[k] = turnSeat{seat: game.Seat(i), player: seat.Player, since: seat.due}
				k++
			}
		}
	}
	old := t.turns.p.Load()
	if old == nil && k == 0 {
		return
	}
	if old != nil && old.match == t.match && old.n == t.n && slices.Equal(old.seats, due[:k]) {
		return
	}
	t.turns.p.Store(&turnsNow{match: t.match, n: t.n, seats: slices.Clone(due[:k])})
}

// Turn is a table where it is a player's turn, as GET /api/me/turns
// lists it.
type Turn struct {
	Table   string    `json:"table"`
	Game    string    `json:"game"`
	Players int       `json:"players"`
	Seat    game.Seat `json:"seat"`
	Match   int       `json:"match"`
	// N is the move count of the position: a move sent over HTTP answers
	// it (POST /api/tables/{id}/moves).
	N int `json:"n"`
	// Since is when the seat became due to act; Deadline, at a table with
	// a time per move, when its time runs out (a stand-in then plays that
	// move).
	Since    time.Time  `json:"since"`
	Deadline *time.Time `json:"deadline,omitempty"`
}

// Turns returns the tables this node holds where it is player's turn,
// the longest waiting first.
func (s *Host) Turns(r *http.Request, player string) ([]Turn, error) {
	pts, err := s.cfg.Store.PlayerTables(r.Context(), player)
	if err != nil {
		return nil, err
	}
	out := []Turn{}
	for _, pt := range pts {
		t := s.tables.Get(pt.ID)
		if t == nil {
			continue
		}
		now := t.turns.p.Load()
		if now == nil {
			continue
		}
		for _, ts := range now.seats {
			if ts.player != player {
				continue
			}
			tu := Turn{Table: t.id, Game: t.g.Name(), Players: t.players, Seat: ts.seat, Match: now.match, N: now.n, Since: ts.since.UTC()}
			if t.turnTime > 0 {
				d := ts.since.Add(t.turnTime).UTC()
				tu.Deadline = &d
			}
			out = append(out, tu)
		}
	}
	// The turn-based tables this node has not loaded, asleep in the
	// store (deadline.go).
	asleep, err := s.asleepTurns(r.Context(), pts)
	if err != nil {
		return nil, err
	}
	out = append(out, asleep...)
	slices.SortStableFunc(out, func(a, b Turn) int { return a.Since.Compare(b.Since) })
	return out, nil
}

// myTurns answers GET /api/me/turns: {"turns":[…]}, none without a
// signed-in player.
func (s *Host) myTurns(w http.ResponseWriter, r *http.Request) {
	out := struct {
		Turns []Turn `json:"turns"`
	}{Turns: []Turn{}}
	p, ok := s.Player(r)
	if ok {
		ts, err := s.Turns(r, p.ID)
		if err != nil {
			s.log.Error("player turns", "err", err)
			api.Error(w, http.StatusInternalServerError, api.CodeStore, "server: your turns could not be read")
			return
		}
		out.Turns = ts
	}
	api.Write(w, http.StatusOK, out)
}
