package sqlite

import (
	"context"
	"fmt"

	"tapis/store"
	"tapis/store/sqldb"
)

// PlayedMatches implements store.History.
func (s *Store) PlayedMatches(ctx context.Context, player string, after store.PlayedCursor, limit int) ([]store.Played, error) {
	if s.closed() {
		return nil, store.ErrClosed
	}
	rows, err := s.db.QueryContext(ctx, sqldb.PlayedMatches.SQLite, sqldb.PlayedArgs(player, after, limit)...)
	if err != nil {
		return nil, fmt.Errorf("store: matches of player %s: %v", player, err)
	}
	defer rows.Close()
	out, err := sqldb.ScanPlayed(rows)
	if err != nil {
		return nil, fmt.Errorf("store: matches of player %s: %v", player, err)
	}
	return out, nil
}
