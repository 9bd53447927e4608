// Package sqldb is what Tapis's two SQL stores (store/sqlite and
// store/postgres) share: the schema and its migrations, one goose
// history per dialect (migrations/), the statements both run, written
// once (query.go), the scans of the rows both read, and the pacing of
// their batched writers (pacer.go). The stores themselves, with their
// hand-tuned write paths, are in their own packages.
package sqldb

import (
	"errors"
	"strconv"
	"strings"
	"time"

	"tapis/store"
)

// The SQL that SQLite and PostgreSQL both run is written once, here, in
// SQLite's form: a ? for each parameter, in the order of the arguments.
// Since migration 9 the two schemas are the same (names, and every time
// an integer of Unix milliseconds), so a statement that uses neither
// dialect's own SQL serves both; PostgreSQL's form ($1, $2, ...) is made
// from it once, when the package starts (rebind).
//
// What is still written twice, in store/sqlite and store/postgres,
// differs for a reason:
//   - The hand-tuned write paths: a move's append (SQLite's one writer
//     batching its appends in a transaction, PostgreSQL's batches of
//     moves in one statement over arrays, postgres/moves.go), a table's
//     creation with its seats and first match (one statement of CTEs over
//     arrays in PostgreSQL, one round trip; the writer's transaction in
//     SQLite), rated matches (PostgreSQL locks the players' rows and
//     retries a deadlock; SQLite's one writer needs neither).
//   - The upserts: INSERT OR REPLACE / OR IGNORE in SQLite, ON CONFLICT
//     with its own update in PostgreSQL, and the chat's numbering, which
//     SQLite does in its writer and PostgreSQL in one statement.
//   - The reads of Open and Load: SQLite reads each column loosely to
//     report a damaged row as a Problem (a column holds any type there);
//     PostgreSQL's columns hold their type, and it finds a table's latest
//     match with a LATERAL join.
//   - Order and booleans: PostgreSQL sorts ids with COLLATE "C" to give
//     SQLite's byte order whatever the database's collation; SQLite's
//     queries test booleans as = 0 or = 1, the form of its partial
//     indexes' conditions, which its planner matches only word for word.
//   - Leases are PostgreSQL's alone (a cluster shares one database).
//
// sqlc (github.com/sqlc-dev/sqlc) was weighed for this and not taken: it
// generates a package per engine from each engine's own query files, so
// the shared statements would still be kept twice (as input and as
// generated Go), its output for PostgreSQL (pgx) and SQLite
// (database/sql) differs in types, and the statements that differ above
// are the ones it cannot write for us.

// Query is one statement in the form of each store.
type Query struct{ SQLite, Postgres string }

// shared makes the query both stores run from its SQLite form.
func shared(sqlite string) Query { return Query{SQLite: sqlite, Postgres: rebind(sqlite)} }

// rebind numbers the parameters of a statement written with ?, as
// PostgreSQL has them. No shared statement has a ? inside a string.
func rebind(q string) string {
	var b strings.Builder
	n := 0
	for _, part := range strings.SplitAfter(q, "?") {
		if strings.HasSuffix(part, "?") {
			n++
			b.WriteString(part[:len(part)-1] + "$" + strconv.Itoa(n))
			continue
		}
		b.WriteString(part)
	}
	return b.String()
}

// OpenTable is the condition that table t is open, as Open has it: not
// closed, and its latest match, if any, not over.
const OpenTable = `t.closed = '' AND NOT COALESCE((SELECT over FROM tapis_matches WHERE table_id = t.id ORDER BY no DESC LIMIT 1), FALSE)`

// The column lists both stores read, each with its scan.
const (
	// EntryColumns is a queue entry's (scanEntry).
	EntryColumns = `SELECT player, name, game, players, bot, wait_ms, joined, table_id, seat FROM tapis_queue `
	// StandingColumns is a standing's (scanStanding).
	StandingColumns = `player, game, mu, sigma, games, wins, fixed`
	// ResultColumns is a rated result's.
	ResultColumns = `SELECT table_id, no, seat, game, players, player, rank, score,
		mu_before, sigma_before, mu_after, sigma_after, at FROM tapis_rated_results `
	// PlayerColumns is a player's.
	PlayerColumns = `SELECT id, name, username, username_key, password, created, deleted FROM tapis_players `
)

