package storetest

import (
	"context"
	"fmt"
	"testing"
	"time"

	"tapis/store"
)

// A table keeps its last ChatKept lines, numbered on; PruneChat deletes
// the chat of the tables done with (closed, or their latest match over)
// where nobody has been seen since the cut-off, and no other (issue 24:
// the chat was never pruned, and a flood filled the disk).
func testChatBounds(t *testing.T, s store.Store) {
	ctx := context.Background()
	must(t, s.CreateTable(ctx, store.Table{ID: "k-long", Game: "cabo", Players: 2, Created: ms(1), Host: -1}, nil))
	const written = store.ChatKept + 7
	for i := 1; i <= written; i++ {
		no, err := s.AppendChat(ctx, store.Line{Table: "k-long", Seat: 0, Name: "Pat", Text: fmt.Sprint("line ", i), At: ms(int64(i))})
		must(t, err)
		if no != i {
			t.Fatalf("line %d numbered %d", i, no)
		}
	}
	all, err := s.Chat(ctx, "k-long", 2*store.ChatKept)
	must(t, err)
	if len(all) != store.ChatKept || all[0].No != written-store.ChatKept+1 || all[len(all)-1].No != written {
		t.Fatalf("%d lines written: %d kept, %d to %d", written, len(all), all[0].No, all[len(all)-1].No)
	}

	old, cut, recent := ms(1000), ms(5000), ms(9000)
	tables := []struct {
		id     string
		start  bool // a match started
		over   bool // and ended
		closed bool
		active time.Time
		pruned bool
	}{
		{"k-closed-old", false, false, true, old, true},
		{"k-over-old", true, true, false, old, true},
		{"k-playing-old", true, false, false, old, false},
		{"k-waiting-old", false, false, false, old, false},
		{"k-closed-recent", true, false, true, recent, false},
		{"k-over-recent", true, true, false, recent, false},
	}
	for _, tb := range tables {
		var start *store.Start
		if tb.start {
			start = &store.Start{No: 1, Seed: 7}
		}
		must(t, s.CreateTable(ctx, store.Table{ID: tb.id, Game: "cabo", Players: 2, Created: ms(1), Host: -1}, start))
		if tb.over {
			must(t, s.EndMatch(ctx, tb.id, 1))
		}
		if tb.closed {
			must(t, s.CloseTable(ctx, tb.id, store.Abandoned, "test"))
		}
		must(t, s.Touch(ctx, tb.id, tb.active))
		for i := range 3 {
			_, err := s.AppendChat(ctx, store.Line{Table: tb.id, Seat: -1, Name: "Zoé", Text: fmt.Sprint("hi ", i), At: ms(2)})
			must(t, err)
		}
	}
	n, err := s.PruneChat(ctx, cut)
	must(t, err)
	// The store is shared with the other tests of the suite, whose done
	// tables may have lines too. k-long was created at 1 and never touched
	// since: it is open, and keeps its lines.
	if n < 6 {
		t.Fatalf("PruneChat deleted %d lines, want at least the 3 of each of 2 tables", n)
	}
	for _, tb := range tables {
		lines, err := s.Chat(ctx, tb.id, 10)
		must(t, err)
		if want := map[bool]int{true: 0, false: 3}[tb.pruned]; len(lines) != want {
			t.Errorf("%s: %d lines left, want %d", tb.id, len(lines), want)
		}
	}
	if lines, err := s.Chat(ctx, "k-long", 1); err != nil || len(lines) != 1 {
		t.Fatalf("the open table's chat: %v, %v", lines, err)
	}
	// A table whose chat went numbers its next lines from 1 again.
	no, err := s.AppendChat(ctx, store.Line{Table: "k-over-old", Seat: 0, Name: "Pat", Text: "back", At: ms(9500)})
	must(t, err)
	if no != 1 {
		t.Fatalf("a pruned table's next line is numbered %d", no)
	}
}
