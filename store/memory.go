package store

import (
	"context"
	"fmt"
	"sort"
	"sync"
	"time"
)

// Memory is a Store that keeps everything in memory: for tests, and for a
// server that need not survive a restart (tapis serve --db :memory:).
//
// It is kept beside SQLite, whose own :memory: database could keep a
// server's tables as well, for what SQLite cannot give the tests: it
// runs storetest's suite some twenty times faster than SQLite on a
// temporary file (the same tests, same machine), and it is, with
// PostgreSQL, the only store with Leases, its clock set by the test
// (SetLeaseClock), so that a cluster's ownership and fencing are tested
// in one process without a PostgreSQL server. It passes the same suite
// as the others (store/storetest), so it cannot drift from them.
type Memory struct {
	mu     sync.Mutex
	closed bool
	tables map[string]*Saved
	pp     memoryPeople // made on first use
	rt     memoryRatings
	// past holds each table's earlier matches, by table id (Match).
	past map[string][]Match
	// ls holds the tables' leases (memory_lease.go); its lock is taken
	// before mu, never after.
	ls memoryLeases
	// secret is the server's (secret.go), made on first use.
	secret []byte
	// fr and nt are the friends and notifications (friends.go,
	// notify.go), made on first use.
	fr memoryFriends
	nt memoryNotes
	// clocks are the turn-based tables' (memory_clock.go), by table id.
	clocks map[string]storedClock
	// an is the analyses and hints (analysis.go), made on first use.
	an memoryAnalyses
}

// NewMemory returns an empty Memory store.
func NewMemory() *Memory { return &Memory{tables: map[string]*Saved{}} }

func (m *Memory) get(id string) (*Saved, error) {
	if m.closed {
		return nil, ErrClosed
	}
	t := m.tables[id]
	if t == nil {
		return nil, fmt.Errorf("store: no table %q", id)
	}
	return t, nil
}

// CreateTable implements Store.
func (m *Memory) CreateTable(_ context.Context, t Table, start *Start) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.createTable(t, start)
}

// createTable is CreateTable with mu held, for SeatQueued too.
func (m *Memory) createTable(t Table, start *Start) error {
	if m.closed {
		return ErrClosed
	}
	if err := CheckPlayers(t.Players); err != nil {
		return fmt.Errorf("store: table %q: %v", t.ID, err)
	}
	if m.tables[t.ID] != nil {
		return fmt.Errorf("store: table %q exists", t.ID)
	}
	if len(t.Seats) > t.Players {
		return fmt.Errorf("store: table %q has no seat %d", t.ID, t.Players)
	}
	seats := make([]Seat, t.Players)
	copy(seats, t.Seats)
	t.Seats = seats
	if t.Active.IsZero() {
		t.Active = t.Created
	}
	sv := &Saved{Table: t}
	if start != nil {
		sv.Match = &Match{No: start.No, Seed: start.Seed}
	}
	m.tables[t.ID] = sv
	return nil
}

// SetSeat implements Store.
func (m *Memory) SetSeat(_ context.Context, id string, seat int, s Seat, start *Start) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	t, err := m.get(id)
	if err != nil {
		return err
	}
	if seat < 0 || seat >= len(t.Seats) {
		return fmt.Errorf("store: table %q has no seat %d", id, seat)
	}
	if start != nil {
		// Checked before anything changes: both writes or neither.
		if err := t.startable(start.No); err != nil {
			return err
		}
		m.archive(t)
		t.start(start.No, start.Seed)
	}
	t.Seats[seat] = s
	return nil
}

// StartMatch implements Store.
func (m *Memory) StartMatch(_ context.Context, id string, no int, seed uint64) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	t, err := m.get(id)
	if err != nil {
		return err
	}
	if err := t.startable(no); err != nil {
		return err
	}
	m.archive(t)
	t.start(no, seed)
	return nil
}

// startable refuses match no if it was started before.
func (t *Saved) startable(no int) error {
	if t.Match != nil && t.Match.No == no {
		return fmt.Errorf("store: table %q: match %d already started", t.ID, no)
	}
	return nil
}

// start makes match no the table's latest.
func (t *Saved) start(no int, seed uint64) { t.Match = &Match{No: no, Seed: seed} }

// AppendMove implements Store.
func (m *Memory) AppendMove(_ context.Context, id string, no, index int, mv Move) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	t, err := m.get(id)
	if err != nil {
		return err
	}
	if t.Match == nil || t.Match.No != no || len(t.Match.Moves) != index {
		return fmt.Errorf("store: table %q: move %d of match %d out of order", id, index, no)
	}
	t.Match.Moves = append(t.Match.Moves, mv)
	return nil
}

// EndMatch implements Store.
func (m *Memory) EndMatch(_ context.Context, id string, no int) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	t, err := m.get(id)
	if err != nil {
		return err
	}
	if t.Match != nil && t.Match.No == no {
		t.Match.Over = true
	}
	return nil
}

// Open implements Store.
func (m *Memory) Open(context.Context) ([]Summary, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.closed {
		return nil, ErrClosed
	}
	var out []Summary
	for _, t := range m.tables {
		if !t.open() {
			continue
		}
		out = append(out, t.summary())
	}
	sort.Slice(out, func(i, j int) bool { return out[i].ID < out[j].ID })
	return out, nil
}

// CloseTable implements Store.
func (m *Memory) CloseTable(_ context.Context, id string, c Closed, reason string) error {
	if !c.Valid() {
		return fmt.Errorf("store: table %q: cannot close as %q", id, c)
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	t, err := m.get(id)
	if err != nil {
		return err
	}
	t.Closed, t.Reason = c, reason
	return nil
}

// Touch implements Store.
func (m *Memory) Touch(_ context.Context, id string, at time.Time) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	t, err := m.get(id)
	if err != nil {
		return err
	}
	t.Active = at
	return nil
}

// Tables implements Store.
func (m *Memory) Tables(context.Context) ([]string, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.closed {
		return nil, ErrClosed
	}
	ids := make([]string, 0, len(m.tables))
	for id := range m.tables {
		ids = append(ids, id)
	}
	sort.Strings(ids)
	return ids, nil
}

// Check implements IntegrityChecker: memory has no storage to damage.
func (m *Memory) Check(context.Context) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.closed {
		return ErrClosed
	}
	return nil
}

// Load implements Store.
func (m *Memory) Load(_ context.Context, id string) (Saved, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	t, err := m.get(id)
	if err != nil {
		return Saved{}, err
	}
	return copySaved(t), nil
}

func copySaved(t *Saved) Saved {
	c := *t
	c.Seats = append([]Seat(nil), t.Seats...)
	if t.Match != nil {
		mc := *t.Match
		mc.Moves = append([]Move(nil), t.Match.Moves...)
		c.Match = &mc
	}
	return c
}

// Close implements Store.
func (m *Memory) Close() error {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.closed = true
	return nil
}