// The statements both stores run.
var (
	StartMatch            = shared(`INSERT INTO tapis_matches (table_id, no, seed) VALUES (?, ?, ?)`)
	CloseTable            = shared(`UPDATE tapis_tables SET closed = ?, reason = ? WHERE id = ?`)
	Touch                 = shared(`UPDATE tapis_tables SET active = ? WHERE id = ?`)
	RenamePlayer          = shared(`UPDATE tapis_players SET name = ? WHERE id = ?`)
	SetUsername           = shared(`UPDATE tapis_players SET username = ?, username_key = ?, password = ? WHERE id = ? AND username_key = ''`)
	SetPassword           = shared(`UPDATE tapis_players SET password = ? WHERE id = ?`)
	DeletePlayerSessions  = shared(`DELETE FROM tapis_sessions WHERE player = ?`)
	ForgetSeatNames       = shared(`UPDATE tapis_seats SET name = '' WHERE player = ?`)
	ForgetChatNames       = shared(`UPDATE tapis_chat SET name = '' WHERE player = ?`)
	LeaveQueue            = shared(`DELETE FROM tapis_queue WHERE player = ?`)
	CreateSession         = shared(`INSERT INTO tapis_sessions (hash, player, created, expires) VALUES (?, ?, ?, ?)`)
	Session               = shared(`SELECT player, created, expires FROM tapis_sessions WHERE hash = ? AND expires > ?`)
	DeleteSession         = shared(`DELETE FROM tapis_sessions WHERE hash = ?`)
	DeleteExpiredSessions = shared(`DELETE FROM tapis_sessions WHERE expires <= ?`)
	RatedResult           = shared(`INSERT INTO tapis_rated_results (table_id, no, seat, game, players, player, rank, score,
		mu_before, sigma_before, mu_after, sigma_after, at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`)
	DeleteSessions   = shared(`DELETE FROM tapis_sessions WHERE player = ? AND hash <> ?`)
	PlayerByID       = shared(PlayerColumns + `WHERE id = ?`)
	PlayerByUsername = shared(PlayerColumns + `WHERE username_key = ?`)
	RenameSeats      = shared(`UPDATE tapis_seats SET name = ? WHERE player = ? AND table_id IN (SELECT t.id FROM tapis_tables t WHERE ` + OpenTable + `)`)
	MoveSeats        = shared(`UPDATE tapis_seats SET player = ?, name = ? WHERE player = ? AND table_id IN (SELECT t.id FROM tapis_tables t WHERE ` + OpenTable + `)`)
	PruneChat        = shared(`DELETE FROM tapis_chat WHERE table_id IN (
		SELECT t.id FROM (SELECT DISTINCT table_id FROM tapis_chat) c JOIN tapis_tables t ON t.id = c.table_id
		WHERE t.active < ? AND NOT (` + OpenTable + `))`)
	NewSecret = shared(`INSERT INTO tapis_secrets (name, value) VALUES (?, ?) ON CONFLICT (name) DO NOTHING`)
	Secret    = shared(`SELECT value FROM tapis_secrets WHERE name = ?`)
	// Analyses and hints (issue 27, store/analysis.go).
	SaveAnalysis = shared(`INSERT INTO tapis_analyses (table_id, match_no, report, created) VALUES (?, ?, ?, ?) ON CONFLICT (table_id, match_no) DO NOTHING`)
	Analysis     = shared(`SELECT report FROM tapis_analyses WHERE table_id = ? AND match_no = ?`)
	AddHint      = shared(`INSERT INTO tapis_hints (table_id, match_no, seat, used) VALUES (?, ?, ?, 1)
		ON CONFLICT (table_id, match_no, seat) DO UPDATE SET used = tapis_hints.used + 1`)
	HintsOfSeat = shared(`SELECT used FROM tapis_hints WHERE table_id = ? AND match_no = ? AND seat = ?`)
	Hints       = shared(`SELECT seat, used FROM tapis_hints WHERE table_id = ? AND match_no = ?`)
	EndMatch    = shared(`UPDATE tapis_matches SET over = TRUE WHERE table_id = ? AND no = ?`)
	Chat        = shared(`SELECT no, seat, player, name, text, at FROM (
		SELECT * FROM tapis_chat WHERE table_id = ? ORDER BY no DESC LIMIT ?) c ORDER BY no`)
)

// PlayedMatches lists the finished matches a player sat in, a page
// after a cursor (store.PlayedCursor.Bounds; its creation and id are
// given twice), newest first: store.History. The player's seat is the
// lowest they hold; PostgreSQL compares ids in byte order, as SQLite does.
var PlayedMatches = Query{SQLite: playedMatches(""), Postgres: rebind(playedMatches(` COLLATE "C"`))}

