package store

import (
	"cmp"
	"context"
	"slices"
	"time"
)

// The turn-based tables' clocks in memory (clock.go): kept in their
// stored form, so that Memory gives back what the SQL stores do (times
// to the millisecond).

// SetClock implements Clocks.
func (m *Memory) SetClock(_ context.Context, table string, c Clock) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	if _, err := m.get(table); err != nil {
		return err
	}
	js, dl := EncodeClock(c)
	var deadline *int64
	if ms, ok := dl.(int64); ok {
		deadline = &ms
	}
	if m.clocks == nil {
		m.clocks = map[string]storedClock{}
	}
	m.clocks[table] = storedClock{js: js, deadline: deadline}
	return nil
}

// storedClock is a clock as Memory keeps it.
type storedClock struct {
	js       string
	deadline *int64
}

// Clock implements Clocks.
func (m *Memory) Clock(_ context.Context, table string) (Clock, bool, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.closed {
		return Clock{}, false, ErrClosed
	}
	sc, ok := m.clocks[table]
	if !ok {
		return Clock{}, false, nil
	}
	c, err := DecodeClock(sc.js, sc.deadline)
	return c, err == nil, err
}

// OpenClocks implements Clocks.
func (m *Memory) OpenClocks(context.Context) (map[string]Clock, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.closed {
		return nil, ErrClosed
	}
	out := map[string]Clock{}
	for id, sc := range m.clocks {
		if t := m.tables[id]; t == nil || !t.open() {
			continue
		}
		c, err := DecodeClock(sc.js, sc.deadline)
		if err != nil {
			return nil, err
		}
		out[id] = c
	}
	return out, nil
}

// DueClocks implements Clocks.
func (m *Memory) DueClocks(_ context.Context, now time.Time, limit int) ([]string, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.closed {
		return nil, ErrClosed
	}
	type due struct {
		id string
		at int64
	}
	var ds []due
	for id, sc := range m.clocks {
		if t := m.tables[id]; t == nil || !t.open() || sc.deadline == nil || *sc.deadline > now.UnixMilli() {
			continue
		}
		ds = append(ds, due{id, *sc.deadline})
	}
	slices.SortFunc(ds, func(a, b due) int { return cmp.Or(cmp.Compare(a.at, b.at), cmp.Compare(a.id, b.id)) })
	var out []string
	for _, d := range ds {
		if len(out) == limit {
			break
		}
		out = append(out, d.id)
	}
	return out, nil
}
