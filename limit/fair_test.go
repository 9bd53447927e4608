package limit

import (
	"context"
	"errors"
	"slices"
	"sync"
	"testing"
	"testing/synctest"
)

// The slots go to the networks waiting in turn, each network's requests
// in order; a network's queue is bounded; a request given up leaves the
// queue, and a slot granted to it as it gave up goes to the next.
func TestFairTurns(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		f := NewFair(1, 2)
		ctx := t.Context()
		if err := f.Acquire(ctx, "a"); err != nil { // the slot, held
			t.Fatal(err)
		}
		var mu sync.Mutex
		var got []string
		wait := func(ctx context.Context, who, network string) chan error {
			done := make(chan error, 1)
			go func() {
				err := f.Acquire(ctx, network)
				if err == nil {
					mu.Lock()
					got = append(got, who)
					mu.Unlock()
				}
				done <- err
			}()
			synctest.Wait() // queued before the next one comes
			return done
		}
		a1, a2 := wait(ctx, "a1", "a"), wait(ctx, "a2", "a")
		var full *FullError
		if err := <-wait(ctx, "a3", "a"); !errors.As(err, &full) {
			t.Fatalf("a third request of a full network: %v, want FullError", err)
		}
		gone, giveUp := context.WithCancel(ctx)
		c1 := wait(gone, "c1", "c")
		b1 := wait(ctx, "b1", "b")
		giveUp()
		if err := <-c1; err == nil {
			t.Fatal("a request given up got a slot")
		}
		for _, done := range []chan error{a1, b1, a2} {
			f.Release()
			if err := <-done; err != nil {
				t.Fatal(err)
			}
		}
		if want := []string{"a1", "b1", "a2"}; !slices.Equal(got, want) {
			t.Fatalf("slots went to %v, want %v: each network in turn, c gone", got, want)
		}
		if f.Queued("a")+f.Queued("b")+f.Queued("c") != 0 || len(f.turn) != 0 {
			t.Fatalf("left waiting: %v %v", f.waiting, f.turn)
		}
		f.Release()
		if f.free != 1 {
			t.Fatalf("%d slots free after all were given back, want 1", f.free)
		}
	})
}

// Issue 24, finding 1: eight networks flooding the ordinary lane pushed
// another network's sign-ins to p50 1.0 s. Requests in the first lane
// (AcquireFirst) are served before every ordinary one at each Release,
// round robin among their networks, each network's queue bounded there
// too; once none waits there, the ordinary lane goes on in its turn.
func TestFairFirstLane(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		f := NewFair(1, 1)
		ctx := t.Context()
		if err := f.Acquire(ctx, "x"); err != nil { // the slot, held
			t.Fatal(err)
		}
		var mu sync.Mutex
		var got []string
		wait := func(acquire func(context.Context, string) error, who, network string) chan error {
			done := make(chan error, 1)
			go func() {
				err := acquire(ctx, network)
				if err == nil {
					mu.Lock()
					got = append(got, who)
					mu.Unlock()
				}
				done <- err
			}()
			synctest.Wait()
			return done
		}
		var all []chan error
		for _, n := range []string{"a", "b", "c"} { // the flood, first
			all = append(all, wait(f.Acquire, "flood-"+n, n))
		}
		all = append(all, wait(f.AcquireFirst, "owner-d", "d"))
		all = append(all, wait(f.AcquireFirst, "owner-a", "a")) // a's first-lane queue is its own
		var full *FullError
		if err := <-wait(f.AcquireFirst, "owner-d2", "d"); !errors.As(err, &full) {
			t.Fatalf("a second first-lane request of d with a queue of 1: %v, want FullError", err)
		}
		for range all {
			f.Release()
			synctest.Wait() // the one granted has noted it
		}
		for _, done := range all {
			if err := <-done; err != nil {
				t.Fatal(err)
			}
		}
		want := []string{"owner-d", "owner-a", "flood-a", "flood-b", "flood-c"}
		if !slices.Equal(got, want) {
			t.Fatalf("slots went to %v, want %v: the first lane before the flood", got, want)
		}
		f.Release()
		if f.free != 1 || len(f.turn) != 0 || len(f.first.turn) != 0 {
			t.Fatalf("free %d, turns %v %v after all were given back", f.free, f.turn, f.first.turn)
		}
		// A request given up in the first lane leaves it.
		if err := f.Acquire(ctx, "x"); err != nil {
			t.Fatal(err)
		}
		gone, giveUp := context.WithCancel(ctx)
		done := make(chan error, 1)
		go func() { done <- f.AcquireFirst(gone, "e") }()
		synctest.Wait()
		giveUp()
		if err := <-done; err == nil {
			t.Fatal("a first-lane request given up got a slot")
		}
		if f.Queued("e") != 0 || len(f.first.turn) != 0 {
			t.Fatalf("left waiting: %v %v", f.first.waiting, f.first.turn)
		}
	})
}
