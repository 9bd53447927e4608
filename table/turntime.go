package table

import (
	"fmt"
	"time"

	"tapis/game"
)

// The time per move (store.Table.TurnTime, chosen when the table is
// created): a human seat, connected or not, that has been due to act for
// that long without acting gets a stand-in (standInFor, the one an absent
// seat gets) for that one move; once it has moved, the seat is its
// player's again, with a fresh clock for its next decision.
//
// A seat's clock (seat.due) starts when it becomes due to act: at the
// deal, after its own move, or after the others' moves made it due. In a
// simultaneous phase each due seat has its own clock, which the others'
// moves leave running. Clocks are not stored: after a restart they start
// again from the load.

// ratedTurn is the time per move, in seconds, of a rated table created
// without one: a rated table always has one, so that a player who stays
// connected and idle cannot stall it (issue 24).
const ratedTurn = 60

// turn returns the time per move a creation asks for, in seconds (0 for
// none): the one given, or ratedTurn at a rated table that gives none. A
// rated table refuses none (0): a player could stall it forever.
func (r createReq) turn() (int, error) {
	switch {
	case r.TurnBased:
		return r.daysTurn() // days.go
	case r.TurnSeconds == nil && r.Rated:
		return ratedTurn, nil
	case r.TurnSeconds == nil:
		return 0, nil
	}
	t := *r.TurnSeconds
	switch {
	case t == 0 && r.Rated:
		return 0, fmt.Errorf("server: turn_seconds is 0, but a rated table needs a time per move, from %d to %d seconds (%d if left out), so that nobody can stall it", minTurn, maxTurn, ratedTurn)
	case t != 0 && (t < minTurn || t > maxTurn):
		return 0, fmt.Errorf("server: turn_seconds is %d: it must be 0 (no time per move) or from %d to %d", t, minTurn, maxTurn)
	}
	return t, nil
}

// clocks starts the clock of every seat that has become due to act and
// stops those of the seats that no longer are. by is the seat that just
// moved (game.Spectator for a deal): its clock starts afresh if it must
// act again, and its time-per-move stand-in, if it had one, is sent away.
func (t *table) clocks(by game.Seat) {
	if by >= 0 && int(by) < len(t.seats) {
		t.seats[by].due = time.Time{}
		t.strike(by) // a turn-based table's timeouts (days.go)
		if t.seats[by].turnBot {
			t.dismiss(by)
			t.broadcastInfo()
		}
	}
	due := t.st.ToMove()
	now := t.srv.now()
	for i := range t.seats {
		seat := &t.seats[i]
		switch {
		case t.st.Over() || !due.Has(game.Seat(i)):
			seat.due = time.Time{}
		case seat.due.IsZero():
			seat.due, seat.dueN = now, t.n
		}
	}
}

// timed reports whether seat s is on the clock: the table has a time per
// move, s is a human seat that must act, and no stand-in of an absent
// seat plays it (a time-per-move stand-in does: its time is up).
func (t *table) timed(s game.Seat) bool {
	seat := &t.seats[s]
	return t.turnTime > 0 && seat.Bot == "" && !seat.due.IsZero() && (seat.player == nil || seat.turnBot)
}

// armTurn arms the turn timer for the earliest end of a due human seat's
// time. Like the away timer, one that fires early is harmless (turnUp
// checks again), so it is only re-armed to fire sooner.
func (t *table) armTurn() {
	if t.turnTime <= 0 {
		return
	}
	var end time.Time
	for s := range t.st.ToMove().All() {
		if !t.timed(s) || t.seats[s].turnBot {
			continue
		}
		if e := t.seats[s].due.Add(t.turnTime); end.IsZero() || e.Before(end) {
			end = e
		}
	}
	if !end.IsZero() && (t.turnC == nil || end.Before(t.turnAt)) {
		t.turnC, t.turnAt = time.After(end.Sub(t.srv.now())), end
	}
}

// turnUp seats a stand-in, for one move, at every human seat whose time
// is up. It plays like any bot seat (schedule, playBot, botChose); its
// move, or the player's own if it comes first, sends it away (clocks).
func (t *table) turnUp() {
	if t.turnTime <= 0 || t.st == nil || t.st.Over() || !t.attended() {
		return
	}
	taken := false
	for s := range t.st.ToMove().All() {
		seat := &t.seats[s]
		if !t.timed(s) || seat.turnBot || t.srv.now().Sub(seat.due) < t.turnTime {
			continue
		}
		seat.player, seat.turnBot = t.standInFor(s), true
		taken = true
	}
	if taken {
		t.broadcastInfo()
	}
}

// turnLeft returns, for a state message, the milliseconds each seat on
// the clock has left (0 once its stand-in is choosing), or nil when no
// seat is.
func (t *table) turnLeft() map[game.Seat]int64 {
	if t.turnTime <= 0 || t.st == nil || t.st.Over() {
		return nil
	}
	var left map[game.Seat]int64
	now := t.srv.now()
	for s := range t.st.ToMove().All() {
		if !t.timed(s) {
			continue
		}
		if left == nil {
			left = map[game.Seat]int64{}
		}
		left[s] = max(0, t.seats[s].due.Add(t.turnTime).Sub(now).Milliseconds())
	}
	return left
}

// turnSeconds is the table's time per move in the units its creator chose
// it in (Config.TurnUnit, a second but in tests).
func (t *table) turnSeconds() int {
	return int(t.turnTime / t.srv.cfg.TurnUnit)
}
