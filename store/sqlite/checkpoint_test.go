package sqlite

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"testing"
	"time"

	"tapis/store"
	"tapis/store/storetest"
)

// The checkpointer copies the WAL into the database file while the store
// is open, though the writer never checkpoints: a few hundred moves (some
// 600 pages of WAL, fewer than SQLite's own threshold of 1,000) grow the
// file within moments. Without it the WAL would grow until the store
// closed.
func TestCheckpointerCopiesTheWAL(t *testing.T) {
	path := filepath.Join(t.TempDir(), "c.db")
	s, err := Open(path)
	must(t, err)
	defer s.Close()
	ctx := context.Background()
	must(t, storetest.FillTable(ctx, s, "a", 0))
	size := func() int64 {
		fi, err := os.Stat(path)
		if err != nil {
			t.Fatal(err)
		}
		return fi.Size()
	}
	// Once what Open wrote is in the file, the file stays as it is until
	// moves come.
	waitFor(t, "the file checkpointed after Open", func() bool {
		before := size()
		time.Sleep(2 * checkpointEvery)
		return size() == before
	})
	before := size()
	for m := range 300 {
		must(t, s.AppendMove(ctx, "a", 1, m, store.Move{Seat: m % 2, Move: json.RawMessage(fmt.Sprintf(`{"type":"draw","n":%d}`, m))}))
	}
	waitFor(t, "the moves checkpointed into the file", func() bool { return size() > before })
	saved, err := s.Load(ctx, "a")
	must(t, err)
	if n := len(saved.Match.Moves); n != 300 {
		t.Fatalf("%d moves read back, want 300", n)
	}
}

// waitFor polls ok until it holds, for at most a minute.
func waitFor(t *testing.T, what string, ok func() bool) {
	t.Helper()
	for end := time.Now().Add(time.Minute); !ok(); {
		if time.Now().After(end) {
			t.Fatalf("waited a minute for %s", what)
		}
		time.Sleep(20 * time.Millisecond)
	}
}
