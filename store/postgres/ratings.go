package postgres

import (
	"context"
	"errors"
	"fmt"
	"slices"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"

	"tapis/store"
	"tapis/store/sqldb"
)

// RecordRated implements store.Ratings in one transaction that locks the
// players' rating rows (SELECT … FOR UPDATE) before reading them, so that
// another node recording a match with one of them waits for this one's
// commit and then reads its result: no update is lost. A player's first
// rated game inserts a placeholder row first (games −1, rolled back with
// the transaction if anything fails), so that there is a row to lock even
// when two first games end at once. Rows are locked in player order, so
// two transactions wait for each other rather than deadlock; should the
// server still report a deadlock, the whole transaction is tried again.
func (p *Store) RecordRated(ctx context.Context, m store.RatedMatch, update func([]store.Standing) ([]store.Standing, error)) error {
	if err := store.CheckRated(m); err != nil {
		return err
	}
	if p.closed.Load() {
		return store.ErrClosed
	}
	var err error
	for try := 0; try < 5; try++ {
		err = pgx.BeginFunc(ctx, p.pool, func(tx pgx.Tx) error { return pgRecord(ctx, tx, m, update) })
		var pe *pgconn.PgError
		if !errors.As(err, &pe) || (pe.Code != "40P01" && pe.Code != "40001") {
			break
		}
	}
	switch {
	case err == nil || errors.Is(err, store.ErrRecorded):
		return err
	case errors.As(err, new(*pgconn.PgError)):
		return p.fail(err, "rated match %s/%d", m.Table, m.No)
	}
	return err
}

func pgRecord(ctx context.Context, tx pgx.Tx, m store.RatedMatch, update func([]store.Standing) ([]store.Standing, error)) error {
	tag, err := tx.Exec(ctx, `INSERT INTO tapis_rated_matches (table_id, no, game, at) VALUES ($1, $2, $3, $4)
		ON CONFLICT DO NOTHING`, m.Table, m.No, m.Game, m.At.UnixMilli())
	if err != nil {
		return err
	}
	if tag.RowsAffected() == 0 {
		return store.ErrRecorded
	}
	players := make([]string, len(m.Seats))
	for i, s := range m.Seats {
		players[i] = s.Player
	}
	sorted := slices.Clone(players)
	slices.Sort(sorted)
	sorted = slices.Compact(sorted)
	if _, err := tx.Exec(ctx, `INSERT INTO tapis_ratings (player, game, mu, sigma, ordinal, games, wins)
		SELECT p, $2, 0, 0, 0, -1, 0 FROM unnest($1::text[]) WITH ORDINALITY AS u(p, n) ORDER BY n
		ON CONFLICT DO NOTHING`, sorted, m.Game); err != nil {
		return err
	}
	rows, err := tx.Query(ctx, `SELECT player, mu, sigma, games, wins, fixed FROM tapis_ratings
		WHERE game = $1 AND player = ANY($2) ORDER BY player FOR UPDATE`, m.Game, sorted)
	if err != nil {
		return err
	}
	got := map[string]store.Standing{}
	for rows.Next() {
		st := store.Standing{Game: m.Game}
		if err := rows.Scan(&st.Player, &st.Mu, &st.Sigma, &st.Games, &st.Wins, &st.Fixed); err != nil {
			rows.Close()
			return err
		}
		if st.Games < 0 {
			st = store.Standing{Player: st.Player, Game: m.Game, New: true}
		}
		got[st.Player] = st
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return err
	}
	before := make([]store.Standing, len(m.Seats))
	for i, pl := range players {
		st, ok := got[pl]
		if !ok {
			return fmt.Errorf("store: postgres: rating of %s vanished", pl)
		}
		before[i] = st
	}
	after, err := store.Updated(m, before, update)
	if err != nil {
		return err
	}
	b := &pgx.Batch{}
	for i, s := range m.Seats {
		a := after[i]
		b.Queue(`UPDATE tapis_ratings SET mu = $3, sigma = $4, ordinal = $5, games = $6, wins = $7 WHERE player = $1 AND game = $2`,
			a.Player, a.Game, a.Mu, a.Sigma, a.Ordinal(), a.Games, a.Wins)
		b.Queue(sqldb.RatedResult.Postgres,
			m.Table, m.No, s.Seat, m.Game, len(m.Seats), s.Player, s.Rank, s.Score,
			before[i].Mu, before[i].Sigma, a.Mu, a.Sigma, m.At.UnixMilli())
	}
	return tx.SendBatch(ctx, b).Close()
}

