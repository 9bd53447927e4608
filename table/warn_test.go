package table

import (
	"context"
	"sync/atomic"
	"testing"
	"time"

	"tapis/clocktest"
	"tapis/notify"
	"tapis/store"
	"tapis/table/tableset"
)

// countedNotes is package notify's service on the test's store, counting
// what the host asks of it.
type countedNotes struct {
	*notify.Service
	asked, told atomic.Int32
}

func (n *countedNotes) DeadlineSoon(ctx context.Context, player string, d notify.Deadline) (bool, error) {
	n.asked.Add(1)
	told, err := n.Service.DeadlineSoon(ctx, player, d)
	if told {
		n.told.Add(1)
	}
	return told, err
}

// A person due at a turn-based table is told once, an hour before their
// deadline, that it is near: the table asleep then is woken for it, even
// by a server started again after the moment passed while it was down,
// tells them, and sleeps again until the deadline, which a second restart
// and the waker's further looks leave alone. The inbox has the one
// notification, for the move and its deadline.
func TestTurnBasedDeadlineSoon(t *testing.T) {
	open := reopener(t)
	clk := clocktest.New(time.Unix(2_000_000_000, 0))
	var notes *countedNotes
	start := func(st store.Store) *daysHost {
		notes = &countedNotes{Service: notify.New(notify.Config{Store: st, Now: clk.Now})}
		return newDaysHost(t, st, clk, nil, func(h *Host) { h.UseNotifier(notes) })
	}
	st := open()
	d := start(st)
	ann := d.create(map[string]any{"turn_based": true, "turn_seconds": 2 * 3600})
	id, seat := ann.Table, ann.Seat
	c := d.waitsFor(id, seat)
	if end := c.Due[seat].Add(2 * time.Hour); !c.Deadline.Equal(end) || !c.Warn.Equal(end.Add(-time.Hour)) {
		t.Fatalf("Ann's clock %+v: want her deadline two hours after she became due, her warning an hour before", c)
	}
	clk.Set(c.Warn.Add(-time.Second))
	d.s.wakeNow()
	if notes.asked.Load() != 0 || d.at(id) != tableset.Dormant {
		t.Fatalf("a second before the warning: asked %d, the table %v", notes.asked.Load(), d.at(id))
	}
	d.stop()
	st.Close()

	// The moment passes while the server is down.
	clk.Set(c.Warn.Add(time.Minute))
	st = open()
	d = start(st)
	until(t, "Ann told, the table asleep again with no warning left", func() bool {
		w := d.clock(id)
		return notes.told.Load() == 1 && w.Warn.IsZero() && d.at(id) == tableset.Dormant
	})
	if w := d.clock(id); !w.Deadline.Equal(c.Deadline) || w.N != c.N || d.movesBy(id, seat) != 0 {
		t.Fatalf("after the warning: clock %+v (was %+v), %d moves for Ann", w, c, d.movesBy(id, seat))
	}
	// The host's own waker may have loaded the table a second time
	// meanwhile, from a list of due clocks read before the warning was
	// written (it asks again, and is told no: notify tells once, as the
	// told count and the inbox below show); a look from now on asks
	// nothing.
	asked := notes.asked.Load()
	d.s.wakeNow()
	if d.at(id) != tableset.Dormant || notes.asked.Load() != asked || notes.told.Load() != 1 {
		t.Fatalf("looked for again: the table %v, asked %d times (%d before), told %d times", d.at(id), notes.asked.Load(), asked, notes.told.Load())
	}
	d.stop()
	st.Close()

	clk.Advance(time.Minute)
	st = open()
	d = start(st)
	d.s.wakeNow()
	if d.at(id) != tableset.Dormant || notes.asked.Load() != 0 {
		t.Fatalf("after a second restart: the table %v, asked %d times", d.at(id), notes.asked.Load())
	}
	inbox, err := st.Inbox(context.Background(), "ann", 10)
	if err != nil {
		t.Fatal(err)
	}
	var soon []store.Notification
	for _, n := range inbox {
		if n.Kind == store.KindDeadlineSoon {
			soon = append(soon, n)
		}
	}
	if len(soon) != 1 {
		t.Fatalf("Ann's inbox has %d deadline notifications, want 1: %+v", len(soon), inbox)
	}
}
