package sqlite

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"time"

	"tapis/store"
)

// sqliteOpen lists the open tables with what Summary needs, in one query:
// the latest match and the seats taken are looked up in their primary
// keys, and tapis_tables_open (a partial index) holds only tables not closed.
const sqliteOpen = `
	SELECT t.id, t.game, t.players, t.created, t.creator, t.active, m.no IS NOT NULL,
	  (SELECT COUNT(*) FROM tapis_seats s WHERE s.table_id = t.id AND s.seat >= 0 AND s.seat < t.players
	     AND (s.bot <> '' OR s.token_hash <> ''))
	FROM tapis_tables t LEFT JOIN tapis_matches m
	  ON m.table_id = t.id AND m.no = (SELECT MAX(no) FROM tapis_matches WHERE table_id = t.id)
	WHERE t.closed = '' AND (m.over IS NULL OR m.over = 0)
	ORDER BY t.id`

// Open implements store.Store. SQLite keeps whatever a damaged file or a hand
// edit puts in a column, whatever its declared type: each value is read
// loosely, and one that is not what it should be makes that table's
// Problem, not the call's error. A page the file cannot read still fails
// the call: nothing after it can be trusted to be listed.
func (s *Store) Open(ctx context.Context) ([]store.Summary, error) {
	if s.closed() {
		return nil, store.ErrClosed
	}
	rows, err := s.db.QueryContext(ctx, sqliteOpen)
	if err != nil {
		return nil, fmt.Errorf("store: open tables: %v", err)
	}
	defer rows.Close()
	var out []store.Summary
	for rows.Next() {
		var v [8]any
		if err := rows.Scan(&v[0], &v[1], &v[2], &v[3], &v[4], &v[5], &v[6], &v[7]); err != nil {
			return nil, fmt.Errorf("store: open tables: %v", err)
		}
		var d decoder
		sm := store.Summary{ID: d.text("id", v[0]), Game: d.text("game", v[1])}
		if n, ok := d.int("players", v[2]); ok {
			sm.Players = int(n)
			if err := store.CheckPlayers(sm.Players); err != nil {
				d.problems = append(d.problems, err.Error())
			}
		}
		created, _ := d.int("created", v[3])
		sm.Created, sm.Creator = time.UnixMilli(created), d.text("creator", v[4])
		active, _ := d.int("active", v[5])
		started, _ := d.int("match", v[6])
		seated, _ := d.int("seats", v[7])
		sm.Active, sm.Started, sm.Seated = time.UnixMilli(active), started != 0, int(seated)
		sm.Problem = strings.Join(d.problems, "; ")
		out = append(out, sm)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("store: open tables: %v", err)
	}
	return out, nil
}

// decoder reads SQLite values loosely, noting each that is not of the
// kind its column should hold.
type decoder struct{ problems []string }

func (d *decoder) text(col string, v any) string {
	switch v := v.(type) {
	case string:
		return v
	case []byte:
		return string(v)
	}
	d.problems = append(d.problems, fmt.Sprintf("%s is %s, not text", col, kindOf(v)))
	return ""
}

func (d *decoder) int(col string, v any) (int64, bool) {
	if n, ok := v.(int64); ok {
		return n, true
	}
	d.problems = append(d.problems, fmt.Sprintf("%s is %s, not an integer", col, kindOf(v)))
	return 0, false
}

// kindOf names a value's kind without quoting it: a damaged value may be
// any bytes, which have no place in a log line.
func kindOf(v any) string {
	switch v.(type) {
	case nil:
		return "null"
	case int64:
		return "an integer"
	case float64:
		return "a real number"
	case string:
		return "text"
	case []byte:
		return "a blob"
	}
	return fmt.Sprintf("a %T", v)
}

// Load implements store.Store.
func (s *Store) Load(ctx context.Context, id string) (store.Saved, error) {
	if s.closed() {
		return store.Saved{}, store.ErrClosed
	}
	var t store.Saved
	var opts, closed string
	var created, turn, active int64
	var no, seed, over sql.NullInt64
	err := s.db.QueryRowContext(ctx, `
		SELECT t.id, t.game, t.players, t.options, t.created, t.turn_ms, t.creator, t.active, t.closed, t.reason,
		  t.host, t.memory_aid, t.public, t.lang, t.rated, t.coach, m.no, m.seed, m.over
		FROM tapis_tables t LEFT JOIN tapis_matches m
		  ON m.table_id = t.id AND m.no = (SELECT MAX(no) FROM tapis_matches WHERE table_id = t.id)
		WHERE t.id = ?`, id).Scan(&t.ID, &t.Game, &t.Players, &opts, &created, &turn, &t.Creator, &active, &closed, &t.Reason,
		&t.Host, &t.MemoryAid, &t.Public, &t.Lang, &t.Rated, &t.Coach, &no, &seed, &over)
	if err != nil {
		return t, fmt.Errorf("store: table %s: %v", id, err)
	}
	if err := store.CheckPlayers(t.Players); err != nil {
		return t, fmt.Errorf("store: table %s: %v", id, err)
	}
	t.Options = json.RawMessage(opts)
	t.Created = time.UnixMilli(created)
	t.Active = time.UnixMilli(active)
	t.TurnTime = time.Duration(turn) * time.Millisecond
	t.Closed = store.Closed(closed)
	if no.Valid {
		t.Match = &store.Match{No: int(no.Int64), Seed: uint64(seed.Int64), Over: over.Int64 != 0}
	}
	return t, s.load(ctx, &t)
}

