package table

import (
	"context"
	"slices"
	"time"

	"tapis/game"
	"tapis/store"
	"tapis/table/tableset"
)

// A turn-based table's clocks live in the store (store.Clock): its
// goroutine writes them whenever they change (keepClock), a load reads
// them back (restoreClock), and every node that may own tables looks for
// the tables whose deadline has passed and wakes them (wakeDue), so that
// a deadline is kept across a restart, and on another node when its
// owner is gone. A deadline is the earliest end of a due person's time,
// or now when a bot or a stand-in is due to act (a restart between two
// moves of bots then wakes the table at once).

// now is the host's time (Config.Now): the clocks of turn-based tables
// read it, so that a test moves it.
func (s *Host) now() time.Time { return s.cfg.Now() }

// clockNow returns the table's clock as it stands.
func (t *table) clockNow() store.Clock {
	c := store.Clock{Match: t.match, N: t.n, Turn: t.turnTime, Due: make([]time.Time, len(t.seats)), Timeouts: make([]int, len(t.seats))}
	copy(c.Timeouts, t.days.timeouts)
	if t.st == nil || t.st.Over() {
		return c
	}
	for s := range t.st.ToMove().All() {
		seat := &t.seats[s]
		c.Due[s] = seat.due
		end := seat.due.Add(t.turnTime)
		switch {
		case seat.Bot != "":
			end = seat.due // a bot's turn: at once
		case seat.due.IsZero():
			continue
		}
		if c.Deadline.IsZero() || end.Before(c.Deadline) {
			c.Deadline = end
		}
		if w := t.warnAt(s); !w.IsZero() && (c.Warn.IsZero() || w.Before(c.Warn)) {
			c.Warn = w
		}
	}
	return c
}

// sameClock reports whether a and b are the same clock.
func sameClock(a, b store.Clock) bool {
	return a.Match == b.Match && a.N == b.N && a.Turn == b.Turn && a.Deadline.Equal(b.Deadline) && a.Warn.Equal(b.Warn) &&
		slices.EqualFunc(a.Due, b.Due, time.Time.Equal) && slices.Equal(a.Timeouts, b.Timeouts)
}

// keepClock writes a turn-based table's clock to the store if it changed
// (schedule). A failed write is logged and tried again at the next
// change: the clock written before still wakes the table, at worst early
// (its seats' times are checked again then) or at a restart.
func (t *table) keepClock() {
	if !t.days.on {
		return
	}
	if err := t.writeClock(); err != nil {
		t.srv.log.Error("write a clock", "table", t.id, "err", err)
	}
}

// writeClock writes the table's clock if it changed since it was last
// written.
func (t *table) writeClock() error {
	if c := t.clockNow(); !sameClock(c, t.days.written) {
		return t.setClock(c)
	}
	return nil
}

// setClock writes c as the table's clock.
func (t *table) setClock(c store.Clock) error {
	ctx, cancel := t.srv.persist()
	defer cancel()
	if err := t.srv.cfg.Store.SetClock(ctx, t.id, c); err != nil {
		return err
	}
	t.days.written = c
	return nil
}

// restoreClock makes a table just loaded turn-based if the store has its
// clock, and gives its seats back their times and their timeouts: those
// of the clock if it was written at the position replayed; otherwise (the
// server stopped between a move and its clock) the due seats' times start
// from now, as a real-time table's do after a restart.
func (t *table) restoreClock(ctx context.Context) error {
	c, ok, err := t.srv.cfg.Store.Clock(ctx, t.id)
	if err != nil {
		return err
	}
	if !ok {
		// No clock: a real-time table, or a turn-based one whose first
		// clock was not written before a crash (it is written just after
		// the table). The time per move tells them apart, as a real-time
		// table's is at most maxTurn: the clock is written anew at the
		// next schedule, the due seats' times starting from now.
		if t.turnSeconds() >= minDaysTurn {
			t.days.on = true
			t.days.timeouts = make([]int, len(t.seats))
		}
		return nil
	}
	t.days.on = true
	t.days.timeouts = make([]int, len(t.seats))
	if c.Match != t.match || c.N != t.n || len(c.Due) != len(t.seats) {
		return nil
	}
	copy(t.days.timeouts, c.Timeouts)
	for i := range t.seats {
		if !t.seats[i].due.IsZero() && !c.Due[i].IsZero() {
			t.seats[i].due = c.Due[i]
		}
	}
	t.days.written = c
	return nil
}