// SetAnchor implements store.Ratings.
func (p *Store) SetAnchor(ctx context.Context, player, game string, mu, sigma float64) error {
	_, err := p.exec(ctx, `INSERT INTO tapis_ratings (player, game, mu, sigma, ordinal, games, wins, fixed)
		VALUES ($1, $2, $3, $4, $5, 0, 0, true)
		ON CONFLICT (player, game) DO UPDATE SET mu = excluded.mu, sigma = excluded.sigma, ordinal = excluded.ordinal, fixed = true`,
		player, game, mu, sigma, mu-3*sigma)
	if err != nil {
		return p.fail(err, "anchor %s in %s", player, game)
	}
	return nil
}

// Leaderboard implements store.Ratings: a walk down tapis_ratings_board.
func (p *Store) Leaderboard(ctx context.Context, game string, minGames, limit, offset int) ([]store.Ranked, error) {
	var out []store.Ranked
	err := p.read(ctx, "leaderboard of "+game, func(tx pgx.Tx) error {
		rows, err := tx.Query(ctx, `SELECT `+sqldb.StandingColumns+` FROM tapis_ratings
			WHERE game = $1 AND NOT fixed AND games >= $2 ORDER BY ordinal DESC, player LIMIT $3 OFFSET $4`,
			game, minGames, max(limit, 0), max(offset, 0))
		if err != nil {
			return err
		}
		defer rows.Close()
		for rows.Next() {
			r := store.Ranked{Rank: max(offset, 0) + len(out) + 1}
			if err := sqldb.ScanStanding(rows, &r.Standing); err != nil {
				return err
			}
			out = append(out, r)
		}
		return rows.Err()
	})
	return out, err
}

// Rank implements store.Ratings.
func (p *Store) Rank(ctx context.Context, game, player string, minGames int) (store.Ranked, error) {
	var r store.Ranked
	found := true
	err := p.read(ctx, "rank of "+player, func(tx pgx.Tx) error {
		err := sqldb.ScanStanding(tx.QueryRow(ctx, `SELECT `+sqldb.StandingColumns+` FROM tapis_ratings
			WHERE player = $1 AND game = $2 AND NOT fixed AND games >= $3`, player, game, minGames), &r.Standing)
		if errors.Is(err, pgx.ErrNoRows) {
			found = false
			return nil
		}
		if err != nil {
			return err
		}
		return tx.QueryRow(ctx, `SELECT COUNT(*) + 1 FROM tapis_ratings
			WHERE game = $1 AND NOT fixed AND games >= $2 AND (ordinal > $3 OR (ordinal = $3 AND player < $4))`,
			game, minGames, r.Ordinal(), player).Scan(&r.Rank)
	})
	if err == nil && !found {
		err = store.ErrNotFound
	}
	return r, err
}

// Profile implements store.Ratings, in one snapshot.
func (p *Store) Profile(ctx context.Context, player string, recent int) (store.Profile, error) {
	var out store.Profile
	err := p.read(ctx, "profile of "+player, func(tx pgx.Tx) error {
		rows, err := tx.Query(ctx, `SELECT `+sqldb.StandingColumns+` FROM tapis_ratings WHERE player = $1 AND games >= 0 ORDER BY game`, player)
		if err != nil {
			return err
		}
		for rows.Next() {
			var st store.Standing
			if err := sqldb.ScanStanding(rows, &st); err != nil {
				rows.Close()
				return err
			}
			out.Standings = append(out.Standings, st)
		}
		rows.Close()
		if err := rows.Err(); err != nil {
			return err
		}
		out.History, err = pgResults(ctx, tx, `WHERE player = $1 ORDER BY at DESC, table_id DESC, no DESC LIMIT $2`, player, store.HistoryLimit)
		return err
	})
	if err != nil {
		return store.Profile{}, err
	}
	out.Recent = append([]store.Result(nil), out.History[:min(max(recent, 0), len(out.History))]...)
	slices.Reverse(out.History)
	return out, nil
}

// MatchResults implements store.Ratings.
func (p *Store) MatchResults(ctx context.Context, table string, no int) ([]store.Result, error) {
	var out []store.Result
	err := p.read(ctx, fmt.Sprintf("rated match %s/%d", table, no), func(tx pgx.Tx) error {
		var err error
		out, err = pgResults(ctx, tx, `WHERE table_id = $1 AND no = $2 ORDER BY seat`, table, no)
		return err
	})
	return out, err
}

func pgResults(ctx context.Context, tx pgx.Tx, where string, args ...any) ([]store.Result, error) {
	rows, err := tx.Query(ctx, sqldb.ResultColumns+where, args...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	return sqldb.ScanResults(rows)
}
