package notify_test

import (
	"context"
	"encoding/json"
	"errors"
	"reflect"
	"sync"
	"testing"
	"time"

	"tapis/clocktest"
	"tapis/notify"
	"tapis/store"
)

// sink is a channel's other end as a test keeps it: every send, and the
// sends by idempotency key, as a mail or push service that recognises a
// key it has seen.
type sink struct {
	mu    sync.Mutex
	sends []store.Delivery
	keys  map[string]int
	// fail, if set, answers each send instead of success.
	fail func(d store.Delivery) error
	sent chan store.Delivery
}

func newSink() *sink { return &sink{keys: map[string]int{}, sent: make(chan store.Delivery, 100)} }

func (k *sink) Send(_ context.Context, d store.Delivery) error {
	k.mu.Lock()
	defer k.mu.Unlock()
	if k.fail != nil {
		if err := k.fail(d); err != nil {
			return err
		}
	}
	k.sends = append(k.sends, d)
	k.keys[d.ID]++
	k.sent <- d
	return nil
}

// count is how many sends the sink got, and how many distinct keys.
func (k *sink) count() (sends, keys int) {
	k.mu.Lock()
	defer k.mu.Unlock()
	return len(k.sends), len(k.keys)
}

func must(t testing.TB, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

// A notification goes on the channels its player chose for its kind, and
// only those; it is sent once, retried with a growing wait after an
// error, given up after a permanent one or too many attempts.
func TestOutbox(t *testing.T) {
	ctx := context.Background()
	st := store.NewMemory()
	email := newSink()
	clk := clocktest.New(time.Unix(1_000_000, 0))
	svc := notify.New(notify.Config{Store: st, Senders: map[string]notify.Sender{store.ChannelEmail: email}, Now: clk.Now,
		Claim: time.Minute, Attempts: 3})
	must(t, st.SetNotifyPref(ctx, "ann", store.Pref{Kind: store.KindFriendRequest, Channel: store.ChannelEmail, On: true}))
	// Push is chosen but this server has no push: nothing goes there.
	must(t, st.SetNotifyPref(ctx, "ann", store.Pref{Kind: store.KindFriendRequest, Channel: store.ChannelPush, On: true}))
	must(t, svc.Notify(ctx, "ann", store.KindFriendRequest, map[string]string{"player": "bob"}))
	must(t, svc.Notify(ctx, "ann", store.KindGameOver, map[string]string{"table": "t1"}))
	must(t, svc.Notify(ctx, "cat", store.KindFriendRequest, map[string]string{"player": "bob"}))
	if err := svc.Notify(ctx, "ann", "nonsense", nil); err == nil {
		t.Fatal("a kind that does not exist was taken")
	}
	if n := svc.Step(ctx); n != 1 {
		t.Fatalf("claimed %d, want the one chosen", n)
	}
	if n := svc.Step(ctx); n != 0 {
		t.Fatalf("claimed %d more", n)
	}
	if sends, _ := email.count(); sends != 1 || email.sends[0].Player != "ann" || string(email.sends[0].Payload) != `{"player":"bob"}` {
		t.Fatalf("sends %+v", email.sends)
	}
	in, err := st.Inbox(ctx, "ann", 10)
	must(t, err)
	if len(in) != 2 {
		t.Fatalf("inbox %+v: every notification goes there", in)
	}

	// An error: tried again after 30 s, then a minute, then given up
	// (3 attempts).
	email.fail = func(store.Delivery) error { return errors.New("451 try later") }
	must(t, svc.Notify(ctx, "ann", store.KindFriendRequest, nil))
	for _, wait := range []time.Duration{30 * time.Second, time.Minute} {
		if n := svc.Step(ctx); n != 1 {
			t.Fatalf("claimed %d", n)
		}
		clk.Advance(wait - time.Millisecond)
		if n := svc.Step(ctx); n != 0 {
			t.Fatalf("tried again %v early", time.Millisecond)
		}
		clk.Advance(time.Millisecond)
	}
	if n := svc.Step(ctx); n != 1 {
		t.Fatalf("the third attempt: %d", n)
	}
	clk.Advance(24 * time.Hour)
	if n := svc.Step(ctx); n != 0 {
		t.Fatalf("tried after giving up: %d", n)
	}
	// A permanent error gives up at once.
	email.fail = func(store.Delivery) error { return notify.Permanent(errors.New("550 no such address")) }
	must(t, svc.Notify(ctx, "ann", store.KindFriendRequest, nil))
	svc.Step(ctx)
	clk.Advance(24 * time.Hour)
	if n := svc.Step(ctx); n != 0 {
		t.Fatalf("tried after a permanent error: %d", n)
	}
	if sends, _ := email.count(); sends != 1 {
		t.Fatalf("%d sends", sends)
	}
}

// Run sends what Notify writes without waiting for its tick.
func TestRunWakes(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	st := store.NewMemory()
	push := newSink()
	svc := notify.New(notify.Config{Store: st, Senders: map[string]notify.Sender{store.ChannelPush: push}, Every: time.Hour})
	must(t, st.SetNotifyPref(ctx, "ann", store.Pref{Kind: store.KindYourTurn, Channel: store.ChannelPush, On: true}))
	done := make(chan struct{})
	go func() {
		defer close(done)
		svc.Run(ctx)
	}()
	must(t, svc.Notify(ctx, "ann", store.KindYourTurn, map[string]string{"table": "t1"}))
	if d := <-push.sent; d.Kind != store.KindYourTurn {
		t.Fatalf("sent %+v", d)
	}
	cancel()
	<-done
}

// "Your turn" goes by e-mail at most once an hour per table; the inbox
// gets every one.
func TestPace(t *testing.T) {
	ctx := context.Background()
	st := store.NewMemory()
	email := newSink()
	clk := clocktest.New(time.Unix(1_000_000, 0))
	svc := notify.New(notify.Config{Store: st, Senders: map[string]notify.Sender{store.ChannelEmail: email}, Now: clk.Now})
	must(t, st.SetNotifyPref(ctx, "ann", store.Pref{Kind: store.KindYourTurn, Channel: store.ChannelEmail, On: true}))
	must(t, st.SetNotifyPref(ctx, "ann", store.Pref{Kind: store.KindGameOver, Channel: store.ChannelEmail, On: true}))
	turn := func(table string) {
		t.Helper()
		must(t, svc.Notify(ctx, "ann", store.KindYourTurn, map[string]string{"table": table}))
	}
	turn("t1")
	turn("t2")
	clk.Advance(59 * time.Minute)
	turn("t1")
	must(t, svc.Notify(ctx, "ann", store.KindGameOver, map[string]string{"table": "t1"}))
	clk.Advance(time.Minute)
	turn("t1")
	svc.Step(ctx)
	var got []string
	for _, d := range email.sends {
		var p struct{ Table string }
		json.Unmarshal(d.Payload, &p)
		got = append(got, d.Kind+":"+p.Table)
	}
	want := []string{"your_turn:t1", "your_turn:t2", "game_over:t1", "your_turn:t1"}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("mailed %v, want %v", got, want)
	}
	if in, err := st.Inbox(ctx, "ann", 10); err != nil || len(in) != 5 {
		t.Fatalf("inbox of %d (%v), want every one", len(in), err)
	}
}

// The inbox keeps a notification for Config.Keep.
func TestPrune(t *testing.T) {
	ctx := context.Background()
	st := store.NewMemory()
	clk := clocktest.New(time.Unix(1_000_000, 0))
	svc := notify.New(notify.Config{Store: st, Now: clk.Now, Keep: 24 * time.Hour})
	must(t, svc.Notify(ctx, "ann", store.KindGameOver, map[string]string{"table": "t1"}))
	clk.Advance(time.Hour)
	must(t, svc.Notify(ctx, "ann", store.KindGameOver, map[string]string{"table": "t2"}))
	clk.Advance(23*time.Hour + time.Millisecond)
	svc.Prune(ctx)
	if in, err := st.Inbox(ctx, "ann", 10); err != nil || len(in) != 1 || string(in[0].Payload) != `{"table":"t2"}` {
		t.Fatalf("inbox after a day %+v %v", in, err)
	}
}