func playedMatches(collate string) string {
	id := "t.id" + collate
	return `SELECT t.id, m.no, t.game, t.players, t.created, t.rated, t.public, MIN(s.seat)
		FROM tapis_seats s JOIN tapis_tables t ON t.id = s.table_id JOIN tapis_matches m ON m.table_id = s.table_id
		WHERE s.player = ? AND s.player <> '' AND m.over = TRUE
		  AND (t.created < ? OR (t.created = ? AND (` + id + ` < ? OR (t.id = ? AND m.no < ?))))
		GROUP BY t.id, m.no
		ORDER BY t.created DESC, ` + id + ` DESC, m.no DESC
		LIMIT ?`
}

// PlayedArgs are PlayedMatches' arguments.
func PlayedArgs(player string, after store.PlayedCursor, limit int) []any {
	ms, id, no := after.Bounds()
	return []any{player, ms, ms, id, id, no, max(limit, 0)}
}

// ScanPlayed reads PlayedMatches' rows.
func ScanPlayed(rs Rows) ([]store.Played, error) {
	var out []store.Played
	for rs.Next() {
		var p store.Played
		var created int64
		if err := rs.Scan(&p.Table, &p.No, &p.Game, &p.Players, &created, &p.Rated, &p.Public, &p.Seat); err != nil {
			return nil, err
		}
		p.Created = time.UnixMilli(created)
		out = append(out, p)
	}
	return out, rs.Err()
}

// Rows is what the result sets of both drivers (database/sql's and
// pgx's) have in common: the scans below read either.
type Rows interface {
	Next() bool
	Scan(dest ...any) error
	Err() error
}

// ScanLines reads Chat's rows, lines of table.
func ScanLines(rs Rows, table string) ([]store.Line, error) {
	var out []store.Line
	for rs.Next() {
		l := store.Line{Table: table}
		var at int64
		if err := rs.Scan(&l.No, &l.Seat, &l.Player, &l.Name, &l.Text, &at); err != nil {
			return nil, err
		}
		l.At = time.UnixMilli(at)
		out = append(out, l)
	}
	return out, rs.Err()
}

// ScanResults reads the rows of a query of ResultColumns.
func ScanResults(rs Rows) ([]store.Result, error) {
	var out []store.Result
	for rs.Next() {
		var r store.Result
		var at int64
		if err := rs.Scan(&r.Table, &r.No, &r.Seat, &r.Game, &r.Players, &r.Player, &r.Rank, &r.Score,
			&r.MuBefore, &r.SigmaBefore, &r.MuAfter, &r.SigmaAfter, &at); err != nil {
			return nil, err
		}
		r.At = time.UnixMilli(at)
		out = append(out, r)
	}
	return out, rs.Err()
}

// ScanPlayer reads a row of PlayerColumns.
func ScanPlayer(scan func(dest ...any) error) (store.Player, error) {
	var p store.Player
	var created int64
	if err := scan(&p.ID, &p.Name, &p.Username, &p.UsernameKey, &p.Password, &created, &p.Deleted); err != nil {
		return store.Player{}, err
	}
	p.Created = time.UnixMilli(created)
	return p, nil
}

// TableRow gives what a table's row keeps where t leaves a column zero: no
// options are {}, and a table never seen active was last active when it
// was created.
func TableRow(t store.Table) (opts string, active time.Time) {
	opts, active = string(t.Options), t.Active
	if opts == "" {
		opts = "{}"
	}
	if active.IsZero() {
		active = t.Created
	}
	return opts, active
}

// ScanEntry reads one row of EntryColumns.
func ScanEntry(scan func(...any) error) (store.Entry, error) {
	var e store.Entry
	var wait, joined int64
	if err := scan(&e.Player, &e.Name, &e.Game, &e.Players, &e.Bot, &wait, &joined, &e.Table, &e.Seat); err != nil {
		return store.Entry{}, err
	}
	e.Wait, e.Joined = time.Duration(wait)*time.Millisecond, time.UnixMilli(joined)
	return e, nil
}

// ScanStanding reads one row of StandingColumns into st.
func ScanStanding(sc interface{ Scan(...any) error }, st *store.Standing) error {
	return sc.Scan(&st.Player, &st.Game, &st.Mu, &st.Sigma, &st.Games, &st.Wins, &st.Fixed)
}

// SecretName is the row of tapis_secrets holding the server's secret; the
// table is keyed by name so that another secret, one day, is a row rather
// than a migration.
const SecretName = "server"

// ErrUnclaimed is a claim's write that changed no row: the player is
// missing or has a username already, which a read then tells apart (the
// write was the check: a player with a username is never changed).
var ErrUnclaimed = errors.New("store: claim refused")
