package store_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"sync"
	"testing"
	"time"

	"pgregory.net/rapid"

	"tapis/clocktest"
	"tapis/store"
	"tapis/store/storetest"
)

// The memory store passes the conformance suite.
func TestStore(t *testing.T) {
	storetest.Run(t, storetest.Backend{New: func(testing.TB) storetest.Opener {
		return func(testing.TB) store.Store { return store.NewMemory() }
	}})
}

// The memory store passes the suite of leases, on a clock of its own
// that the test moves on to expire a lease.
func TestLeases(t *testing.T) {
	clocks := map[storetest.LeaseStore]*clocktest.Clock{}
	var mu sync.Mutex
	storetest.RunLeases(t, storetest.LeaseBackend{
		Rounds: 300,
		Open: func(*testing.T) storetest.LeaseStore {
			m := store.NewMemory()
			c := clocktest.New(time.Unix(1_000_000, 0))
			m.SetLeaseClock(c.Now)
			mu.Lock()
			clocks[m] = c
			mu.Unlock()
			return m
		},
		Expire: func(t *testing.T, s storetest.LeaseStore, l store.Lease) {
			t.Helper()
			mu.Lock()
			c := clocks[s]
			mu.Unlock()
			if _, err := s.Renew(context.Background(), l, time.Second); err != nil {
				t.Fatalf("expiring %+v: %v", l, err)
			}
			c.Advance(time.Second)
		},
	})
}

// Any interleaving of three nodes acquiring, renewing, releasing and
// writing moves, with the clock moving on, on Memory: a write succeeds
// exactly when its node holds the newest epoch, live; so every stored move
// was written by the newest epoch's holder at the time, and the epochs of
// the stored moves never go back.
func TestLeaseProperty(t *testing.T) {
	ctx := context.Background()
	const ttl = 5 * time.Second
	nodes := []string{"a", "b", "c"}
	rapid.Check(t, func(rt *rapid.T) {
		m := store.NewMemory()
		clock := clocktest.New(time.Unix(1_000_000, 0))
		m.SetLeaseClock(clock.Now)
		if err := m.CreateTable(ctx, store.Table{ID: "p", Game: "cabo", Players: 2, Seats: []store.Seat{{}, {}}, Host: -1}, &store.Start{No: 1, Seed: 1}); err != nil {
			rt.Fatal(err)
		}
		// What each node believes: the lease it was given last, and the
		// next move's index as it knows the table.
		type view struct {
			l    store.Lease
			next int
		}
		views := make([]*view, len(nodes))
		// The model: the last lease handed out (its Until zero once
		// released), and who wrote each move that went in, at which epoch.
		var cur store.Lease
		var wrote []string
		live := func() bool { return cur.Epoch > 0 && cur.Until.After(clock.Now()) }
		holds := func(l store.Lease) bool { return live() && l.Node == cur.Node && l.Epoch == cur.Epoch }
		steps := rapid.IntRange(1, 150).Draw(rt, "steps")
		for range steps {
			i := rapid.IntRange(0, len(nodes)-1).Draw(rt, "node")
			node, v := nodes[i], views[i]
			switch op := rapid.SampledFrom([]string{"acquire", "renew", "release", "clock", "write", "write"}).Draw(rt, "op"); op {
			case "acquire":
				l, err := m.Acquire(ctx, "p", node, ttl)
				if live() && cur.Node != node {
					var held *store.LeaseHeldError
					if !errors.As(err, &held) || held.Holder != cur {
						rt.Fatalf("%s acquiring a lease %+v holds: %v", node, cur, err)
					}
					continue
				}
				if err != nil {
					rt.Fatalf("%s acquiring a free lease (last %+v): %v", node, cur, err)
				}
				epoch := cur.Epoch + 1
				if live() {
					epoch = cur.Epoch
				}
				if l.Epoch != epoch || l.Node != node || !l.Until.Equal(clock.Now().Add(ttl)) {
					rt.Fatalf("%s acquired %+v after %+v, want epoch %d", node, l, cur, epoch)
				}
				if v == nil || v.l.Epoch != l.Epoch {
					// A new epoch: the node loads the table.
					sv, err := m.Load(ctx, "p")
					if err != nil {
						rt.Fatal(err)
					}
					v = &view{next: len(sv.Match.Moves)}
					views[i] = v
				}
				v.l, cur = l, l
			case "renew":
				if v == nil {
					continue
				}
				l, err := m.Renew(ctx, v.l, ttl)
				if holds(v.l) != (err == nil) || (err != nil && !errors.Is(err, store.ErrLeaseLost)) {
					rt.Fatalf("%s renewing %+v (current %+v): %v", node, v.l, cur, err)
				}
				if err == nil {
					v.l, cur = l, l
				}
			case "release":
				if v == nil {
					continue
				}
				err := m.Release(ctx, v.l)
				mine := v.l.Node == cur.Node && v.l.Epoch == cur.Epoch
				if mine != (err == nil) || (err != nil && !errors.Is(err, store.ErrLeaseLost)) {
					rt.Fatalf("%s releasing %+v (current %+v): %v", node, v.l, cur, err)
				}
				if err == nil {
					cur.Until = time.Time{}
				}
			case "clock":
				clock.Advance(time.Duration(rapid.Int64Range(0, int64(2*ttl/time.Millisecond)).Draw(rt, "ms")) * time.Millisecond)
			case "write":
				if v == nil {
					continue
				}
				ok := holds(v.l)
				err := m.Fenced(v.l).AppendMove(ctx, 1, v.next, storetest.SignedMove(v.l, i%2))
				if ok != (err == nil) || (err != nil && !errors.Is(err, store.ErrLeaseLost)) {
					rt.Fatalf("%s writing move %d under %+v (current %+v): %v", node, v.next, v.l, cur, err)
				}
				if err == nil {
					wrote = append(wrote, fmt.Sprint(node, v.l.Epoch))
					v.next++
				}
			}
		}
		sv, err := m.Load(ctx, "p")
		if err != nil {
			rt.Fatal(err)
		}
		var last int64
		for k, mv := range sv.Match.Moves {
			var w struct {
				Node  string
				Epoch int64
			}
			if err := json.Unmarshal(mv.Move, &w); err != nil {
				rt.Fatal(err)
			}
			if k >= len(wrote) || fmt.Sprint(w.Node, w.Epoch) != wrote[k] || w.Epoch < last {
				rt.Fatalf("move %d by %s at epoch %d; writes that succeeded: %v", k, w.Node, w.Epoch, wrote)
			}
			last = w.Epoch
		}
		if len(sv.Match.Moves) != len(wrote) {
			rt.Fatalf("%d moves stored, %d written", len(sv.Match.Moves), len(wrote))
		}
	})
}

// The benchmarks of storetest on memory: the cost of the benchmarks
// themselves (goroutines, timers), beside the SQL stores'.

func BenchmarkAppendMove(b *testing.B) {
	storetest.BenchAppendMove(b, store.NewMemory())
}

func BenchmarkAppendPaced(b *testing.B) {
	storetest.BenchAppendPaced(b, store.NewMemory())
}

func BenchmarkFencedAppendMove(b *testing.B) {
	storetest.BenchFencedAppendMove(b, store.NewMemory())
}
