package table

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"time"

	"tapis/api"
	"tapis/store"
	"tapis/table/tableset"
	"tapis/wire"
)

// A table's life. Its game (Status) goes waiting (seats free) → playing →
// over → playing again ("play again"); the store knows that from its
// matches. Where it lives (tableset.Residence), this file decides, in one
// place, and the table set (package tableset) holds, moving it only as
// the lifecycle allows:
//
//   - Loaded: a goroutine owns it (table.run) while anyone is connected,
//     and for Config.IdleTimeout after the last one leaves;
//   - Dormant: only in the store, summarised in the set; the first
//     request that needs it loads it (find), replaying its moves, holding
//     it Loading meanwhile so that it is loaded once (the sweep holds it
//     so while it closes it);
//   - HandedOver: in a cluster, its lease went to another node (package lease),
//     which loads it; this one holds nothing of it any more (Absent);
//   - closed, for good, kept in the store (Absent here): expired (it
//     waited for players and nobody came for Config.WaitingTTL), abandoned
//     (its match was left unfinished with nobody there for
//     Config.AbandonAfter), or broken (it cannot be restored: logged with
//     its id, then skipped).
//
// Start-up reads only the summaries, so that ten thousand stored tables
// cost a query, not ten thousand replays. Nothing plays at a table nobody
// is connected to (attended): its bots and stand-ins wait with it; but at
// a turn-based table, whose clocks run whoever is there, and which sleeps
// as soon as it is quiet and wakes for its deadlines (days.go, sleep.go,
// deadline.go).

// Status is where a table's game is (wire.Status): the table info, the
// state message and the metrics' label carry it.
type Status = wire.Status

// The statuses of a table's game.
const (
	StatusWaiting = wire.StatusWaiting
	StatusPlaying = wire.StatusPlaying
	StatusOver    = wire.StatusOver
)

var (
	errBusy   = errors.New("server: too many tables are in play; try again later")
	errBroken = errors.New("server: this table could not be restored")
)

// restore reads the open tables' summaries and closes those whose time
// is up, those past their creator's waiting limit and those that cannot
// be read; the others wait, dormant, to be loaded when needed.
func (s *Host) restore(ctx context.Context) error {
	open, err := s.cfg.Store.Open(ctx)
	if err != nil {
		return err
	}
	now := time.Now()
	counts := map[store.Closed]int{}
	asleep := make([]*tableset.Asleep, len(open))
	for i, sm := range open {
		asleep[i] = &tableset.Asleep{Summary: sm, Unwait: func() {}}
	}
	if err := s.markTurnBased(ctx, asleep); err != nil {
		return err
	}
	for _, d := range asleep {
		sm := d.Summary
		why, reason := s.due(d, now)
		if why == store.NotClosed && !sm.Started {
			var refused string
			if d.Unwait, refused = s.guard.HoldWaiting(sm.Creator); refused != "" {
				why, reason = store.Expired, "its creator ("+refused+") has too many tables waiting"
			}
		}
		if why != store.NotClosed {
			// In a cluster, only what this node can hold is closed: a
			// table another node holds is in play there, whatever the
			// store's summary says of it.
			if node, _, err := s.own.OwnerOf(ctx, sm.ID); err != nil || node != "" {
				d.Unwait()
				continue
			}
			s.retire(ctx, d, why, reason)
			s.own.Release(sm.ID)
			counts[why]++
			continue
		}
		s.tables.Lock()
		if s.tables.Move(sm.ID, tableset.Absent, tableset.Dormant, nil, d) != nil {
			d.Unwait() // the store listed it twice
		}
		s.tables.Unlock()
	}
	_, dormant := s.tables.Count()
	s.log.Info("tables", "open", dormant, "expired", counts[store.Expired],
		"abandoned", counts[store.Abandoned], "broken", counts[store.Broken])
	return nil
}

// due says whether a dormant table must be closed now, and why.
func (s *Host) due(d *tableset.Asleep, now time.Time) (store.Closed, string) {
	switch {
	case d.Problem != "":
		return store.Broken, d.Problem
	case s.games[d.Game] == nil:
		return store.Broken, fmt.Sprintf("no game %q", d.Game)
	case d.TurnBased && !d.Started && now.Sub(d.Active) >= turnWaiting:
		return store.Expired, fmt.Sprintf("nobody came for %v", turnWaiting)
	case d.TurnBased:
		// Played over days: its players' timeouts end it (days.go).
	case !d.Started && now.Sub(d.Active) >= s.cfg.WaitingTTL:
		return store.Expired, fmt.Sprintf("nobody came for %v", s.cfg.WaitingTTL)
	case d.Started && now.Sub(d.Active) >= s.cfg.AbandonAfter:
		return store.Abandoned, fmt.Sprintf("nobody played for %v", s.cfg.AbandonAfter)
	}
	return store.NotClosed, ""
}