// load fills a saved table's seats and its match's moves.
func (s *Store) load(ctx context.Context, t *store.Saved) error {
	t.Seats = make([]store.Seat, t.Players)
	rows, err := s.db.QueryContext(ctx, `SELECT seat, name, bot, token_hash, player FROM tapis_seats WHERE table_id = ?`, t.ID)
	if err != nil {
		return fmt.Errorf("store: seats of %s: %v", t.ID, err)
	}
	for rows.Next() {
		var i int
		var st store.Seat
		if err := rows.Scan(&i, &st.Name, &st.Bot, &st.TokenHash, &st.Player); err != nil {
			rows.Close()
			return fmt.Errorf("store: seats of %s: %v", t.ID, err)
		}
		if i >= 0 && i < len(t.Seats) {
			t.Seats[i] = st
		}
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return fmt.Errorf("store: seats of %s: %v", t.ID, err)
	}
	if t.Match == nil {
		return nil
	}
	rows, err = s.db.QueryContext(ctx, `SELECT idx, seat, move FROM tapis_moves WHERE table_id = ? AND no = ? ORDER BY idx`, t.ID, t.Match.No)
	if err != nil {
		return fmt.Errorf("store: moves of %s: %v", t.ID, err)
	}
	defer rows.Close()
	for rows.Next() {
		var idx int
		var m store.Move
		var mv string
		if err := rows.Scan(&idx, &m.Seat, &mv); err != nil {
			return fmt.Errorf("store: moves of %s: %v", t.ID, err)
		}
		if idx != len(t.Match.Moves) {
			return fmt.Errorf("store: moves of %s: move %d is missing", t.ID, len(t.Match.Moves))
		}
		m.Move = json.RawMessage(mv)
		t.Match.Moves = append(t.Match.Moves, m)
	}
	if err := rows.Err(); err != nil {
		return fmt.Errorf("store: moves of %s: %v", t.ID, err)
	}
	return nil
}

// Tables implements store.Store.
func (s *Store) Tables(ctx context.Context) ([]string, error) {
	if s.closed() {
		return nil, store.ErrClosed
	}
	rows, err := s.db.QueryContext(ctx, `SELECT id FROM tapis_tables ORDER BY id`)
	if err != nil {
		return nil, fmt.Errorf("store: tables: %v", err)
	}
	defer rows.Close()
	var ids []string
	for rows.Next() {
		var id sql.NullString
		if err := rows.Scan(&id); err != nil {
			return nil, fmt.Errorf("store: tables: %v", err)
		}
		ids = append(ids, id.String)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("store: tables: %v", err)
	}
	return ids, nil
}

// Check implements store.IntegrityChecker with SQLite's integrity check, which reads
// every page of the file: its b-trees, their order, and that each index
// matches its table.
func (s *Store) Check(ctx context.Context) error {
	if s.closed() {
		return store.ErrClosed
	}
	rows, err := s.db.QueryContext(ctx, `PRAGMA integrity_check(20)`)
	if err != nil {
		return fmt.Errorf("store: integrity check: %v", err)
	}
	defer rows.Close()
	var problems []string
	for rows.Next() {
		var p string
		if err := rows.Scan(&p); err != nil {
			return fmt.Errorf("store: integrity check: %v", err)
		}
		if p != "ok" {
			problems = append(problems, p)
		}
	}
	if err := rows.Err(); err != nil {
		return fmt.Errorf("store: integrity check: %v", err)
	}
	if len(problems) > 0 {
		return fmt.Errorf("store: integrity check: %s", strings.Join(problems, "; "))
	}
	return nil
}

// Match implements store.Store: Load's query, for match no instead of the
// latest.
func (s *Store) Match(ctx context.Context, id string, no int) (store.Saved, error) {
	if s.closed() {
		return store.Saved{}, store.ErrClosed
	}
	var t store.Saved
	var opts, closed string
	var created, turn, active int64
	var mno, seed, over sql.NullInt64
	err := s.db.QueryRowContext(ctx, `
		SELECT t.id, t.game, t.players, t.options, t.created, t.turn_ms, t.creator, t.active, t.closed, t.reason,
		  t.host, t.memory_aid, t.public, t.lang, t.rated, t.coach, m.no, m.seed, m.over
		FROM tapis_tables t LEFT JOIN tapis_matches m ON m.table_id = t.id AND m.no = ?
		WHERE t.id = ?`, no, id).Scan(&t.ID, &t.Game, &t.Players, &opts, &created, &turn, &t.Creator, &active, &closed, &t.Reason,
		&t.Host, &t.MemoryAid, &t.Public, &t.Lang, &t.Rated, &t.Coach, &mno, &seed, &over)
	switch {
	case errors.Is(err, sql.ErrNoRows):
		return t, store.NoMatch(id, no)
	case err != nil:
		return t, fmt.Errorf("store: table %s: %v", id, err)
	case !mno.Valid:
		return t, store.NoMatch(id, no)
	}
	if err := store.CheckPlayers(t.Players); err != nil {
		return t, fmt.Errorf("store: table %s: %v", id, err)
	}
	t.Options = json.RawMessage(opts)
	t.Created, t.Active = time.UnixMilli(created), time.UnixMilli(active)
	t.TurnTime = time.Duration(turn) * time.Millisecond
	t.Closed = store.Closed(closed)
	t.Match = &store.Match{No: int(mno.Int64), Seed: uint64(seed.Int64), Over: over.Int64 != 0}
	return t, s.load(ctx, &t)
}
