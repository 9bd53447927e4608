package store

import (
	"context"
	"errors"
	"fmt"
)

// NoMatch is the error of Match for a missing table or match: it says
// which, wrapping ErrNotFound.
func NoMatch(table string, no int) error {
	return fmt.Errorf("store: table %q has no match %d: %w", table, no, ErrNotFound)
}

// Match implements Store. Memory keeps a table's earlier matches aside
// (past) when the next one starts, since Saved holds only the latest.
func (m *Memory) Match(_ context.Context, id string, no int) (Saved, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	t, err := m.get(id)
	if err != nil {
		if errors.Is(err, ErrClosed) {
			return Saved{}, err
		}
		return Saved{}, NoMatch(id, no)
	}
	c := copySaved(t)
	if c.Match != nil && c.Match.No == no {
		return c, nil
	}
	for _, old := range m.past[id] {
		if old.No == no {
			mc := old
			mc.Moves = append([]Move(nil), old.Moves...)
			c.Match = &mc
			return c, nil
		}
	}
	return Saved{}, NoMatch(id, no)
}

// archive keeps t's current match, about to be replaced by the next, for
// Match; mu is held.
func (m *Memory) archive(t *Saved) {
	if t.Match == nil {
		return
	}
	if m.past == nil {
		m.past = map[string][]Match{}
	}
	m.past[t.ID] = append(m.past[t.ID], *t.Match)
}