// wakeDue wakes, every wakeEvery (or Config.SweepEvery if shorter) until
// the host stops, the turn-based tables whose deadline has passed
// (wakeNow).
func (s *Host) wakeDue() {
	tick := time.NewTicker(min(s.cfg.SweepEvery, wakeEvery))
	defer tick.Stop()
	for {
		s.wakeNow()
		select {
		case <-s.ctx.Done():
			return
		case <-tick.C:
		}
	}
}

// wakeBatch bounds the tables one look wakes: the rest wait for the next,
// wakeEvery later (some 3,000 a minute).
const (
	wakeBatch = 256
	wakeEvery = 5 * time.Second
)

// wakeNow wakes the turn-based tables whose deadline has passed, as the
// store has them: one loaded here is told to look at its clocks; another
// is loaded, if this node may hold it (in a cluster, the first node to
// take its lease does; the others leave it), and its goroutine then
// plays what its clocks say, and goes back to sleep.
func (s *Host) wakeNow() {
	if s.stopping() {
		return
	}
	ctx, cancel := s.persist()
	defer cancel()
	ids, err := s.cfg.Store.DueClocks(ctx, s.now(), wakeBatch)
	if err != nil {
		s.log.Error("due clocks", "err", err)
		return
	}
	for _, id := range ids {
		if t := s.tables.Get(id); t != nil {
			t.post(ctx, func() { t.turnUp() })
			continue
		}
		if node, _, err := s.own.OwnerOf(ctx, id); err != nil || node != "" {
			continue
		}
		if _, err := s.lookup(id); err != nil {
			s.log.Warn("wake a table", "table", id, "err", err)
		}
	}
}

// asleepTurns returns the turns of a player at the turn-based tables of
// pts, theirs, that this node has not loaded, from their clocks in the store: a
// table asleep (or loaded on another node) is listed as its clock has it.
func (s *Host) asleepTurns(ctx context.Context, pts []store.PlayerTable) ([]Turn, error) {
	var out []Turn
	for _, pt := range pts {
		if s.tables.Get(pt.ID) != nil {
			continue
		}
		c, ok, err := s.cfg.Store.Clock(ctx, pt.ID)
		if err != nil {
			return nil, err
		}
		if !ok || pt.Seat < 0 || pt.Seat >= len(c.Due) || c.Due[pt.Seat].IsZero() {
			continue
		}
		since := c.Due[pt.Seat].UTC()
		deadline := since.Add(c.Turn)
		out = append(out, Turn{Table: pt.ID, Game: pt.Game, Players: pt.Players, Seat: game.Seat(pt.Seat), Match: c.Match, N: c.N,
			Since: since, Deadline: &deadline})
	}
	return out, nil
}

// markTurnBased notes in the summaries of the dormant tables which are
// turn-based (restore): those the store has a clock of.
func (s *Host) markTurnBased(ctx context.Context, asleep []*tableset.Asleep) error {
	clocks, err := s.cfg.Store.OpenClocks(ctx)
	if err != nil {
		return err
	}
	for _, d := range asleep {
		_, d.TurnBased = clocks[d.ID]
	}
	return nil
}

// writeTurnBased writes the first clock of a turn-based table just made,
// which makes it one in the store. It has no deadline yet: the table is
// not in the table set before it is written, and a waker that found it
// due then would load a second copy (adopt); its goroutine writes the
// whole clock once it runs (keepClock).
func (t *table) writeTurnBased() error {
	if !t.days.on {
		return nil
	}
	return t.setClock(store.Clock{Match: -1, Turn: t.turnTime})
}
