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

// SaveAnalysis implements store.Analyses.
func (s *Store) SaveAnalysis(ctx context.Context, table string, no int, report []byte, at time.Time) error {
	if err := s.exec(ctx, sqldb.SaveAnalysis.SQLite, table, no, report, at.UnixMilli()); err != nil {
		return fmt.Errorf("store: analysis of %s/%d: %w", table, no, err)
	}
	return nil
}

// Analysis implements store.Analyses.
func (s *Store) Analysis(ctx context.Context, table string, no int) ([]byte, error) {
	if s.closed() {
		return nil, store.ErrClosed
	}
	var b []byte
	err := s.db.QueryRowContext(ctx, sqldb.Analysis.SQLite, table, no).Scan(&b)
	switch {
	case errors.Is(err, sql.ErrNoRows):
		return nil, store.NoMatch(table, no)
	case err != nil:
		return nil, fmt.Errorf("store: analysis of %s/%d: %v", table, no, err)
	}
	return b, nil
}

// AddHint implements store.Analyses: the count goes through the writer,
// then is read back (the writer answers no rows).
func (s *Store) AddHint(ctx context.Context, table string, no, seat int) (int, error) {
	if err := s.exec(ctx, sqldb.AddHint.SQLite, table, no, seat); err != nil {
		return 0, fmt.Errorf("store: hints of %s/%d: %w", table, no, err)
	}
	var n int
	if err := s.db.QueryRowContext(ctx, sqldb.HintsOfSeat.SQLite, table, no, seat).Scan(&n); err != nil {
		return 0, fmt.Errorf("store: hints of %s/%d: %v", table, no, err)
	}
	return n, nil
}

// Hints implements store.Analyses.
func (s *Store) Hints(ctx context.Context, table string, no int) (map[int]int, error) {
	if s.closed() {
		return nil, store.ErrClosed
	}
	rows, err := s.db.QueryContext(ctx, sqldb.Hints.SQLite, table, no)
	if err != nil {
		return nil, fmt.Errorf("store: hints of %s/%d: %v", table, no, err)
	}
	defer rows.Close()
	out := map[int]int{}
	for rows.Next() {
		var seat, n int
		if err := rows.Scan(&seat, &n); err != nil {
			return nil, fmt.Errorf("store: hints of %s/%d: %v", table, no, err)
		}
		out[seat] = n
	}
	return out, rows.Err()
}
