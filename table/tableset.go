package table

import (
	"fmt"
	"log/slog"
	"sync"
)

// A transitionError is a move the table set refused: one the lifecycle
// does not have (legal), or one whose table is no longer where, or as,
// its mover found it (another goroutine moved it first).
type transitionError struct {
	id       string
	from, to Residence
	at       Residence // where the table was
	why      string
	// race: the move is in the lifecycle, but another goroutine moved
	// the table first; otherwise the mover asked for what never happens.
	race bool
}

func (e *transitionError) Error() string {
	return fmt.Sprintf("server: table %s cannot go from %v to %v: %s", e.id, e.from, e.to, e.why)
}

// tableSet is every table this node holds, by residence: the one owner of
// the maps, whose move is the one way between them.
type tableSet struct {
	log *slog.Logger

	mu      sync.Mutex
	loaded  map[string]*table   // Loaded
	dormant map[string]*dormant // Dormant, or Loading (dormant.loading set)
	ended   map[string]struct{} // over or closed, as adopt found them
	settled map[string]struct{} // dormant tables settle has checked
}

func newTableSet(log *slog.Logger) *tableSet {
	return &tableSet{log: log, loaded: map[string]*table{}, dormant: map[string]*dormant{},
		ended: map[string]struct{}{}, settled: map[string]struct{}{}}
}

// residence returns where table id is. ts.mu is held.
func (ts *tableSet) residence(id string) Residence {
	if ts.loaded[id] != nil {
		return Loaded
	}
	switch d := ts.dormant[id]; {
	case d == nil:
		return Absent
	case d.loading != nil:
		return Loading
	}
	return Dormant
}

// move moves table id from residence from to residence to, or refuses,
// logs and returns why (a *transitionError), changing nothing. t is the
// loaded table when from or to is Loaded; d the dormant summary when from
// or to is Dormant or Loading. The table must be where, and as, its mover
// found it: the same *table, the same *dormant. Going to Loading makes
// d.loading, which only its holder closes (done), even once another
// goroutine has moved the table on (forget, disown): until then, a
// request for it waits. ts.mu is held.
func (ts *tableSet) move(id string, from, to Residence, t *table, d *dormant) error {
	at := ts.residence(id)
	e := &transitionError{id: id, from: from, to: to, at: at}
	switch {
	case !legal(from, to):
		e.why = "no such transition"
	case to == Loaded && t == nil, (to == Dormant || to == Loading) && d == nil, to == Dormant && d.loading != nil:
		e.why = "nothing to hold"
	case at != from:
		// Lost to another goroutine: a race the lifecycle allows (a
		// lease lost while the table went to sleep, say).
		e.why, e.race = "it is "+at.String(), true
	case from == Loaded && ts.loaded[id] != t, (from == Dormant || from == Loading) && ts.dormant[id] != d:
		e.why, e.race = "it is "+at.String()+" again, held anew since", true
	}
	if e.why != "" {
		if e.race {
			ts.log.Warn("table transition refused", "table", id, "err", e)
		} else {
			ts.log.Error("illegal table transition refused", "table", id, "err", e)
		}
		return e
	}
	switch from {
	case Loaded:
		delete(ts.loaded, id)
	case Dormant, Loading:
		if to != Loading {
			delete(ts.dormant, id)
		}
	}
	switch to {
	case Loaded:
		ts.loaded[id] = t
	case Dormant:
		ts.dormant[id] = d
	case Loading:
		d.loading = make(chan struct{})
	}
	return nil
}

// done ends d's hold (Loading): the requests waiting for it look again.
// It follows the holder's move out of Loading, refused or not.
func (d *dormant) done() { close(d.loading) }

// get returns loaded table id, or nil.
func (ts *tableSet) get(id string) *table {
	ts.mu.Lock()
	defer ts.mu.Unlock()
	return ts.loaded[id]
}

// tables returns the loaded tables as they are now.
func (ts *tableSet) tables() []*table {
	ts.mu.Lock()
	defer ts.mu.Unlock()
	l := make([]*table, 0, len(ts.loaded))
	for _, t := range ts.loaded {
		l = append(l, t)
	}
	return l
}

// count returns how many tables are loaded, and how many dormant (Dormant
// or Loading).
func (ts *tableSet) count() (loaded, dormant int) {
	ts.mu.Lock()
	defer ts.mu.Unlock()
	return len(ts.loaded), len(ts.dormant)
}

// add holds t, a table just made here: Absent to Loaded.
func (ts *tableSet) add(t *table) error {
	ts.mu.Lock()
	defer ts.mu.Unlock()
	return ts.move(t.id, Absent, Loaded, t, nil)
}

// forget drops the summary of dormant table id (Dormant or Loading to
// Absent) and returns it; a loaded table stays.
func (ts *tableSet) forget(id string) *dormant {
	ts.mu.Lock()
	defer ts.mu.Unlock()
	switch r := ts.residence(id); r {
	case Dormant, Loading:
		d := ts.dormant[id]
		if ts.move(id, r, Absent, nil, d) == nil {
			return d
		}
	}
	return nil
}

// handOver drops table id, its lease lost (to HandedOver, whatever its
// residence), and returns it if it was loaded: its goroutine is then to
// stop (table.handOver).
func (ts *tableSet) handOver(id string) *table {
	ts.mu.Lock()
	defer ts.mu.Unlock()
	switch r := ts.residence(id); r {
	case Loaded:
		t := ts.loaded[id]
		if ts.move(id, r, HandedOver, t, nil) == nil {
			return t
		}
	case Dormant, Loading:
		ts.move(id, r, HandedOver, nil, ts.dormant[id])
	}
	return nil
}

// isEnded reports whether adopt found table id over or closed.
func (ts *tableSet) isEnded(id string) bool {
	ts.mu.Lock()
	defer ts.mu.Unlock()
	_, ok := ts.ended[id]
	return ok
}

// markEnded remembers that table id is over or closed, for good: asked
// again, adopt does not read it again with all its moves.
func (ts *tableSet) markEnded(id string) {
	ts.mu.Lock()
	defer ts.mu.Unlock()
	if len(ts.ended) >= maxEnded {
		clear(ts.ended)
	}
	ts.ended[id] = struct{}{}
}

// firstSettle reports whether table id is to be checked by settle: not
// loaded (a load settles it) and not checked before; it is marked
// checked.
func (ts *tableSet) firstSettle(id string) bool {
	ts.mu.Lock()
	defer ts.mu.Unlock()
	if _, done := ts.settled[id]; done || ts.loaded[id] != nil {
		return false
	}
	if len(ts.settled) >= maxEnded {
		clear(ts.settled)
	}
	ts.settled[id] = struct{}{}
	return true
}

// maxEnded bounds the ended tables adopt remembers, and the tables settle
// has checked; past it, the set forgets them all and starts again.
const maxEnded = 1 << 14
