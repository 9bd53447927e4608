package sqlite

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strings"

	"tapis/store"
	"tapis/store/sqldb"
)

// RecordRated implements store.Ratings. The read and the writes are one op of
// the one writer, inside its transaction: no other write can come between
// them, on this node or (SQLite being one file for one server) any other.
func (s *Store) RecordRated(ctx context.Context, m store.RatedMatch, update func([]store.Standing) ([]store.Standing, error)) error {
	if err := store.CheckRated(m); err != nil {
		return err
	}
	return s.do(ctx, op{run: func(tx *sql.Tx) error { return sqliteRecord(tx, m, update) }})
}

func sqliteRecord(tx *sql.Tx, m store.RatedMatch, update func([]store.Standing) ([]store.Standing, error)) error {
	res, err := tx.Exec(`INSERT OR IGNORE INTO tapis_rated_matches (table_id, no, game, at) VALUES (?, ?, ?, ?)`,
		m.Table, m.No, m.Game, m.At.UnixMilli())
	if err != nil {
		return fmt.Errorf("store: rated match %s/%d: %v", m.Table, m.No, err)
	}
	if n, _ := res.RowsAffected(); n == 0 {
		return store.ErrRecorded
	}
	before := make([]store.Standing, len(m.Seats))
	for i, st := range m.Seats {
		b := store.Standing{Player: st.Player, Game: m.Game}
		err := tx.QueryRow(`SELECT mu, sigma, games, wins, fixed FROM tapis_ratings WHERE player = ? AND game = ?`, st.Player, m.Game).
			Scan(&b.Mu, &b.Sigma, &b.Games, &b.Wins, &b.Fixed)
		switch {
		case errors.Is(err, sql.ErrNoRows):
			b.New = true
		case err != nil:
			return fmt.Errorf("store: rating of %s: %v", st.Player, err)
		}
		before[i] = b
	}
	after, err := store.Updated(m, before, update)
	if err != nil {
		return err
	}
	for i, st := range m.Seats {
		a := after[i]
		if _, err := tx.Exec(`INSERT INTO tapis_ratings (player, game, mu, sigma, ordinal, games, wins, fixed) VALUES (?, ?, ?, ?, ?, ?, ?, ?)
			ON CONFLICT (player, game) DO UPDATE SET mu = excluded.mu, sigma = excluded.sigma, ordinal = excluded.ordinal,
			  games = excluded.games, wins = excluded.wins`,
			a.Player, a.Game, a.Mu, a.Sigma, a.Ordinal(), a.Games, a.Wins, a.Fixed); err != nil {
			return fmt.Errorf("store: rating of %s: %v", a.Player, err)
		}
		if _, err := tx.Exec(sqldb.RatedResult.SQLite,
			m.Table, m.No, st.Seat, m.Game, len(m.Seats), st.Player, st.Rank, st.Score,
			before[i].Mu, before[i].Sigma, a.Mu, a.Sigma, m.At.UnixMilli()); err != nil {
			return fmt.Errorf("store: rated match %s/%d: %v", m.Table, m.No, err)
		}
	}
	return nil
}

// SetAnchor implements store.Ratings.
func (s *Store) SetAnchor(ctx context.Context, player, game string, mu, sigma float64) error {
	return s.exec(ctx, `INSERT INTO tapis_ratings (player, game, mu, sigma, ordinal, games, wins, fixed) VALUES (?, ?, ?, ?, ?, 0, 0, 1)
		ON CONFLICT (player, game) DO UPDATE SET mu = excluded.mu, sigma = excluded.sigma, ordinal = excluded.ordinal, fixed = 1`,
		player, game, mu, sigma, mu-3*sigma)
}

