package postgres

import (
	"context"

	"tapis/store"
	"tapis/store/sqldb"
)

// PlayedMatches implements store.History.
func (p *Store) PlayedMatches(ctx context.Context, player string, after store.PlayedCursor, limit int) ([]store.Played, error) {
	if p.closed.Load() {
		return nil, store.ErrClosed
	}
	rows, err := p.pool.Query(ctx, sqldb.PlayedMatches.Postgres, sqldb.PlayedArgs(player, after, limit)...)
	if err != nil {
		return nil, p.fail(err, "matches of player %s", player)
	}
	defer rows.Close()
	out, err := sqldb.ScanPlayed(rows)
	if err != nil {
		return nil, p.fail(err, "matches of player %s", player)
	}
	return out, nil
}
