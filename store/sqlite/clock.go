package sqlite

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"

	"tapis/store"
	"tapis/store/sqldb"
)

// The turn-based tables' clocks (store/clock.go): a write like any, by
// the writer; reads on the readers' connection.

// SetClock implements store.Clocks.
func (s *Store) SetClock(ctx context.Context, table string, c store.Clock) error {
	js, deadline := store.EncodeClock(c)
	return s.exec(ctx, sqldb.SetClock.SQLite, table, deadline, js)
}

// Clock implements store.Clocks.
func (s *Store) Clock(ctx context.Context, table string) (store.Clock, bool, error) {
	if s.closed() {
		return store.Clock{}, false, store.ErrClosed
	}
	var deadline sql.NullInt64
	var js string
	err := s.db.QueryRowContext(ctx, sqldb.Clock.SQLite, table).Scan(&deadline, &js)
	switch {
	case errors.Is(err, sql.ErrNoRows):
		return store.Clock{}, false, nil
	case err != nil:
		return store.Clock{}, false, fmt.Errorf("store: clock of %s: %v", table, err)
	}
	c, err := store.DecodeClock(js, nullMS(deadline))
	return c, err == nil, err
}

// OpenClocks implements store.Clocks.
func (s *Store) OpenClocks(ctx context.Context) (map[string]store.Clock, error) {
	if s.closed() {
		return nil, store.ErrClosed
	}
	rows, err := s.db.QueryContext(ctx, sqldb.OpenClocks.SQLite)
	if err != nil {
		return nil, fmt.Errorf("store: clocks: %v", err)
	}
	defer rows.Close()
	out := map[string]store.Clock{}
	for rows.Next() {
		var id, js string
		var deadline sql.NullInt64
		if err := rows.Scan(&id, &deadline, &js); err != nil {
			return nil, fmt.Errorf("store: clocks: %v", err)
		}
		c, err := store.DecodeClock(js, nullMS(deadline))
		if err != nil {
			return nil, fmt.Errorf("store: clock of %s: %v", id, err)
		}
		out[id] = c
	}
	return out, rows.Err()
}

// DueClocks implements store.Clocks.
func (s *Store) DueClocks(ctx context.Context, now time.Time, limit int) ([]string, error) {
	if s.closed() {
		return nil, store.ErrClosed
	}
	rows, err := s.db.QueryContext(ctx, sqldb.DueClocks.SQLite, now.UnixMilli(), limit)
	if err != nil {
		return nil, fmt.Errorf("store: due clocks: %v", err)
	}
	defer rows.Close()
	var out []string
	for rows.Next() {
		var id string
		if err := rows.Scan(&id); err != nil {
			return nil, fmt.Errorf("store: due clocks: %v", err)
		}
		out = append(out, id)
	}
	return out, rows.Err()
}

// nullMS is a nullable column of Unix milliseconds as DecodeClock takes it.
func nullMS(n sql.NullInt64) *int64 {
	if !n.Valid {
		return nil
	}
	return &n.Int64
}