// Leaderboard implements store.Ratings: a walk down tapis_ratings_board.
func (s *Store) Leaderboard(ctx context.Context, game string, minGames, limit, offset int) ([]store.Ranked, error) {
	if s.closed() {
		return nil, store.ErrClosed
	}
	rows, err := s.db.QueryContext(ctx, `SELECT `+sqldb.StandingColumns+` FROM tapis_ratings
		WHERE game = ? AND fixed = 0 AND games >= ? ORDER BY ordinal DESC, player LIMIT ? OFFSET ?`,
		game, minGames, max(limit, 0), max(offset, 0))
	if err != nil {
		return nil, fmt.Errorf("store: leaderboard of %s: %v", game, err)
	}
	defer rows.Close()
	var out []store.Ranked
	for rows.Next() {
		r := store.Ranked{Rank: max(offset, 0) + len(out) + 1}
		if err := sqldb.ScanStanding(rows, &r.Standing); err != nil {
			return nil, fmt.Errorf("store: leaderboard of %s: %v", game, err)
		}
		out = append(out, r)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("store: leaderboard of %s: %v", game, err)
	}
	return out, nil
}

// Rank implements store.Ratings: the players above are counted on the index.
func (s *Store) Rank(ctx context.Context, game, player string, minGames int) (store.Ranked, error) {
	if s.closed() {
		return store.Ranked{}, store.ErrClosed
	}
	var r store.Ranked
	err := sqldb.ScanStanding(s.db.QueryRowContext(ctx, `SELECT `+sqldb.StandingColumns+` FROM tapis_ratings
		WHERE player = ? AND game = ? AND fixed = 0 AND games >= ?`, player, game, minGames), &r.Standing)
	if errors.Is(err, sql.ErrNoRows) {
		return r, store.ErrNotFound
	}
	if err == nil {
		o := r.Ordinal()
		err = s.db.QueryRowContext(ctx, `SELECT COUNT(*) + 1 FROM tapis_ratings
			WHERE game = ? AND fixed = 0 AND games >= ? AND (ordinal > ? OR (ordinal = ? AND player < ?))`,
			game, minGames, o, o, player).Scan(&r.Rank)
	}
	if err != nil {
		return r, fmt.Errorf("store: rank of %s in %s: %v", player, game, err)
	}
	return r, nil
}

// Profile implements store.Ratings.
func (s *Store) Profile(ctx context.Context, player string, recent int) (store.Profile, error) {
	if s.closed() {
		return store.Profile{}, store.ErrClosed
	}
	var p store.Profile
	rows, err := s.db.QueryContext(ctx, `SELECT `+sqldb.StandingColumns+` FROM tapis_ratings WHERE player = ? ORDER BY game`, player)
	if err != nil {
		return p, fmt.Errorf("store: profile of %s: %v", player, err)
	}
	for rows.Next() {
		var st store.Standing
		if err := sqldb.ScanStanding(rows, &st); err != nil {
			rows.Close()
			return p, fmt.Errorf("store: profile of %s: %v", player, err)
		}
		p.Standings = append(p.Standings, st)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return p, fmt.Errorf("store: profile of %s: %v", player, err)
	}
	p.History, err = s.results(ctx, `WHERE player = ? ORDER BY at DESC, table_id DESC, no DESC LIMIT ?`, player, store.HistoryLimit)
	if err != nil {
		return p, fmt.Errorf("store: profile of %s: %v", player, err)
	}
	p.Recent = append([]store.Result(nil), p.History[:min(max(recent, 0), len(p.History))]...)
	for i, j := 0, len(p.History)-1; i < j; i, j = i+1, j-1 {
		p.History[i], p.History[j] = p.History[j], p.History[i]
	}
	return p, nil
}

// MatchResults implements store.Ratings.
func (s *Store) MatchResults(ctx context.Context, table string, no int) ([]store.Result, error) {
	if s.closed() {
		return nil, store.ErrClosed
	}
	out, err := s.results(ctx, `WHERE table_id = ? AND no = ? ORDER BY seat`, table, no)
	if err != nil {
		return nil, fmt.Errorf("store: rated match %s/%d: %v", table, no, err)
	}
	return out, nil
}

// results reads tapis_rated_results rows chosen by where.
func (s *Store) results(ctx context.Context, where string, args ...any) ([]store.Result, error) {
	rows, err := s.db.QueryContext(ctx, sqldb.ResultColumns+strings.TrimSpace(where), args...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	return sqldb.ScanResults(rows)
}