// forget drops what this node remembers of table id that is not its own:
// a dormant summary read before another node played on.
func (s *Host) forget(id string) {
	if d := s.tables.Forget(id); d != nil {
		d.Unwait()
	}
}

// handOver stops table id here, its lease lost for why (lease.Owner's
// HandOver): the set drops it, and its goroutine, if it had one, closes
// its sockets and ends.
func (s *Host) handOver(id, why string) {
	if t, ok := s.tables.HandOver(id); ok {
		s.log.Info("table handed over", "table", id, "because", why)
		t.post(context.Background(), func() { t.handOver() })
	}
}

// stillDue reports whether a dormant table summarised as sm is due to
// close now (lease.Owner's Due).
func (s *Host) stillDue(sm store.Summary) bool {
	why, _ := s.due(&tableset.Asleep{Summary: sm}, time.Now())
	return why != store.NotClosed
}

// close closes a table in the store, saying so in the log.
func (s *Host) close(ctx context.Context, id string, why store.Closed, reason string) {
	if why == store.Broken {
		s.log.Error("cannot restore table", "table", id, "err", reason)
	} else {
		s.log.Info("table closed", "table", id, "as", why, "because", reason)
	}
	if err := s.cfg.Store.CloseTable(ctx, id, why, reason); err != nil {
		s.log.Error("close table", "table", id, "err", err)
	}
}

// retire closes a dormant table whose time is up. A match abandoned
// unfinished is read first: a rated one is rated, the people who left it
// last (rated.go: leaving is no way out of a loss), and one whose moves
// ended the game (a crash came between its last move and its end) is
// marked over by load, and stays, as a finished match does.
func (s *Host) retire(ctx context.Context, d *tableset.Asleep, why store.Closed, reason string) {
	if why == store.Abandoned {
		if t, err := s.load(d); err == nil && t.st != nil {
			if t.st.Over() {
				return
			}
			if t.rated {
				t.rateAbandoned()
				reason += "; rated, the players who left last"
			}
		}
	}
	s.close(ctx, d.ID, why, reason)
}

// sweep closes the dormant tables whose time is up, every
// Config.SweepEvery until the server stops.
func (s *Host) sweep() {
	tick := time.NewTicker(s.cfg.SweepEvery)
	defer tick.Stop()
	// The lobby's liveness of waiting tables is kept on the same loop
	// (players.go).
	listed := time.NewTicker(s.cfg.ListedFor / 4)
	defer listed.Stop()
	for {
		select {
		case <-s.ctx.Done():
			return
		case <-listed.C:
			s.keepListed()
		case now := <-tick.C:
			type closing struct {
				d      *tableset.Asleep
				why    store.Closed
				reason string
			}
			var due []closing
			ts := s.tables
			ts.Lock()
			for id, d := range ts.AllAsleep() {
				if d.Loading() != nil {
					continue
				}
				if why, reason := s.due(d, now); why != store.NotClosed {
					// Held Loading, as a load holds it, until the store
					// says closed: a request meanwhile waits, then finds
					// it closed rather than adopting it again (adopt).
					if ts.Move(id, tableset.Dormant, tableset.Loading, nil, d) == nil {
						due = append(due, closing{d, why, reason})
					}
				}
			}
			ts.Unlock()
			for _, c := range due {
				ctx, cancel := s.persist()
				// In a cluster, a table is closed by the node that holds
				// its lease; one another node holds is in play there. And
				// this node's summary may be older than what another
				// node did with the table since: it is read again first.
				if node, _, err := s.own.OwnerOf(ctx, c.d.ID); err == nil && node == "" && s.own.StillDue(ctx, c.d.Summary) {
					s.retire(ctx, c.d, c.why, c.reason)
				}
				cancel()
				s.own.Release(c.d.ID)
				ts.Lock()
				ts.Move(c.d.ID, tableset.Loading, tableset.Absent, nil, c.d) // refused if handed over meanwhile
				ts.Unlock()
				c.d.Done()
				c.d.Unwait()
			}
			// Expired sessions are no use to anyone: the store forgets
			// them (every node may do it; it is the same delete).
			ctx, cancel := s.persist()
			if _, err := s.cfg.Store.DeleteExpiredSessions(ctx, now); err != nil {
				s.log.Error("delete expired sessions", "err", err)
			}
			cancel()
			s.pruneChat(now)
		}
	}
}

// find returns table id, loading it if it is dormant, or answers the
// request itself (404, 503) and returns nil.
func (s *Host) find(w http.ResponseWriter, id string) *table {
	t, err := s.lookup(id)
	if t == nil {
		refuse(w, err)
	}
	return t
}

