package sqlite

import (
	"context"
	"database/sql"
	"log/slog"
	"time"
)

// Checkpoints copy the WAL's pages into the database file (and sync it).
// SQLite runs them in the connection whose commit brought the WAL past
// 1,000 pages, which is the writer: every write waiting behind that commit
// waited for the copy and its two fsyncs too, some tens of ms at a busy
// server, and the moves' round trips with it. The writer's connection
// now never checkpoints (wal_autocheckpoint 0); a connection of its own
// does, PASSIVE (it copies what no reader needs, never waits for the
// writer nor holds it up), every checkpointEvery. Durability is the same:
// a commit is in the WAL file before it is acknowledged, checkpointed or
// not.

// checkpointEvery is how often the checkpointer runs: the WAL holds at
// most about that long of commits (at 2,000 moves a second, a few MB).
const checkpointEvery = 500 * time.Millisecond

// startCheckpointer takes a connection for checkpoints and runs them until
// the store closes.
func (s *Store) startCheckpointer() error {
	ck, err := s.db.Conn(context.Background())
	if err != nil {
		return err
	}
	s.ckDone = make(chan struct{})
	go s.checkpointer(ck)
	return nil
}

// checkpointer checkpoints the WAL every checkpointEvery until quit.
func (s *Store) checkpointer(ck *sql.Conn) {
	defer close(s.ckDone)
	defer ck.Close()
	tick := time.NewTicker(checkpointEvery)
	defer tick.Stop()
	// A failure is logged when it begins or changes, not twice a second
	// for as long as it lasts (a damaged file: Check says more).
	var failing string
	for {
		select {
		case <-s.quit:
			return
		case <-tick.C:
			_, err := ck.ExecContext(context.Background(), `PRAGMA wal_checkpoint(PASSIVE)`)
			switch {
			case err != nil && err.Error() != failing:
				failing = err.Error()
				slog.Warn("store: checkpoint", "err", err)
			case err == nil && failing != "":
				failing = ""
				slog.Info("store: checkpoints work again")
			}
		}
	}
}
