package store

import (
	"context"
	"fmt"
	"sync"
	"time"
)

// memoryLeases is Memory's leases. Its lock is taken before Memory.mu and
// held across a fenced write, so no lease changes hands between the check
// and the write.
type memoryLeases struct {
	mu sync.Mutex
	// now is the clock leases are timed by; nil means time.Now.
	now func() time.Time
	// byTable keeps every table's latest lease, expired or released ones
	// too, so that the next epoch follows on from it. A released lease
	// has a zero Until.
	byTable map[string]Lease
}

// SetLeaseClock makes now the clock that times Memory's leases, for tests
// that let leases expire without waiting. It is time.Now by default.
func (m *Memory) SetLeaseClock(now func() time.Time) {
	m.ls.mu.Lock()
	defer m.ls.mu.Unlock()
	m.ls.now = now
}

// clock returns the time now; the caller holds ls.mu.
func (m *Memory) clock() time.Time {
	if m.ls.now != nil {
		return m.ls.now()
	}
	return time.Now()
}

// leaseOpen returns ErrClosed once the store is closed; the caller holds
// ls.mu.
func (m *Memory) leaseOpen() error {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.closed {
		return ErrClosed
	}
	return nil
}

// live returns table's lease and whether it is held at now.
func (m *Memory) live(table string, now time.Time) (Lease, bool) {
	l, ok := m.ls.byTable[table]
	return l, ok && l.Until.After(now)
}

// Acquire implements Leases.
func (m *Memory) Acquire(_ context.Context, table, node string, ttl time.Duration) (Lease, error) {
	if err := CheckTTL(ttl); err != nil {
		return Lease{}, err
	}
	m.ls.mu.Lock()
	defer m.ls.mu.Unlock()
	if err := m.leaseOpen(); err != nil {
		return Lease{}, err
	}
	if !m.hasTable(table) {
		return Lease{}, fmt.Errorf("store: table %q: no such table to lease: %w", table, ErrNotFound)
	}
	now := m.clock()
	cur, held := m.live(table, now)
	switch {
	case held && cur.Node != node:
		return Lease{}, &LeaseHeldError{Holder: cur}
	case !held:
		// A new holder, or the same one after a gap: a new epoch.
		cur.Epoch++
	}
	l := Lease{Table: table, Node: node, Epoch: cur.Epoch, Until: now.Add(ttl)}
	if m.ls.byTable == nil {
		m.ls.byTable = map[string]Lease{}
	}
	m.ls.byTable[table] = l
	return l, nil
}

// Take implements Leases.
func (m *Memory) Take(ctx context.Context, table, node string, from Lease, ttl time.Duration) (Lease, error) {
	if err := CheckTTL(ttl); err != nil {
		return Lease{}, err
	}
	m.ls.mu.Lock()
	cur, ok := m.ls.byTable[table]
	if err := m.leaseOpen(); err != nil {
		m.ls.mu.Unlock()
		return Lease{}, err
	}
	if ok && cur.Node == from.Node && cur.Epoch == from.Epoch {
		l := Lease{Table: table, Node: node, Epoch: cur.Epoch + 1, Until: m.clock().Add(ttl)}
		m.ls.byTable[table] = l
		m.ls.mu.Unlock()
		return l, nil
	}
	m.ls.mu.Unlock()
	return m.Acquire(ctx, table, node, ttl)
}

// holds reports whether l is table's live lease at its epoch; the caller
// holds ls.mu.
func (m *Memory) holds(l Lease, now time.Time) bool {
	cur, held := m.live(l.Table, now)
	return held && cur.Node == l.Node && cur.Epoch == l.Epoch
}

// Renew implements Leases.
func (m *Memory) Renew(_ context.Context, l Lease, ttl time.Duration) (Lease, error) {
	if err := CheckTTL(ttl); err != nil {
		return Lease{}, err
	}
	m.ls.mu.Lock()
	defer m.ls.mu.Unlock()
	if err := m.leaseOpen(); err != nil {
		return Lease{}, err
	}
	now := m.clock()
	if !m.holds(l, now) {
		return Lease{}, LeaseLost(l, "renewal")
	}
	l.Until = now.Add(ttl)
	m.ls.byTable[l.Table] = l
	return l, nil
}