// refuse answers a request for a table lookup did not find: busy, broken
// or not found, as err says.
func refuse(w http.ResponseWriter, err error) {
	switch {
	case errors.Is(err, errBusy):
		api.Error(w, http.StatusServiceUnavailable, api.CodeBusy, err.Error())
	case errors.Is(err, errBroken):
		api.Error(w, http.StatusNotFound, api.CodeBroken, err.Error())
	default:
		api.Error(w, http.StatusNotFound, api.CodeNoTable, "server: no such table")
	}
}

// lookup returns table id, loaded, or nil if there is no such open table.
// Two requests for one dormant table load it once.
func (s *Host) lookup(id string) (*table, error) {
	ts := s.tables
	for {
		ts.Lock()
		d := ts.Asleep(id)
		switch ts.At(id) {
		case tableset.Loaded:
			t := ts.Table(id)
			ts.Unlock()
			return t, nil
		case tableset.Absent:
			ts.Unlock()
			if !s.adopt(id) {
				return nil, nil
			}
			continue
		case tableset.Loading:
			wait := d.Loading()
			ts.Unlock()
			<-wait
			continue
		}
		if loaded, _ := ts.Sizes(); loaded >= s.cfg.MaxTables {
			ts.Unlock()
			return nil, errBusy
		}
		err := ts.Move(id, tableset.Dormant, tableset.Loading, nil, d)
		ts.Unlock()
		if err != nil {
			continue
		}
		t, err := s.load(d)
		ts.Lock()
		var moved error
		if err == nil {
			moved = ts.Move(id, tableset.Loading, tableset.Loaded, t, d)
		} else {
			moved = ts.Move(id, tableset.Loading, tableset.Absent, nil, d)
		}
		ts.Unlock()
		d.Done()
		if moved != nil && err == nil {
			// It left this node while it loaded (its lease lost, or
			// forgotten for a fresher owner's): this copy is dropped,
			// never run, its waiting place given back as its goroutine
			// would have, and the table looked for again.
			d.Unwait()
			continue
		}
		if err != nil {
			ctx, cancel := s.persist()
			s.close(ctx, id, store.Broken, err.Error())
			cancel()
			d.Unwait()
			return nil, errBroken
		}
		s.launch(t)
		// A table whose seats were all taken before a crash that came
		// before its match was written (a database of an earlier
		// version; writes go together now) starts now.
		if t.st == nil && t.full() {
			if cerr := t.call(context.Background(), func() {
				if t.st == nil && t.full() {
					err = t.start()
				}
			}); cerr != nil || err != nil {
				s.log.Error("start table", "table", id, "err", errors.Join(cerr, err))
			}
		}
		return t, nil
	}
}

// adopt makes dormant a table this server has not heard of that the store
// holds open: one the quick-match queue seated people at, or one another
// node made. It reports whether there is now such a table to load.
func (s *Host) adopt(id string) bool {
	if id == "" || len(id) > 64 {
		return false
	}
	if s.tables.IsEnded(id) {
		return false
	}
	ctx, cancel := s.persist()
	defer cancel()
	sv, err := s.cfg.Store.Load(ctx, id)
	if err != nil {
		return false
	}
	if sv.Closed != store.NotClosed {
		// Closed is for good here: asked again, the answer is
		// remembered rather than read again with all its moves.
		s.tables.MarkEnded(id)
		return false
	}
	// A finished match is adopted too: its page shows its result and its
	// links after a restart or once it was evicted (issue 26), loaded
	// until nobody looks at it (evict forgets it again). MaxTables bounds
	// how many are loaded at once, as for any table.
	seated := 0
	for _, st := range sv.Seats {
		if st.Bot != "" || st.TokenHash != "" {
			seated++
		}
	}
	ts := s.tables
	ts.Lock()
	defer ts.Unlock()
	_, turnBased, _ := s.cfg.Store.Clock(ctx, id)
	if ts.At(id) == tableset.Absent {
		ts.Move(id, tableset.Absent, tableset.Dormant, nil, &tableset.Asleep{Summary: store.Summary{ID: id, Game: sv.Game, Players: sv.Players, Created: sv.Created,
			Creator: sv.Creator, Active: sv.Active, Started: sv.Match != nil, Seated: seated}, Unwait: func() {}, TurnBased: turnBased})
	}
	return true
}

