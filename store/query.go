package store

import (
	"strconv"
	"strings"
	"time"
)

// The SQL that SQLite and PostgreSQL both run is written once, here, in
// SQLite's form: a ? for each parameter, in the order of the arguments.
// Since migration 9 the two schemas are the same (names, and every time
// an integer of Unix milliseconds), so a statement that uses neither
// dialect's own SQL serves both; PostgreSQL's form ($1, $2, ...) is made
// from it once, when the package starts (rebind).
//
// What is still written twice, in sqlite*.go and postgres*.go, differs
// for a reason:
//   - The hand-tuned write paths: a move's append (SQLite's one writer
//     batching its appends in a transaction, PostgreSQL's batches of
//     moves in one statement over arrays, postgres_moves.go), a table's
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

// query is one statement in the form of each store.
type query struct{ sqlite, pg string }

// shared makes the query both stores run from its SQLite form.
func shared(sqlite string) query { return query{sqlite: sqlite, pg: rebind(sqlite)} }

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

// openTable is the condition that table t is open, as Open has it: not
// closed, and its latest match, if any, not over.
const openTable = `t.closed = '' AND NOT COALESCE((SELECT over FROM tapis_matches WHERE table_id = t.id ORDER BY no DESC LIMIT 1), FALSE)`

// The column lists both stores read, each with its scan.
const (
	// entryColumns is a queue entry's (scanEntry).
	entryColumns = `SELECT player, name, game, players, bot, wait_ms, joined, table_id, seat FROM tapis_queue `
	// standingColumns is a standing's (scanStanding).
	standingColumns = `player, game, mu, sigma, games, wins, fixed`
	// resultColumns is a rated result's.
	resultColumns = `SELECT table_id, no, seat, game, players, player, rank, score,
		mu_before, sigma_before, mu_after, sigma_after, at FROM tapis_rated_results `
	// playerColumns is a player's.
	playerColumns = `SELECT id, name, username, username_key, password, created, deleted FROM tapis_players `
)

// The statements both stores run.
var (
	qStartMatch            = shared(`INSERT INTO tapis_matches (table_id, no, seed) VALUES (?, ?, ?)`)
	qCloseTable            = shared(`UPDATE tapis_tables SET closed = ?, reason = ? WHERE id = ?`)
	qTouch                 = shared(`UPDATE tapis_tables SET active = ? WHERE id = ?`)
	qRenamePlayer          = shared(`UPDATE tapis_players SET name = ? WHERE id = ?`)
	qSetUsername           = shared(`UPDATE tapis_players SET username = ?, username_key = ?, password = ? WHERE id = ? AND username_key = ''`)
	qSetPassword           = shared(`UPDATE tapis_players SET password = ? WHERE id = ?`)
	qDeletePlayerSessions  = shared(`DELETE FROM tapis_sessions WHERE player = ?`)
	qForgetSeatNames       = shared(`UPDATE tapis_seats SET name = '' WHERE player = ?`)
	qForgetChatNames       = shared(`UPDATE tapis_chat SET name = '' WHERE player = ?`)
	qLeaveQueue            = shared(`DELETE FROM tapis_queue WHERE player = ?`)
	qCreateSession         = shared(`INSERT INTO tapis_sessions (hash, player, created, expires) VALUES (?, ?, ?, ?)`)
	qSession               = shared(`SELECT player, created, expires FROM tapis_sessions WHERE hash = ? AND expires > ?`)
	qDeleteSession         = shared(`DELETE FROM tapis_sessions WHERE hash = ?`)
	qDeleteExpiredSessions = shared(`DELETE FROM tapis_sessions WHERE expires <= ?`)
	qRatedResult           = shared(`INSERT INTO tapis_rated_results (table_id, no, seat, game, players, player, rank, score,
		mu_before, sigma_before, mu_after, sigma_after, at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`)
	qDeleteSessions   = shared(`DELETE FROM tapis_sessions WHERE player = ? AND hash <> ?`)
	qPlayerByID       = shared(playerColumns + `WHERE id = ?`)
	qPlayerByUsername = shared(playerColumns + `WHERE username_key = ?`)
	qRenameSeats      = shared(`UPDATE tapis_seats SET name = ? WHERE player = ? AND table_id IN (SELECT t.id FROM tapis_tables t WHERE ` + openTable + `)`)
	qMoveSeats        = shared(`UPDATE tapis_seats SET player = ?, name = ? WHERE player = ? AND table_id IN (SELECT t.id FROM tapis_tables t WHERE ` + openTable + `)`)
	qPruneChat        = shared(`DELETE FROM tapis_chat WHERE table_id IN (
		SELECT t.id FROM (SELECT DISTINCT table_id FROM tapis_chat) c JOIN tapis_tables t ON t.id = c.table_id
		WHERE t.active < ? AND NOT (` + openTable + `))`)
	qNewSecret = shared(`INSERT INTO tapis_secrets (name, value) VALUES (?, ?) ON CONFLICT (name) DO NOTHING`)
	qSecret    = shared(`SELECT value FROM tapis_secrets WHERE name = ?`)
	qEndMatch  = shared(`UPDATE tapis_matches SET over = TRUE WHERE table_id = ? AND no = ?`)
	qChat      = shared(`SELECT no, seat, player, name, text, at FROM (
		SELECT * FROM tapis_chat WHERE table_id = ? ORDER BY no DESC LIMIT ?) c ORDER BY no`)
)

// rows is what the result sets of both drivers (database/sql's and
// pgx's) have in common: the scans below read either.
type rows interface {
	Next() bool
	Scan(dest ...any) error
	Err() error
}

// scanLines reads qChat's rows, lines of table.
func scanLines(rs rows, table string) ([]Line, error) {
	var out []Line
	for rs.Next() {
		l := Line{Table: table}
		var at int64
		if err := rs.Scan(&l.No, &l.Seat, &l.Player, &l.Name, &l.Text, &at); err != nil {
			return nil, err
		}
		l.At = time.UnixMilli(at)
		out = append(out, l)
	}
	return out, rs.Err()
}

// scanResults reads the rows of a query of resultColumns.
func scanResults(rs rows) ([]Result, error) {
	var out []Result
	for rs.Next() {
		var r Result
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

// scanPlayer reads a row of playerColumns.
func scanPlayer(scan func(dest ...any) error) (Player, error) {
	var p Player
	var created int64
	if err := scan(&p.ID, &p.Name, &p.Username, &p.UsernameKey, &p.Password, &created, &p.Deleted); err != nil {
		return Player{}, err
	}
	p.Created = time.UnixMilli(created)
	return p, nil
}

// row gives what a table's row keeps where t leaves a column zero: no
// options are {}, and a table never seen active was last active when it
// was created.
func (t Table) row() (opts string, active time.Time) {
	opts, active = string(t.Options), t.Active
	if opts == "" {
		opts = "{}"
	}
	if active.IsZero() {
		active = t.Created
	}
	return opts, active
}