// RenewAll implements Leases.
func (m *Memory) RenewAll(_ context.Context, node string, ttl time.Duration) ([]Lease, error) {
	if err := CheckTTL(ttl); err != nil {
		return nil, err
	}
	m.ls.mu.Lock()
	defer m.ls.mu.Unlock()
	if err := m.leaseOpen(); err != nil {
		return nil, err
	}
	now := m.clock()
	var ls []Lease
	for id, l := range m.ls.byTable {
		if l.Node == node && l.Until.After(now) {
			l.Until = now.Add(ttl)
			m.ls.byTable[id] = l
			ls = append(ls, l)
		}
	}
	return ls, nil
}

// Release implements Leases.
func (m *Memory) Release(_ context.Context, l Lease) error {
	m.ls.mu.Lock()
	defer m.ls.mu.Unlock()
	if err := m.leaseOpen(); err != nil {
		return err
	}
	cur, ok := m.ls.byTable[l.Table]
	if !ok || cur.Node != l.Node || cur.Epoch != l.Epoch {
		return LeaseLost(l, "release")
	}
	cur.Until = time.Time{}
	m.ls.byTable[l.Table] = cur
	return nil
}

// Holder implements Leases.
func (m *Memory) Holder(_ context.Context, table string) (Lease, error) {
	m.ls.mu.Lock()
	defer m.ls.mu.Unlock()
	if err := m.leaseOpen(); err != nil {
		return Lease{}, err
	}
	l, held := m.live(table, m.clock())
	if !held {
		return Lease{}, fmt.Errorf("store: table %q: no lease: %w", table, ErrNotFound)
	}
	return l, nil
}

// NodeLoad implements Leases.
func (m *Memory) NodeLoad(context.Context) (map[string]int, error) {
	m.ls.mu.Lock()
	defer m.ls.mu.Unlock()
	if err := m.leaseOpen(); err != nil {
		return nil, err
	}
	now := m.clock()
	n := map[string]int{}
	for _, l := range m.ls.byTable {
		if l.Until.After(now) {
			n[l.Node]++
		}
	}
	return n, nil
}

// Fenced implements Leases.
func (m *Memory) Fenced(l Lease) TableWriter { return memoryFenced{m, l} }

// memoryFenced is Memory's TableWriter for one lease: each write holds the
// leases' lock from the check to the end of the write.
type memoryFenced struct {
	m *Memory
	l Lease
}

// fence runs write if f's lease is held, with no lease changing meanwhile.
func (f memoryFenced) fence(what string, write func() error) error {
	f.m.ls.mu.Lock()
	defer f.m.ls.mu.Unlock()
	if err := f.m.leaseOpen(); err != nil {
		return err
	}
	if !f.m.holds(f.l, f.m.clock()) {
		return LeaseLost(f.l, what)
	}
	return write()
}

func (f memoryFenced) SetSeat(ctx context.Context, seat int, s Seat, start *Start) error {
	return f.fence("a seat", func() error { return f.m.SetSeat(ctx, f.l.Table, seat, s, start) })
}

func (f memoryFenced) StartMatch(ctx context.Context, no int, seed uint64) error {
	return f.fence("a match start", func() error { return f.m.StartMatch(ctx, f.l.Table, no, seed) })
}

func (f memoryFenced) AppendMove(ctx context.Context, no, index int, mv Move) error {
	return f.fence("a move", func() error { return f.m.AppendMove(ctx, f.l.Table, no, index, mv) })
}

func (f memoryFenced) EndMatch(ctx context.Context, no int) error {
	return f.fence("a match end", func() error { return f.m.EndMatch(ctx, f.l.Table, no) })
}

func (f memoryFenced) CloseTable(ctx context.Context, c Closed, reason string) error {
	return f.fence("closing the table", func() error { return f.m.CloseTable(ctx, f.l.Table, c, reason) })
}

func (f memoryFenced) Touch(ctx context.Context, at time.Time) error {
	return f.fence("a touch", func() error { return f.m.Touch(ctx, f.l.Table, at) })
}

// hasTable reports whether the store has table; the caller holds ls.mu,
// which comes before mu (memory.go).
func (m *Memory) hasTable(table string) bool {
	m.mu.Lock()
	defer m.mu.Unlock()
	_, ok := m.tables[table]
	return ok
}
