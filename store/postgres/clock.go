package postgres

import (
	"context"
	"errors"
	"time"

	"github.com/jackc/pgx/v5"

	"tapis/store"
	"tapis/store/sqldb"
)

// The turn-based tables' clocks (store/clock.go), in sqldb's statements.

// SetClock implements store.Clocks.
func (p *Store) SetClock(ctx context.Context, table string, c store.Clock) error {
	js, deadline := store.EncodeClock(c)
	if _, err := p.exec(ctx, sqldb.SetClock.Postgres, table, deadline, js); err != nil {
		return p.fail(err, "table %s: clock", table)
	}
	return nil
}

// Clock implements store.Clocks.
func (p *Store) Clock(ctx context.Context, table string) (store.Clock, bool, error) {
	if p.closed.Load() {
		return store.Clock{}, false, store.ErrClosed
	}
	var deadline *int64
	var js string
	err := p.pool.QueryRow(ctx, sqldb.Clock.Postgres, table).Scan(&deadline, &js)
	switch {
	case errors.Is(err, pgx.ErrNoRows):
		return store.Clock{}, false, nil
	case err != nil:
		return store.Clock{}, false, p.fail(err, "table %s: clock", table)
	}
	c, err := store.DecodeClock(js, deadline)
	return c, err == nil, err
}

// OpenClocks implements store.Clocks.
func (p *Store) OpenClocks(ctx context.Context) (map[string]store.Clock, error) {
	if p.closed.Load() {
		return nil, store.ErrClosed
	}
	rows, err := p.pool.Query(ctx, sqldb.OpenClocks.Postgres)
	if err != nil {
		return nil, p.fail(err, "clocks")
	}
	defer rows.Close()
	out := map[string]store.Clock{}
	for rows.Next() {
		var id, js string
		var deadline *int64
		if err := rows.Scan(&id, &deadline, &js); err != nil {
			return nil, p.fail(err, "clocks")
		}
		c, err := store.DecodeClock(js, deadline)
		if err != nil {
			return nil, err
		}
		out[id] = c
	}
	if err := rows.Err(); err != nil {
		return nil, p.fail(err, "clocks")
	}
	return out, nil
}

// DueClocks implements store.Clocks.
func (p *Store) DueClocks(ctx context.Context, now time.Time, limit int) ([]string, error) {
	if p.closed.Load() {
		return nil, store.ErrClosed
	}
	rows, err := p.pool.Query(ctx, sqldb.DueClocks.Postgres, now.UnixMilli(), limit)
	if err != nil {
		return nil, p.fail(err, "due clocks")
	}
	ids, err := pgx.CollectRows(rows, pgx.RowTo[string])
	if err != nil {
		return nil, p.fail(err, "due clocks")
	}
	return ids, nil
}
