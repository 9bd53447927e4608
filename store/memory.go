package store

import (
	"context"
	"fmt"
	"sort"
	"sync"
)

// Memory is a Store that keeps everything in memory: for tests, and for a
// server that need not survive a restart.
type Memory struct {
	mu     sync.Mutex
	closed bool
	tables map[string]*Saved
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
func (m *Memory) CreateTable(_ context.Context, t Table) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.closed {
		return ErrClosed
	}
	if m.tables[t.ID] != nil {
		return fmt.Errorf("store: table %q exists", t.ID)
	}
	t.Seats = append([]Seat(nil), t.Seats...)
	m.tables[t.ID] = &Saved{Table: t}
	return nil
}

// SetSeat implements Store.
func (m *Memory) SetSeat(_ context.Context, id string, seat int, s Seat) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	t, err := m.get(id)
	if err != nil {
		return err
	}
	if seat < 0 || seat >= len(t.Seats) {
		return fmt.Errorf("store: table %q has no seat %d", id, seat)
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
	if t.Match != nil && t.Match.No == no {
		return fmt.Errorf("store: table %q: match %d already started", id, no)
	}
	t.Match = &Match{No: no, Seed: seed}
	return nil
}

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

// Unfinished implements Store.
func (m *Memory) Unfinished(context.Context) ([]Saved, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.closed {
		return nil, ErrClosed
	}
	var out []Saved
	for _, t := range m.tables {
		if t.Match != nil && t.Match.Over {
			continue
		}
		out = append(out, copySaved(t))
	}
	sort.Slice(out, func(i, j int) bool { return out[i].ID < out[j].ID })
	return out, nil
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
