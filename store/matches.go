package store

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"
)

// notFound says which table or match is missing, wrapping ErrNotFound.
func notFound(table string, no int) error {
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
		return Saved{}, notFound(id, no)
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
	return Saved{}, notFound(id, no)
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

// Match implements Store: Load's query, for match no instead of the
// latest.
func (s *SQLite) Match(ctx context.Context, id string, no int) (Saved, error) {
	if s.closed() {
		return Saved{}, ErrClosed
	}
	var t Saved
	var opts, closed string
	var created, turn, active int64
	var mno, seed, over sql.NullInt64
	err := s.db.QueryRowContext(ctx, `
		SELECT t.id, t.game, t.players, t.options, t.created, t.turn_ms, t.creator, t.active, t.closed, t.reason,
		  t.host, t.memory_aid, t.public, t.lang, t.rated, m.no, m.seed, m.over
		FROM tapis_tables t LEFT JOIN tapis_matches m ON m.table_id = t.id AND m.no = ?
		WHERE t.id = ?`, no, id).Scan(&t.ID, &t.Game, &t.Players, &opts, &created, &turn, &t.Creator, &active, &closed, &t.Reason,
		&t.Host, &t.MemoryAid, &t.Public, &t.Lang, &t.Rated, &mno, &seed, &over)
	switch {
	case errors.Is(err, sql.ErrNoRows):
		return t, notFound(id, no)
	case err != nil:
		return t, fmt.Errorf("store: table %s: %v", id, err)
	case !mno.Valid:
		return t, notFound(id, no)
	}
	if err := checkPlayers(t.Players); err != nil {
		return t, fmt.Errorf("store: table %s: %v", id, err)
	}
	t.Options = json.RawMessage(opts)
	t.Created, t.Active = time.UnixMilli(created), time.UnixMilli(active)
	t.TurnTime = time.Duration(turn) * time.Millisecond
	t.Closed = Closed(closed)
	t.Match = &Match{No: int(mno.Int64), Seed: uint64(seed.Int64), Over: over.Int64 != 0}
	return t, s.load(ctx, &t)
}

// pgMatch selects a table with one match of it by number (pgLatest's
// columns).
const pgMatch = `
	SELECT t.id, t.game, t.players, t.options, t.created, t.turn_ms, t.creator, t.active, t.closed, t.reason,
	  t.host, t.memory_aid, t.public, t.lang, t.rated, m.no, m.seed, m.over
	FROM tapis_tables t LEFT JOIN tapis_matches m ON m.table_id = t.id AND m.no = $2
	WHERE t.id = $1`

// Match implements Store, as Load does, in one snapshot.
func (p *Postgres) Match(ctx context.Context, id string, no int) (Saved, error) {
	var out []Saved
	err := p.read(ctx, "table "+id, func(tx pgx.Tx) error {
		var err error
		out, err = latest(ctx, tx, pgMatch, id, no)
		if err != nil {
			return err
		}
		if len(out) == 0 || out[0].Match == nil {
			return notFound(id, no)
		}
		return fill(ctx, tx, out)
	})
	if err != nil {
		return Saved{}, err
	}
	return out[0], nil
}
