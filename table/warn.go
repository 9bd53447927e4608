package table

import (
	"context"
	"time"

	"tapis/game"
	"tapis/notify"
)

// A deadline in less than an hour (issue 29): a person due at a
// turn-based table is told once per move, by package notify's
// DeadlineSoon, when their time to move has less than warnBefore left.
// The moment to tell them is in the table's clock in the store
// (store.Clock.Warn), so that a table asleep then is woken for it
// (deadline.go's wakeDue), as for a deadline, across a restart and on
// another node too; once told, the clock loses it and the table sleeps
// until the deadline. A table whose time per move is an hour or less
// warns nobody: its "your turn" said as much.

// warnBefore is how long before their deadline a due person is told.
const warnBefore = notify.DeadlineSoonWithin

// Warner tells a player that their time to move runs out soon (a
// *notify.Service). It tells them once per table, match, seat and move,
// however often it is asked, across restarts.
type Warner interface {
	DeadlineSoon(ctx context.Context, player string, d notify.Deadline) (bool, error)
}

// warnMark is the move a seat was told its deadline is near of.
type warnMark struct {
	ok       bool
	match, n int
}

// warnAt returns when due seat s must be told its deadline is near, or
// zero if it need not be: it is not a person's own to play, the table
// warns nobody, or it was told already of this move.
func (t *table) warnAt(s game.Seat) time.Time {
	seat := &t.seats[s]
	if !t.days.on || t.srv.warner == nil || t.turnTime <= warnBefore || seat.Bot != "" || seat.Player == "" ||
		seat.player != nil || seat.due.IsZero() || seat.warned == (warnMark{true, t.match, seat.dueN}) {
		return time.Time{}
	}
	return seat.due.Add(t.turnTime - warnBefore)
}

// warnSoon tells every due person whose moment to be warned has come
// that their deadline is near (schedule), and marks them told; a failed
// telling is tried again at the table's next wake (its clock keeps the
// moment). A deadline already passed tells nothing: the stand-in plays.
func (t *table) warnSoon() {
	if !t.days.on || t.srv.warner == nil || t.st == nil || t.st.Over() {
		return
	}
	now := t.srv.now()
	for s := range t.st.ToMove().All() {
		at := t.warnAt(s)
		if at.IsZero() || now.Before(at) {
			continue
		}
		seat := &t.seats[s]
		if end := seat.due.Add(t.turnTime); now.Before(end) {
			d := notify.Deadline{Table: t.id, Game: t.g.Name(), Seat: int(s), Match: t.match, N: seat.dueN, At: end}
			ctx, cancel := t.srv.persist()
			_, err := t.srv.warner.DeadlineSoon(ctx, seat.Player, d)
			cancel()
			if err != nil {
				t.srv.log.Warn("tell a deadline", "table", t.id, "seat", s, "err", err)
				continue
			}
		}
		seat.warned = warnMark{true, t.match, seat.dueN}
	}
}
