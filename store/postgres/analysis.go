package postgres

import (
	"context"
	"errors"
	"time"

	"github.com/jackc/pgx/v5"

	"tapis/store"
	"tapis/store/sqldb"
)

// SaveAnalysis implements store.Analyses.
func (p *Store) SaveAnalysis(ctx context.Context, table string, no int, report []byte, at time.Time) error {
	if _, err := p.exec(ctx, sqldb.SaveAnalysis.Postgres, table, no, report, at.UnixMilli()); err != nil {
		return p.fail(err, "analysis of %s/%d", table, no)
	}
	return nil
}

// Analysis implements store.Analyses.
func (p *Store) Analysis(ctx context.Context, table string, no int) ([]byte, error) {
	if p.closed.Load() {
		return nil, store.ErrClosed
	}
	var b []byte
	err := p.pool.QueryRow(ctx, sqldb.Analysis.Postgres, table, no).Scan(&b)
	switch {
	case errors.Is(err, pgx.ErrNoRows):
		return nil, store.NoMatch(table, no)
	case err != nil:
		return nil, p.fail(err, "analysis of %s/%d", table, no)
	}
	return b, nil
}

// AddHint implements store.Analyses, in one statement.
func (p *Store) AddHint(ctx context.Context, table string, no, seat int) (int, error) {
	if p.closed.Load() {
		return 0, store.ErrClosed
	}
	var n int
	if err := p.pool.QueryRow(ctx, sqldb.AddHint.Postgres+` RETURNING used`, table, no, seat).Scan(&n); err != nil {
		return 0, p.fail(err, "hints of %s/%d", table, no)
	}
	return n, nil
}

// Hints implements store.Analyses.
func (p *Store) Hints(ctx context.Context, table string, no int) (map[int]int, error) {
	if p.closed.Load() {
		return nil, store.ErrClosed
	}
	rows, err := p.pool.Query(ctx, sqldb.Hints.Postgres, table, no)
	if err != nil {
		return nil, p.fail(err, "hints of %s/%d", table, no)
	}
	defer rows.Close()
	out := map[int]int{}
	for rows.Next() {
		var seat, n int
		if err := rows.Scan(&seat, &n); err != nil {
			return nil, p.fail(err, "hints of %s/%d", table, no)
		}
		out[seat] = n
	}
	if err := rows.Err(); err != nil {
		return nil, p.fail(err, "hints of %s/%d", table, no)
	}
	return out, nil
}
