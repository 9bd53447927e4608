package table

import (
	"context"
	"errors"
	"time"
)

// A turn-based table nobody is at sleeps in the store between moves
// (issue 29), costing no goroutine, socket or memory but its summary in
// the table set (tableset.Dormant): it goes as soon as nothing is to be
// played there but by people (quiet) and turnIdle has passed since the
// last person left, rather than after Config.IdleTimeout as a real-time
// table does. It wakes as a real-time table does, when a request needs it
// (a socket joining, a move over HTTP: lookup), and also when its
// deadline passes (deadline.go's wakeDue), a bot's turn included.

// turnIdle is how long a turn-based table nobody is at stays loaded once
// quiet: long enough for the request that loaded it (an HTTP move) to
// reach it, and for a page being reloaded to come back.
func (s *Host) turnIdle() time.Duration { return min(s.cfg.IdleTimeout, 10*time.Second) }

// sleepy reports whether a turn-based table may go to sleep now: nobody
// is connected, nothing is to be played but by people, and turnIdle has
// passed since the last person left.
func (t *table) sleepy() bool {
	return len(t.conns) == 0 && t.quiet() && time.Since(t.empty) >= t.srv.turnIdle()
}

// armSleep arms the idle timer of a turn-based table nobody is at, once
// it is quiet: at the end of turnIdle (schedule). A table that is not
// quiet is looked at again after its next move.
func (t *table) armSleep() {
	if t.idleC != nil || len(t.conns) > 0 || !t.quiet() {
		return
	}
	t.idleC = time.After(time.Until(t.empty.Add(t.srv.turnIdle())))
}

// callAwake runs f in table t's goroutine, as call does, for a request
// that found it loaded. A table that went to sleep between the lookup
// and the call (its goroutine ended: a turn-based table sleeps once
// quiet) is looked up again, which wakes it, once.
func (s *Host) callAwake(ctx context.Context, t *table, f func(*table)) error {
	err := t.call(ctx, func() { f(t) })
	if !errors.Is(err, errTableClosed) {
		return err
	}
	again, lerr := s.lookup(t.id)
	if again == nil || again == t {
		return errors.Join(err, lerr)
	}
	return again.call(ctx, func() { f(again) })
}
