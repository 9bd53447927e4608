package sqlite

import (
	"context"
	"fmt"
	"strings"
)

// Backup writes a consistent copy of the whole database to the new file
// path, taken while the store serves: SQLite's VACUUM INTO, which reads
// one snapshot of the WAL while the writer goes on. The store keeps its
// own file locked against other processes (the unix-excl VFS, Open), so
// a running server's database is kept, checked or opened in the sqlite3
// shell through such a copy (`tapis serve`'s operators' address serves
// one as GET /backup).
func (s *Store) Backup(ctx context.Context, path string) error {
	// VACUUM INTO takes a file name, not a parameter: quoted as SQL's
	// string literals are.
	lit := "'" + strings.ReplaceAll(path, "'", "''") + "'"
	if _, err := s.db.ExecContext(ctx, "VACUUM INTO "+lit); err != nil {
		return fmt.Errorf("store: backup to %s: %v", path, err)
	}
	return nil
}
