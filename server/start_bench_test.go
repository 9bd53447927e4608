package server_test

import (
	"context"
	"encoding/json"
	"fmt"
	"path/filepath"
	"testing"
	"time"

	"tapis/server"
	"tapis/store"
	"tapis/store/sqlite"
)

// BenchmarkStart10000 starts a server on a SQLite database of 10,000
// stored tables (half waiting for players, half in a match of 20 moves):
// one op is one start, until it serves (issue 14: under 5 s).
//
//	go test ./server -run XXX -bench Start10000 -benchtime 5x
func BenchmarkStart10000(b *testing.B) {
	db, err := sqlite.Open(filepath.Join(b.TempDir(), "tapis.db"))
	if err != nil {
		b.Fatal(err)
	}
	defer db.Close()
	ctx := context.Background()
	now := time.Now()
	for i := 0; i < 10000; i++ {
		tab := store.Table{ID: fmt.Sprintf("t%05d", i), Game: "cabo", Players: 2, Options: json.RawMessage(`{}`), Created: now,
			Seats: []store.Seat{{Name: "Ann", TokenHash: "x"}, {}}, Creator: fmt.Sprintf("10.0.%d.%d", i/250, i%250)}
		var start *store.Start
		if i%2 == 1 {
			tab.Seats[1] = store.Seat{Name: "random", Bot: "random"}
			start = &store.Start{No: 1, Seed: uint64(i)}
		}
		if err := db.CreateTable(ctx, tab, start); err != nil {
			b.Fatal(err)
		}
		for j := 0; start != nil && j < 20; j++ {
			if err := db.AppendMove(ctx, tab.ID, 1, j, store.Move{Seat: j % 2, Move: json.RawMessage(`{"type":"draw"}`)}); err != nil {
				b.Fatal(err)
			}
		}
	}
	cfg := testConfig()
	cfg.Store, cfg.Logger = db, quietLogger()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		sctx, cancel := context.WithCancel(ctx)
		srv, err := server.New(sctx, cfg)
		if err != nil {
			b.Fatal(err)
		}
		cancel()
		srv.Wait()
	}
}
