package table

import (
	"context"
	"net/http"
	"slices"
	"sync"
	"testing"
	"time"

	"tapis/clocktest"
	"tapis/store"
)

// notesTaken is a Notifier that keeps what it is told: "player kind".
type notesTaken struct {
	mu  sync.Mutex
	got []string
}

func (n *notesTaken) Notify(_ context.Context, player, kind string, _ any) error {
	n.mu.Lock()
	defer n.mu.Unlock()
	n.got = append(n.got, player+" "+kind)
	return nil
}

func (n *notesTaken) list() []string {
	n.mu.Lock()
	defer n.mu.Unlock()
	return slices.Clone(n.got)
}

// A turn-based table's match begins when a friend takes its last seat,
// days after its maker left it: the maker, due to peek with the friend,
// is told it is their turn; the friend, who has just sat down, is not.
// At a real-time table nobody is told: its players are there.
func TestTurnBasedStartTells(t *testing.T) {
	for _, turnBased := range []bool{true, false} {
		notes := &notesTaken{}
		d := newDaysHost(t, store.NewMemory(), clocktest.New(time.Unix(2_000_000_000, 0)), nil,
			func(h *Host) { h.UseNotifier(notes) })
		ann := d.create(map[string]any{"turn_based": turnBased, "bots": []string{"", ""}})
		var bob created
		if code := d.do("POST", "/api/tables/"+ann.Table+"/join", "bob", map[string]any{"name": "Bob"}, &bob); code != http.StatusOK {
			t.Fatalf("Bob joins: %d %+v", code, bob)
		}
		want := []string{"ann your_turn"}
		if !turnBased {
			want = nil
		}
		until(t, "the notes", func() bool { return len(notes.list()) >= len(want) })
		if got := notes.list(); !slices.Equal(got, want) {
			t.Fatalf("turn-based %v: told %q, want %q", turnBased, got, want)
		}
	}
}