// load reads a dormant table and replays its match. A rules engine fed
// a damaged row may panic: that makes the table broken, not the server.
func (s *Host) load(d *tableset.Asleep) (t *table, err error) {
	defer func() {
		if r := recover(); r != nil {
			t, err = nil, fmt.Errorf("replaying panicked: %v", r)
		}
	}()
	ctx, cancel := s.persist()
	defer cancel()
	sv, err := s.cfg.Store.Load(ctx, d.ID)
	switch {
	case err != nil:
		return nil, err
	case s.games[sv.Game] == nil:
		return nil, fmt.Errorf("no game %q", sv.Game)
	case len(sv.Seats) != sv.Players:
		return nil, fmt.Errorf("%d seats for %d players", len(sv.Seats), sv.Players)
	}
	t = newTable(s, sv.Table)
	t.unwait = d.Unwait
	if sv.Match != nil {
		if err := t.replay(sv.Match); err != nil {
			return nil, err
		}
		t.loadHints(ctx)
	}
	if err := t.restoreClock(ctx); err != nil { // deadline.go
		return nil, err
	}
	if sv.Match != nil {
		// A rated match that ended before a restart: recorded then (the
		// store says so) or, if the server stopped first, now.
		t.rateMatch()
		if t.st.Over() && !sv.Match.Over {
			// Its last move ended the game, and the server stopped (a
			// crash) before the end was written: it is written now, so
			// that its history is served and it leaves its players'
			// tables. A failure leaves it for the next load.
			if err := t.w.EndMatch(ctx, t.match); err != nil {
				s.log.Error("end match", "table", t.id, "err", err)
			} else {
				s.log.Info("a match ended before a restart, marked over now", "table", t.id, "match", t.match)
			}
		}
	}
	return t, nil
}

// evict puts a table nobody is connected to back to sleep: it becomes
// dormant if it is open, and is forgotten if its match is over (the store
// keeps it). A request that found it just before gets errTableClosed.
// It runs in the table's goroutine, which then ends.
func (s *Host) evict(t *table) {
	active := t.seen
	ctx, cancel := s.persist()
	if err := s.cfg.Store.Touch(ctx, t.id, active); err != nil {
		s.log.Error("touch table", "table", t.id, "err", err)
	}
	// A busy server keeps no table waiting for players that nobody is
	// at: it expires now rather than after WaitingTTL, so that tables
	// made and left by a flood give their places back within a minute
	// (issue 24, finding 5). It is closed before it leaves memory: a
	// request meanwhile finds it here, and then closed.
	expire := t.st == nil && s.busy()
	if expire {
		s.close(ctx, t.id, store.Expired, fmt.Sprintf("nobody was there for %v while the server was busy", s.cfg.BusyIdle))
		s.lobbyGen.Add(1)
	}
	cancel()
	ts := s.tables
	ts.Lock()
	defer ts.Unlock()
	if expire || t.status() == StatusOver {
		ts.Move(t.id, tableset.Loaded, tableset.Absent, t, nil)
		return
	}
	seated := 0
	for _, st := range t.seats {
		if st.Bot != "" || st.TokenHash != "" {
			seated++
		}
	}
	d := &tableset.Asleep{
		Summary: store.Summary{ID: t.id, Game: t.g.Name(), Players: t.players, Created: t.created,
			Creator: t.creator, Active: active, Started: t.st != nil, Seated: seated},
		Unwait: t.unwait, TurnBased: t.days.on,
	}
	if ts.Move(t.id, tableset.Loaded, tableset.Dormant, t, d) == nil {
		// The waiting place goes with the summary, not with the
		// goroutine.
		t.unwait = func() {}
	}
}

// countTables counts the open tables by status for the metrics
// (tapis_tables): the loaded ones by their game's status as their
// goroutines last showed it, and the dormant ones.
func (s *Host) countTables() map[string]int {
	ts := s.tables
	ts.Lock()
	defer ts.Unlock()
	_, asleep := ts.Sizes()
	n := map[string]int{tableset.Dormant.String(): asleep}
	for t := range ts.AllLoaded() {
		n[t.shown.Load().(Status).String()]++
	}
	return n
}

// busy reports whether the tables in memory have reached 3/4 of
// Config.MaxTables: tables nobody is connected to then leave memory after
// Limits.BusyIdle, and those waiting for players expire.
func (s *Host) busy() bool {
	loaded, _ := s.tables.Count()
	return loaded >= s.cfg.MaxTables*3/4
}

// idleAfter is how long a table nobody is connected to stays in memory:
// Config.IdleTimeout, or Limits.BusyIdle if shorter while the server is
// busy.
func (s *Host) idleAfter() time.Duration {
	if s.busy() {
		return min(s.cfg.IdleTimeout, s.cfg.BusyIdle)
	}
	return s.cfg.IdleTimeout
}

// idleCheck is when a table nobody has been connected to since empty
// next looks whether it is idle (table.schedule): at its IdleTimeout, and
// meanwhile when its BusyIdle is up and every BusyIdle/2 after, in case
// the server has become busy since. A busy server's idle table thus goes
// within 1.5 BusyIdle.
func (s *Host) idleCheck(empty time.Time) time.Duration {
	wait := time.Until(empty.Add(s.cfg.IdleTimeout))
	busy := time.Until(empty.Add(s.cfg.BusyIdle))
	if busy <= 0 {
		busy = s.cfg.BusyIdle / 2
	}
	return min(wait, busy)
}
