package notify_test

import (
	"context"
	"encoding/json"
	"testing"
	"time"

	"tapis/clocktest"
	"tapis/notify"
	"tapis/store"
)

// A deadline within the hour is told once per move, on the channels the
// player chose for it; one further off, or past, is not.
func TestDeadlineSoon(t *testing.T) {
	ctx := context.Background()
	st := store.NewMemory()
	clk := clocktest.New(time.Date(2026, 3, 2, 10, 0, 0, 0, time.UTC))
	out := newSink()
	svc := notify.New(notify.Config{Store: st, Senders: map[string]notify.Sender{store.ChannelPush: out}, Now: clk.Now})
	must(t, st.SetNotifyPref(ctx, "ann", store.Pref{Kind: store.KindDeadlineSoon, Channel: store.ChannelPush, On: true}))
	d := notify.Deadline{Table: "t1", Game: "cabo", Seat: 1, Match: 1, N: 7, At: clk.Now().Add(90 * time.Minute)}
	for _, c := range []struct {
		wait time.Duration
		n    int
		told bool
	}{
		{0, 7, false},                // an hour and a half away
		{31 * time.Minute, 7, true},  // 59 minutes
		{10 * time.Minute, 7, false}, // told already
		{0, 9, true},                 // the next move's
		{time.Hour, 11, false},       // past
	} {
		clk.Advance(c.wait)
		d.N = c.n
		told, err := svc.DeadlineSoon(ctx, "ann", d)
		if err != nil || told != c.told {
			t.Fatalf("at %v, n %d: told %v (%v), want %v", clk.Now().Format("15:04"), c.n, told, err, c.told)
		}
	}
	ns, err := st.Inbox(ctx, "ann", 10)
	must(t, err)
	if len(ns) != 2 || ns[0].Kind != store.KindDeadlineSoon {
		t.Fatalf("inbox %+v", ns)
	}
	var p map[string]any
	must(t, json.Unmarshal(ns[0].Payload, &p))
	if p["table"] != "t1" || p["game"] != "cabo" || p["n"] != float64(9) || p["deadline"] != "2026-03-02T11:30:00Z" {
		t.Fatalf("payload %s", ns[0].Payload)
	}
	if n := svc.Step(ctx); n != 2 {
		t.Fatalf("Step claimed %d pushes, want 2", n)
	}
}
