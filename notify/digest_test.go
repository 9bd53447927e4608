package notify_test

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"tapis/clocktest"
	"tapis/notify"
	"tapis/store"
	"tapis/store/sqlite"
)

// digestSink is an e-mail channel's other end with digests: every digest
// sent (its key and ids), and the keys seen.
type digestSink struct {
	*sink
	mu      sync.Mutex
	digests [][]string
	dkeys   map[string]int
	fail    error
}

func newDigestSink() *digestSink { return &digestSink{sink: newSink(), dkeys: map[string]int{}} }

func (k *digestSink) SendDigest(_ context.Context, key string, ds []store.Delivery) error {
	k.mu.Lock()
	defer k.mu.Unlock()
	if k.fail != nil {
		return k.fail
	}
	var ids []string
	for _, d := range ds {
		ids = append(ids, d.Kind+":"+d.Player)
	}
	k.digests = append(k.digests, ids)
	k.dkeys[key]++
	return nil
}

// digestPrefs turns on, for player, the digest and kinds by e-mail.
func digestPrefs(t *testing.T, st store.Notifications, player string, kinds ...string) {
	t.Helper()
	ctx := context.Background()
	for _, k := range append(kinds, notify.Digest) {
		must(t, st.SetNotifyPref(ctx, player, store.Pref{Kind: k, Channel: store.ChannelEmail, On: true}))
	}
}

// The kinds a digest gathers wait for the day's digest time and go in
// one mail per player; the others go at once; a failed digest is tried
// again whole.
func TestDigest(t *testing.T) {
	ctx := context.Background()
	st := store.NewMemory()
	clk := clocktest.New(time.Date(2026, 3, 2, 10, 0, 0, 0, time.UTC))
	out := newDigestSink()
	svc := notify.New(notify.Config{Store: st, Senders: map[string]notify.Sender{store.ChannelEmail: out}, Now: clk.Now})
	digestPrefs(t, st, "ann", store.KindYourTurn, store.KindGameOver, store.KindFriendRequest)
	digestPrefs(t, st, "bob", store.KindYourTurn)
	must(t, svc.Notify(ctx, "ann", store.KindYourTurn, map[string]string{"table": "t1"}))
	must(t, svc.Notify(ctx, "ann", store.KindFriendRequest, map[string]string{"player": "cat"}))
	must(t, svc.Notify(ctx, "bob", store.KindYourTurn, map[string]string{"table": "t1"}))
	if n := svc.Step(ctx); n != 1 {
		t.Fatalf("Step claimed %d, want the friend request alone", n)
	}
	if n := svc.StepDigest(ctx); n != 2 || len(out.digests) != 0 {
		t.Fatalf("StepDigest claimed %d and sent %v before 8 UTC, want 2 put off", n, out.digests)
	}
	clk.Advance(time.Hour)
	must(t, svc.Notify(ctx, "ann", store.KindGameOver, map[string]string{"table": "t2"}))
	clk.Advance(time.Minute) // past the lease of the first pass
	if n := svc.StepDigest(ctx); n != 1 || len(out.digests) != 0 {
		t.Fatalf("StepDigest claimed %d and sent %v, want the game over put off", n, out.digests)
	}
	// The next morning: Ann's two in one, Bob's in another; the first
	// try fails and the whole digest is tried again.
	clk.Set(time.Date(2026, 3, 3, 8, 0, 0, 0, time.UTC))
	out.fail = errors.New("the mail server is down")
	if n := svc.StepDigest(ctx); n != 3 || len(out.digests) != 0 {
		t.Fatalf("StepDigest claimed %d, sent %v", n, out.digests)
	}
	out.fail = nil
	clk.Advance(time.Minute)
	if n := svc.StepDigest(ctx); n != 3 {
		t.Fatalf("StepDigest claimed %d again, want 3", n)
	}
	want := fmt.Sprint([][]string{{"your_turn:ann", "game_over:ann"}, {"your_turn:bob"}})
	if fmt.Sprint(out.digests) != want || len(out.dkeys) != 2 {
		t.Fatalf("digests %v (keys %v), want %s", out.digests, out.dkeys, want)
	}
	clk.Advance(time.Hour)
	if n := svc.StepDigest(ctx); n != 0 {
		t.Fatalf("StepDigest claimed %d once all were sent", n)
	}
}

// The digest is a choice only where e-mail is a Digester.
func TestDigestChoice(t *testing.T) {
	st := store.NewMemory()
	plain := notify.New(notify.Config{Store: st, Senders: map[string]notify.Sender{store.ChannelEmail: newSink()}})
	ctx := context.Background()
	digestPrefs(t, st, "ann", store.KindYourTurn)
	must(t, plain.Notify(ctx, "ann", store.KindYourTurn, map[string]string{"table": "t1"}))
	if n := plain.Step(ctx); n != 1 {
		t.Fatalf("without a Digester, Step claimed %d, want the mail sent at once", n)
	}
}

// A process killed (SIGKILL) while sending a digest leaves it to be sent
// after a restart, whole, under the same key: the player gets it once.
func TestKilledDigest(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "tapis.db")
	st, err := sqlite.Open(path)
	must(t, err)
	digestPrefs(t, st, "ann", store.KindYourTurn)
	// Written the day before the child's time, past its digest's hour.
	writer := notify.New(notify.Config{Store: st, Senders: map[string]notify.Sender{store.ChannelEmail: newDigestSink()},
		Now: func() time.Time { return childClock.Add(-24 * time.Hour) }})
	must(t, writer.Notify(ctx, "ann", store.KindYourTurn, map[string]string{"table": "t1"}))
	must(t, writer.Notify(ctx, "ann", store.KindYourTurn, map[string]string{"table": "t2"}))
	must(t, st.Close())

	key := killChild(t, path, "digest", "digest ")
	st, err = sqlite.Open(path)
	must(t, err)
	defer st.Close()
	clk := clocktest.New(childClock)
	other := newDigestSink()
	other.dkeys[key] = 1 // the other end got it before the kill
	svc := notify.New(notify.Config{Store: st, Senders: map[string]notify.Sender{store.ChannelEmail: other}, Now: clk.Now})
	if n := svc.StepDigest(ctx); n != 0 {
		t.Fatalf("claimed %d while the dead process's lease lasts", n)
	}
	clk.Advance(time.Minute)
	if n := svc.StepDigest(ctx); n != 2 {
		t.Fatalf("claimed %d once the lease ended, want 2", n)
	}
	clk.Advance(time.Hour)
	if n := svc.StepDigest(ctx); n != 0 {
		t.Fatalf("claimed %d after it was sent", n)
	}
	if len(other.digests) != 1 || len(other.digests[0]) != 2 || other.dkeys[key] != 2 || len(other.dkeys) != 1 {
		t.Fatalf("after the restart: digests %v, keys %v; want one of 2 under %s", other.digests, other.dkeys, key)
	}
}

// hangingDigest is the child's e-mail channel for TestKilledDigest: it
// says the digest's key, then hangs until killed.
type hangingDigest struct{ stopper }

func (hangingDigest) SendDigest(_ context.Context, key string, ds []store.Delivery) error {
	fmt.Printf("digest %s\n", key)
	select {}
}
