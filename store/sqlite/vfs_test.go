package sqlite

import (
	"context"
	"database/sql"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"testing"

	"tapis/store/sqldb"
)

// A database written through SQLite's default VFS, as every store did
// before unix-excl (its WAL's index in a -shm file), and left as a killed
// server leaves it (commits in the WAL, not checkpointed into the file,
// the -shm there), opens under unix-excl with every move as written: the
// WAL is read again at the first access, and nothing of the file's format
// depends on the VFS.
func TestOpensDefaultVFSDatabase(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	old := filepath.Join(dir, "old.db")
	db, err := sql.Open("sqlite", "file:"+old+"?_pragma=journal_mode(WAL)&_pragma=synchronous(NORMAL)")
	must(t, err)
	defer db.Close()
	db.SetMaxOpenConns(1)
	must(t, sqldb.MigrateSQLite(ctx, db, sqldb.Last))
	// Not checkpointed while this connection is open: a WAL of 1,000
	// pages would be, these rows are a few.
	must(t, exec1(db, `PRAGMA wal_autocheckpoint = 0`))
	const moves = 200
	for _, id := range []string{"a", "b"} {
		must(t, exec1(db, `INSERT INTO tapis_tables (id, game, players, options, created, turn_ms, creator, active) VALUES (?, 'cabo', 2, '{}', 1, 0, '192.0.2.1', 1)`, id))
		must(t, exec1(db, `INSERT INTO tapis_seats (table_id, seat, name, bot, token_hash) VALUES (?, 0, 'Ann', '', 'h'), (?, 1, 'random', 'random', '')`, id, id))
		must(t, exec1(db, `INSERT INTO tapis_matches (table_id, no, seed) VALUES (?, 1, 7)`, id))
		for i := range moves {
			must(t, exec1(db, `INSERT INTO tapis_moves (table_id, no, idx, seat, move) VALUES (?, 1, ?, ?, ?)`, id, i, i%2, oldMove(id, i)))
		}
	}
	// The files as they are on disk now, the connection still open: a
	// process killed at this point.
	killed := filepath.Join(dir, "killed.db")
	for _, suffix := range []string{"", "-wal", "-shm"} {
		copyFile(t, old+suffix, killed+suffix)
	}
	if st, err := os.Stat(killed + "-wal"); err != nil || st.Size() == 0 {
		t.Fatalf("no WAL to recover (%v): the test would prove nothing", err)
	}

	s, err := Open(killed)
	must(t, err)
	defer s.Close()
	for _, id := range []string{"a", "b"} {
		saved, err := s.Load(ctx, id)
		must(t, err)
		if saved.Match == nil || len(saved.Match.Moves) != moves {
			t.Fatalf("table %s: %+v, want %d moves", id, saved.Match, moves)
		}
		for i, m := range saved.Match.Moves {
			if m.Seat != i%2 || string(m.Move) != oldMove(id, i) {
				t.Fatalf("table %s: move %d is %d %s, want %d %s", id, i, m.Seat, m.Move, i%2, oldMove(id, i))
			}
		}
		// And the match goes on where it was.
		must(t, s.AppendMove(ctx, id, 1, moves, saved.Match.Moves[0]))
	}
}

// oldMove is move i of table id in TestOpensDefaultVFSDatabase.
func oldMove(id string, i int) string {
	return fmt.Sprintf(`{"type":"swap","table":%q,"slot":%d}`, id, i)
}

func exec1(db *sql.DB, q string, args ...any) error {
	_, err := db.Exec(q, args...)
	return err
}

func copyFile(t *testing.T, from, to string) {
	t.Helper()
	in, err := os.Open(from)
	must(t, err)
	defer in.Close()
	out, err := os.Create(to)
	must(t, err)
	if _, err := io.Copy(out, in); err != nil {
		t.Fatal(err)
	}
	must(t, out.Close())
}
