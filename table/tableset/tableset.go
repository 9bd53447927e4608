// Package tableset holds the tables of a node by residence (Residence):
// the one owner of the maps, whose Move is the one way between them, and
// which refuses, and logs, a move the lifecycle does not have. Package
// table's lifecycle.go tells a table's life; this package keeps it.
package tableset

import (
	"fmt"
	"iter"
	"log/slog"
	"sync"

	"tapis/store"
)

// Asleep is an open table that is not loaded: Dormant, or held Loading.
type Asleep struct {
	store.Summary
	// Unwait gives back its creator's waiting place (Limits.Waiting).
	Unwait func()
	// TurnBased: the table is played over days (package table's
	// days.go), which its waiting and its abandonment follow.
	TurnBased bool
	// loading is made when the table goes Loading (Set.Move), and
	// closed by its holder when it is done (Done).
	loading chan struct{}
}

// Loading is the channel closed when d's hold ends (Done), or nil if d is
// not held Loading.
func (d *Asleep) Loading() <-chan struct{} { return d.loading }

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

// Set is every table this node holds, by residence: the one owner of
// the maps, whose Move is the one way between them. T is a loaded table
// (package table's *table). The methods that say "ts is locked" are
// called between Lock and Unlock, so that a look and the move it decides
// are one step; the others lock the set themselves.
type Set[T comparable] struct {
	log *slog.Logger

	mu      sync.Mutex
	loaded  map[string]T        // Loaded
	dormant map[string]*Asleep  // Dormant, or Loading (Asleep.loading set)
	ended   map[string]struct{} // closed, as adopt found them
	settled map[string]struct{} // dormant tables settle has checked
}

// New returns an empty set that logs the moves it refuses to log.
func New[T comparable](log *slog.Logger) *Set[T] {
	return &Set[T]{log: log, loaded: map[string]T{}, dormant: map[string]*Asleep{},
		ended: map[string]struct{}{}, settled: map[string]struct{}{}}
}

// Lock locks the set.
func (ts *Set[T]) Lock() { ts.mu.Lock() }

// Unlock unlocks the set.
func (ts *Set[T]) Unlock() { ts.mu.Unlock() }

// Table returns loaded table id, or the zero T. ts is locked.
func (ts *Set[T]) Table(id string) T { return ts.loaded[id] }

// Asleep returns the summary of dormant (or loading) table id, or nil.
// ts is locked.
func (ts *Set[T]) Asleep(id string) *Asleep { return ts.dormant[id] }

// Sizes returns how many tables are loaded, and how many dormant
// (Dormant or Loading). ts is locked.
func (ts *Set[T]) Sizes() (loaded, dormant int) { return len(ts.loaded), len(ts.dormant) }

// AllAsleep is the dormant (and loading) tables. ts is locked, and no
// move but to Loading, which changes no map, is made while it runs.
func (ts *Set[T]) AllAsleep() iter.Seq2[string, *Asleep] {
	return func(yield func(string, *Asleep) bool) {
		for id, d := range ts.dormant {
			if !yield(id, d) {
				return
			}
		}
	}
}

// AllLoaded is the loaded tables. ts is locked, and no move is made while
// it runs.
func (ts *Set[T]) AllLoaded() iter.Seq[T] {
	return func(yield func(T) bool) {
		for _, t := range ts.loaded {
			if !yield(t) {
				return
			}
		}
	}
}

// At returns where table id is. ts is locked.
func (ts *Set[T]) At(id string) Residence {
	if _, ok := ts.loaded[id]; ok {
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

// Move moves table id from residence from to residence to, or refuses,
// logs and returns why (a *transitionError), changing nothing. t is the
// loaded table when from or to is Loaded; d the dormant summary when from
// or to is Dormant or Loading. The table must be where, and as, its mover
// found it: the same T, the same *Asleep. Going to Loading makes
// d.loading, which only its holder closes (Done), even once another
// goroutine has moved the table on (Forget, HandOver): until then, a
// request for it waits. ts is locked.
func (ts *Set[T]) Move(id string, from, to Residence, t T, d *Asleep) error {
	var none T
	at := ts.At(id)
	e := &transitionError{id: id, from: from, to: to, at: at}
	switch {
	case !legal(from, to):
		e.why = "no such transition"
	case to == Loaded && t == none, (to == Dormant || to == Loading) && d == nil, to == Dormant && d.loading != nil:
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

// Done ends d's hold (Loading): the requests waiting for it look again.
// It follows the holder's move out of Loading, refused or not.
func (d *Asleep) Done() { close(d.loading) }

// Get returns loaded table id, or the zero T.
func (ts *Set[T]) Get(id string) T {
	ts.mu.Lock()
	defer ts.mu.Unlock()
	return ts.loaded[id]
}

// Tables returns the loaded tables as they are now.
func (ts *Set[T]) Tables() []T {
	ts.mu.Lock()
	defer ts.mu.Unlock()
	l := make([]T, 0, len(ts.loaded))
	for _, t := range ts.loaded {
		l = append(l, t)
	}
	return l
}

// Count returns how many tables are loaded, and how many dormant (Dormant
// or Loading).
func (ts *Set[T]) Count() (loaded, dormant int) {
	ts.mu.Lock()
	defer ts.mu.Unlock()
	return len(ts.loaded), len(ts.dormant)
}

// Add holds t, table id just made here: Absent to Loaded.
func (ts *Set[T]) Add(id string, t T) error {
	ts.mu.Lock()
	defer ts.mu.Unlock()
	return ts.Move(id, Absent, Loaded, t, nil)
}

// Forget drops the summary of dormant table id (Dormant or Loading to
// Absent) and returns it; a loaded table stays.
func (ts *Set[T]) Forget(id string) *Asleep {
	var none T
	ts.mu.Lock()
	defer ts.mu.Unlock()
	switch r := ts.At(id); r {
	case Dormant, Loading:
		d := ts.dormant[id]
		if ts.Move(id, r, Absent, none, d) == nil {
			return d
		}
	}
	return nil
}

// HandOver drops table id, its lease lost (to HandedOver, whatever its
// residence), and returns it if it was loaded (ok): its goroutine is then
// to stop (package table's handOver).
func (ts *Set[T]) HandOver(id string) (t T, ok bool) {
	var none T
	ts.mu.Lock()
	defer ts.mu.Unlock()
	switch r := ts.At(id); r {
	case Loaded:
		t := ts.loaded[id]
		if ts.Move(id, r, HandedOver, t, nil) == nil {
			return t, true
		}
	case Dormant, Loading:
		ts.Move(id, r, HandedOver, none, ts.dormant[id])
	}
	return none, false
}

// IsEnded reports whether adopt found table id closed.
func (ts *Set[T]) IsEnded(id string) bool {
	ts.mu.Lock()
	defer ts.mu.Unlock()
	_, ok := ts.ended[id]
	return ok
}

// MarkEnded remembers that table id is closed, for good: asked
// again, adopt does not read it again with all its moves.
func (ts *Set[T]) MarkEnded(id string) {
	ts.mu.Lock()
	defer ts.mu.Unlock()
	if len(ts.ended) >= maxEnded {
		clear(ts.ended)
	}
	ts.ended[id] = struct{}{}
}

// FirstSettle reports whether table id is to be checked by settle: not
// loaded (a load settles it) and not checked before; it is marked
// checked.
func (ts *Set[T]) FirstSettle(id string) bool {
	ts.mu.Lock()
	defer ts.mu.Unlock()
	if _, loaded := ts.loaded[id]; loaded {
		return false
	}
	if _, done := ts.settled[id]; done {
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
