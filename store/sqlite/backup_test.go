package sqlite

import (
	"context"
	"encoding/json"
	"fmt"
	"path/filepath"
	"testing"

	"tapis/store"
)

// A backup taken while the store serves, moves being written, is a whole
// database of its own: it opens as a store, with every move acknowledged
// before it was asked for, and the store goes on writing meanwhile.
func TestBackupWhileOpen(t *testing.T) {
	ctx := context.Background()
	s, err := Open(filepath.Join(t.TempDir(), "live.db"))
	must(t, err)
	defer s.Close()
	const moves = 300
	must(t, s.CreateTable(ctx, store.Table{ID: "t", Game: "cabo", Players: 2, Seats: []store.Seat{{Name: "Ann"}, {Bot: "random"}}},
		&store.Start{No: 1, Seed: 7}))
	move := func(i int) store.Move {
		return store.Move{Seat: i % 2, Move: json.RawMessage(fmt.Sprintf(`{"type":"draw","i":%d}`, i))}
	}
	for i := range moves {
		must(t, s.AppendMove(ctx, "t", 1, i, move(i)))
	}
	// The writer goes on while the copy is made.
	done := make(chan error, 1)
	go func() {
		for i := moves; i < 2*moves; i++ {
			if err := s.AppendMove(ctx, "t", 1, i, move(i)); err != nil {
				done <- err
				return
			}
		}
		done <- nil
	}()
	copyPath := filepath.Join(t.TempDir(), "copy.db")
	must(t, s.Backup(ctx, copyPath))
	must(t, <-done)
	if err := s.Backup(ctx, copyPath); err == nil {
		t.Fatal("a backup over an existing file: no error")
	}
	c, err := Open(copyPath)
	must(t, err)
	defer c.Close()
	saved, err := c.Load(ctx, "t")
	must(t, err)
	if saved.Match == nil || len(saved.Match.Moves) < moves || len(saved.Match.Moves) > 2*moves {
		t.Fatalf("the copy holds %+v, want %d to %d moves", saved.Match, moves, 2*moves)
	}
	for i, m := range saved.Match.Moves {
		if want := move(i); m.Seat != want.Seat || string(m.Move) != string(want.Move) {
			t.Fatalf("the copy's move %d is %d %s, want %d %s", i, m.Seat, m.Move, want.Seat, want.Move)
		}
	}
	// And the live store has every move.
	live, err := s.Load(ctx, "t")
	must(t, err)
	if len(live.Match.Moves) != 2*moves {
		t.Fatalf("the live store holds %d moves, want %d", len(live.Match.Moves), 2*moves)
	}
}
