package storetest

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"tapis/store"
)

// long is a ttl no test outlives.
const long = time.Minute

// LeaseStore is a store that shares tables between servers.
type LeaseStore interface {
	store.Store
	store.Leases
}

// LeaseBackend is a LeaseStore under test.
type LeaseBackend struct {
	// Open opens a store on fresh data for t, removed when t ends.
	Open func(t *testing.T) LeaseStore
	// Expire makes l, which is live, expire, and returns once it has:
	// Memory moves its clock on. Nil, the default, renews l for a moment
	// and waits until the store says it is gone (PostgreSQL, timed by
	// the database's clock).
	Expire func(t *testing.T, s LeaseStore, l store.Lease)
	// Rounds is how many rounds the race test runs.
	Rounds int
}

// expire makes l expire, as k says.
func (k LeaseBackend) expire(t *testing.T, s LeaseStore, l store.Lease) {
	t.Helper()
	if k.Expire != nil {
		k.Expire(t, s, l)
		return
	}
	if _, err := s.Renew(context.Background(), l, 200*time.Millisecond); err != nil {
		t.Fatalf("expiring %+v: %v", l, err)
	}
	WaitFree(t, s, l.Table)
}

// RunLeases runs every test of store.Leases on b, each as a subtest of t
// with data of its own: a store that shares tables between servers
// passes it as well as Run.
func RunLeases(t *testing.T, b LeaseBackend) {
	for _, c := range []struct {
		name string
		test func(*testing.T, LeaseBackend)
	}{
		{"Lifecycle", testLeaseLifecycle},
		{"NodeLoad", testLeaseNodeLoad},
		{"Race", testLeaseRace},
		{"Fencing", testLeaseFencing},
		{"PausedPastExpiry", testLeasePausedPastExpiry},
		{"FencedChecks", testLeaseFencedChecks},
		{"TakeoverUnderWrites", testLeaseTakeoverUnderWrites},
		{"Take", testLeaseTake},
		{"RenewAll", testLeaseRenewAll},
	} {
		t.Run(c.name, func(t *testing.T) { c.test(t, b) })
	}
}

// WaitFree returns once table has no live lease, polling the store.
func WaitFree(t *testing.T, s store.Leases, table string) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for {
		_, err := s.Holder(context.Background(), table)
		if errors.Is(err, store.ErrNotFound) {
			return
		}
		if err != nil {
			t.Fatal(err)
		}
		if time.Now().After(deadline) {
			t.Fatalf("table %s's lease is still held after 10s", table)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// wantErr fails unless err is target.
func wantErr(t *testing.T, what string, err, target error) {
	t.Helper()
	if !errors.Is(err, target) {
		t.Fatalf("%s: got error %v, want %v", what, err, target)
	}
}

// sameLease fails unless l is held by node at epoch.
func sameLease(t *testing.T, what string, l store.Lease, table, node string, epoch int64) {
	t.Helper()
	if l.Table != table || l.Node != node || l.Epoch != epoch || l.Until.IsZero() {
		t.Fatalf("%s: lease %+v, want table %s node %s epoch %d", what, l, table, node, epoch)
	}
}

// A lease is taken, extended and handed over as Leases says, and its
// epoch grows whenever it changes hands or is taken again after a gap.
func testLeaseLifecycle(t *testing.T, k LeaseBackend) {
	ctx := context.Background()
	s := k.Open(t)
	defer s.Close()
	LeaseTable(t, s, "t1")
	LeaseTable(t, s, "t2")
	a, err := s.Acquire(ctx, "t1", "A", long)
	must(t, err)
	sameLease(t, "first acquire", a, "t1", "A", 1)
	again, err := s.Acquire(ctx, "t1", "A", long)
	must(t, err)
	sameLease(t, "the holder acquiring again", again, "t1", "A", 1)
	if again.Until.Before(a.Until) {
		t.Fatalf("acquiring again moved the lease's end back from %v to %v", a.Until, again.Until)
	}
	_, err = s.Acquire(ctx, "t1", "B", long)
	wantErr(t, "another node acquiring", err, store.ErrLeaseHeld)
	var held *store.LeaseHeldError
	if !errors.As(err, &held) {
		t.Fatalf("%v is no *store.LeaseHeldError", err)
	}
	sameLease(t, "the holder in the error", held.Holder, "t1", "A", 1)
	h, err := s.Holder(ctx, "t1")
	must(t, err)
	sameLease(t, "holder", h, "t1", "A", 1)
	r, err := s.Renew(ctx, again, long)
	must(t, err)
	sameLease(t, "renewed", r, "t1", "A", 1)

	must(t, s.Release(ctx, r))
	_, err = s.Holder(ctx, "t1")
	wantErr(t, "holder after release", err, store.ErrNotFound)
	_, err = s.Renew(ctx, r, long)
	wantErr(t, "renewing a released lease", err, store.ErrLeaseLost)

	b, err := s.Acquire(ctx, "t1", "B", long)
	must(t, err)
	sameLease(t, "another node after release", b, "t1", "B", 2)
	_, err = s.Renew(ctx, r, long)
	wantErr(t, "renewing a lease taken over", err, store.ErrLeaseLost)
	wantErr(t, "releasing a lease taken over", s.Release(ctx, r), store.ErrLeaseLost)
	h, err = s.Holder(ctx, "t1")
	must(t, err)
	sameLease(t, "holder after the stale release", h, "t1", "B", 2)

	k.expire(t, s, b)
	_, err = s.Renew(ctx, b, long)
	wantErr(t, "renewing an expired lease nobody took", err, store.ErrLeaseLost)
	_, err = s.Holder(ctx, "t1")
	wantErr(t, "holder of an expired lease", err, store.ErrNotFound)
	must(t, s.Release(ctx, b)) // merely expired: no error
	b3, err := s.Acquire(ctx, "t1", "B", long)
	must(t, err)
	sameLease(t, "the same node after a gap", b3, "t1", "B", 3)

	k.expire(t, s, b3)
	a4, err := s.Acquire(ctx, "t1", "A", long)
	must(t, err)
	sameLease(t, "another node after expiry", a4, "t1", "A", 4)

	other, err := s.Acquire(ctx, "t2", "B", long)
	must(t, err)
	sameLease(t, "another table's own epochs", other, "t2", "B", 1)
	if _, err := s.Acquire(ctx, "t3", "A", 0); err == nil {
		t.Fatal("a lease with no ttl was taken")
	}
	must(t, s.Close())
	_, err = s.Acquire(ctx, "t1", "A", long)
	wantErr(t, "acquiring in a closed store", err, store.ErrClosed)
}

// NodeLoad counts each node's live leases only.
func testLeaseNodeLoad(t *testing.T, k LeaseBackend) {
	ctx := context.Background()
	s := k.Open(t)
	defer s.Close()
	n, err := s.NodeLoad(ctx)
	must(t, err)
	if len(n) != 0 {
		t.Fatalf("load with no leases: %v", n)
	}
	for _, tn := range [][2]string{{"t1", "A"}, {"t2", "A"}, {"t3", "B"}, {"t4", "C"}, {"t5", "C"}} {
		LeaseTable(t, s, tn[0])
		_, err := s.Acquire(ctx, tn[0], tn[1], long)
		must(t, err)
	}
	c4, err := s.Holder(ctx, "t4")
	must(t, err)
	k.expire(t, s, c4)
	c5, err := s.Holder(ctx, "t5")
	must(t, err)
	must(t, s.Release(ctx, c5))
	n, err = s.NodeLoad(ctx)
	must(t, err)
	if want := map[string]int{"A": 2, "B": 1}; !reflect.DeepEqual(n, want) {
		t.Fatalf("load %v, want %v", n, want)
	}
}

// Nodes racing for a free lease from goroutines of their own: each round,
// exactly one wins, the others are told who, and the epoch grows by one.
func testLeaseRace(t *testing.T, k LeaseBackend) {
	ctx := context.Background()
	const nodes = 8
	s := k.Open(t)
	defer s.Close()
	LeaseTable(t, s, "race")
	for round := range k.Rounds {
		var (
			wg    sync.WaitGroup
			start = make(chan struct{})
			got   [nodes]store.Lease
			errs  [nodes]error
		)
		for i := range nodes {
			wg.Add(1)
			go func() {
				defer wg.Done()
				<-start
				got[i], errs[i] = s.Acquire(ctx, "race", fmt.Sprint("node", i), long)
			}()
		}
		close(start)
		wg.Wait()
		winner := -1
		for i, err := range errs {
			if err == nil {
				if winner >= 0 {
					t.Fatalf("round %d: both node%d and node%d won", round, winner, i)
				}
				winner = i
			}
		}
		if winner < 0 {
			t.Fatalf("round %d: nobody won: %v", round, errs)
		}
		w := got[winner]
		sameLease(t, "winner", w, "race", fmt.Sprint("node", winner), int64(round+1))
		for i, err := range errs {
			var held *store.LeaseHeldError
			if i != winner && (!errors.As(err, &held) || held.Holder.Node != w.Node || held.Holder.Epoch != w.Epoch) {
				t.Fatalf("round %d: node%d lost to %s with %v", round, i, w.Node, err)
			}
		}
		must(t, s.Release(ctx, w))
	}
}

// SignedMove is a move that says who wrote it, under which epoch.
func SignedMove(l store.Lease, seat int) store.Move {
	return store.Move{Seat: seat, Move: json.RawMessage(fmt.Sprintf(`{"node":%q,"epoch":%d}`, l.Node, l.Epoch))}
}

// Signer reads back who wrote m, a SignedMove.
func Signer(t *testing.T, m store.Move) (string, int64) {
	t.Helper()
	var w struct {
		Node  string
		Epoch int64
	}
	if err := json.Unmarshal(m.Move, &w); err != nil {
		t.Fatalf("move %s: %v", m.Move, err)
	}
	return w.Node, w.Epoch
}

// LeaseTable creates table id, of two free seats.
func LeaseTable(t *testing.T, s store.Store, id string) {
	t.Helper()
	must(t, s.CreateTable(context.Background(), store.Table{ID: id, Game: "cabo", Players: 2, Seats: []store.Seat{{}, {}}, Host: -1,
		Created: time.UnixMilli(1000)}, nil))
}

// A node whose lease expired and was taken over can write nothing more to
// the table: not a move, nor a match's start or end, a seat, a close or a
// touch; the table holds its moves from before, then the new owner's.
func testLeaseFencing(t *testing.T, k LeaseBackend) {
	ctx := context.Background()
	s := k.Open(t)
	defer s.Close()
	LeaseTable(t, s, "f")
	a, err := s.Acquire(ctx, "f", "A", long)
	must(t, err)
	wa := s.Fenced(a)
	must(t, wa.SetSeat(ctx, 0, store.Seat{Name: "Ann", TokenHash: "h1"}, nil))
	must(t, wa.SetSeat(ctx, 1, store.Seat{Bot: "random"}, &store.Start{No: 1, Seed: 7}))
	must(t, wa.AppendMove(ctx, 1, 0, SignedMove(a, 0)))
	must(t, wa.AppendMove(ctx, 1, 1, SignedMove(a, 1)))
	must(t, wa.Touch(ctx, time.UnixMilli(2000)))

	k.expire(t, s, a)
	b, err := s.Acquire(ctx, "f", "B", long)
	must(t, err)
	sameLease(t, "the new owner", b, "f", "B", 2)
	sv, err := s.Load(ctx, "f")
	must(t, err)
	if len(sv.Match.Moves) != 2 {
		t.Fatalf("the new owner loaded %d moves, want 2", len(sv.Match.Moves))
	}

	for what, err := range map[string]error{
		"move":           wa.AppendMove(ctx, 1, 2, SignedMove(a, 0)),
		"end":            wa.EndMatch(ctx, 1),
		"start":          wa.StartMatch(ctx, 2, 9),
		"seat":           wa.SetSeat(ctx, 0, store.Seat{Name: "Mallory", TokenHash: "h3"}, nil),
		"seat and start": wa.SetSeat(ctx, 0, store.Seat{Name: "Mallory", TokenHash: "h3"}, &store.Start{No: 2, Seed: 9}),
		"close":          wa.CloseTable(ctx, store.Abandoned, "stale"),
		"touch":          wa.Touch(ctx, time.UnixMilli(9000)),
	} {
		wantErr(t, "the old owner's "+what, err, store.ErrLeaseLost)
	}
	wb := s.Fenced(b)
	must(t, wb.AppendMove(ctx, 1, 2, SignedMove(b, 1)))

	sv, err = s.Load(ctx, "f")
	must(t, err)
	if sv.Match.No != 1 || sv.Match.Over || sv.Seats[0].Name != "Ann" || sv.Closed != store.NotClosed || !sv.Active.Equal(time.UnixMilli(2000)) {
		t.Fatalf("the old owner's writes changed the table: %+v", sv)
	}
	var by []string
	for _, m := range sv.Match.Moves {
		node, epoch := Signer(t, m)
		by = append(by, fmt.Sprint(node, epoch))
	}
	if want := []string{"A1", "A1", "B2"}; !reflect.DeepEqual(by, want) {
		t.Fatalf("moves by %v, want %v", by, want)
	}

	// The new owner's writes go on as before.
	must(t, wb.EndMatch(ctx, 1))
	must(t, wb.StartMatch(ctx, 2, 9))
	must(t, wb.CloseTable(ctx, store.Expired, "done"))
	sv, err = s.Load(ctx, "f")
	must(t, err)
	if sv.Match.No != 2 || sv.Closed != store.Expired {
		t.Fatalf("the new owner's writes: match %d, closed %q", sv.Match.No, sv.Closed)
	}
}

// A node paused past its lease's end, with nobody taking the table over,
// still cannot write when it resumes: an expired lease is lost. Only
// acquiring again, under a new epoch, lets it write; the old writer stays
// fenced off.
func testLeasePausedPastExpiry(t *testing.T, k LeaseBackend) {
	ctx := context.Background()
	s := k.Open(t)
	defer s.Close()
	LeaseTable(t, s, "p")
	must(t, s.StartMatch(ctx, "p", 1, 1))
	a, err := s.Acquire(ctx, "p", "A", long)
	must(t, err)
	old := s.Fenced(a)
	must(t, old.AppendMove(ctx, 1, 0, SignedMove(a, 0)))
	k.expire(t, s, a)
	wantErr(t, "a move after expiry", old.AppendMove(ctx, 1, 1, SignedMove(a, 0)), store.ErrLeaseLost)
	wantErr(t, "a match end after expiry", old.EndMatch(ctx, 1), store.ErrLeaseLost)
	_, err = s.Renew(ctx, a, long)
	wantErr(t, "renewing after expiry", err, store.ErrLeaseLost)

	a2, err := s.Acquire(ctx, "p", "A", long)
	must(t, err)
	sameLease(t, "acquired again", a2, "p", "A", 2)
	must(t, s.Fenced(a2).AppendMove(ctx, 1, 1, SignedMove(a2, 0)))
	wantErr(t, "the old writer after acquiring again", old.AppendMove(ctx, 1, 2, SignedMove(a, 0)), store.ErrLeaseLost)
	sv, err := s.Load(ctx, "p")
	must(t, err)
	if len(sv.Match.Moves) != 2 || sv.Match.Over {
		t.Fatalf("match after the pause: %+v", sv.Match)
	}
}

// A fenced write under a live lease checks what the store's own write
// checks (order, gaps, seats, matches started twice, unknown tables):
// the same steps through Unfenced and through Fenced succeed or fail
// alike, and no failure is taken for a lost lease.
func testLeaseFencedChecks(t *testing.T, k LeaseBackend) {
	ctx := context.Background()
	s := k.Open(t)
	defer s.Close()
	LeaseTable(t, s, "u")
	LeaseTable(t, s, "g")
	l, err := s.Acquire(ctx, "g", "A", long)
	must(t, err)
	// A table the store does not have has no lease, and asking
	// for one leaves nothing behind.
	if _, err := s.Acquire(ctx, "ghost", "A", long); !errors.Is(err, store.ErrNotFound) {
		t.Fatalf("the lease of a table that does not exist: %v", err)
	}
	if _, err := s.Holder(ctx, "ghost"); !errors.Is(err, store.ErrNotFound) {
		t.Fatalf("a table that does not exist has a holder: %v", err)
	}
	m := store.Move{Seat: 0, Move: json.RawMessage(`{}`)}
	steps := []struct {
		what string
		do   func(store.TableWriter) error
	}{
		{"move before any match", func(w store.TableWriter) error { return w.AppendMove(ctx, 1, 0, m) }},
		{"seat out of range", func(w store.TableWriter) error { return w.SetSeat(ctx, 2, store.Seat{Name: "X"}, nil) }},
		{"seat out of range with a start", func(w store.TableWriter) error {
			return w.SetSeat(ctx, 5, store.Seat{Name: "X"}, &store.Start{No: 1, Seed: 1})
		}},
		{"seat with a start", func(w store.TableWriter) error {
			return w.SetSeat(ctx, 0, store.Seat{Name: "Ann"}, &store.Start{No: 1, Seed: 1})
		}},
		{"seat with the same start again", func(w store.TableWriter) error {
			return w.SetSeat(ctx, 1, store.Seat{Name: "Bob"}, &store.Start{No: 1, Seed: 1})
		}},
		{"match started twice", func(w store.TableWriter) error { return w.StartMatch(ctx, 1, 2) }},
		{"move 1 first", func(w store.TableWriter) error { return w.AppendMove(ctx, 1, 1, m) }},
		{"move 0", func(w store.TableWriter) error { return w.AppendMove(ctx, 1, 0, m) }},
		{"move 0 again", func(w store.TableWriter) error { return w.AppendMove(ctx, 1, 0, m) }},
		{"move of another match", func(w store.TableWriter) error { return w.AppendMove(ctx, 2, 1, m) }},
		{"move 1", func(w store.TableWriter) error { return w.AppendMove(ctx, 1, 1, m) }},
		{"end of a match never started", func(w store.TableWriter) error { return w.EndMatch(ctx, 7) }},
		{"end", func(w store.TableWriter) error { return w.EndMatch(ctx, 1) }},
		{"touch", func(w store.TableWriter) error { return w.Touch(ctx, time.UnixMilli(5000)) }},
		{"close as nothing", func(w store.TableWriter) error { return w.CloseTable(ctx, store.NotClosed, "") }},
		{"close", func(w store.TableWriter) error { return w.CloseTable(ctx, store.Broken, "why") }},
	}
	u, f := store.Unfenced(s, "u"), s.Fenced(l)
	for _, st := range steps {
		ue, fe := st.do(u), st.do(f)
		if (ue == nil) != (fe == nil) || errors.Is(fe, store.ErrLeaseLost) {
			t.Fatalf("%s: unfenced %v, fenced %v", st.what, ue, fe)
		}
	}
	us, err := s.Load(ctx, "u")
	must(t, err)
	gs, err := s.Load(ctx, "g")
	must(t, err)
	us.ID = "g"
	if !reflect.DeepEqual(us, gs) {
		t.Fatalf("the tables differ:\nunfenced %+v\nfenced   %+v", us, gs)
	}
}

// A node writing moves as fast as it can while its lease runs out and
// another node takes over: the table holds the first node's moves, then
// only the second's, and the first learns it lost the lease.
func testLeaseTakeoverUnderWrites(t *testing.T, k LeaseBackend) {
	ctx := context.Background()
	s := k.Open(t)
	defer s.Close()
	LeaseTable(t, s, "w")
	must(t, s.StartMatch(ctx, "w", 1, 1))
	a, err := s.Acquire(ctx, "w", "A", long)
	must(t, err)
	var written atomic.Int64
	done := make(chan error, 1)
	go func() {
		w := s.Fenced(a)
		for i := 0; ; i++ {
			if err := w.AppendMove(ctx, 1, i, SignedMove(a, 0)); err != nil {
				done <- err
				return
			}
			written.Add(1)
		}
	}()
	for written.Load() < 5 {
		select {
		case err := <-done:
			t.Fatalf("A stopped writing: %v", err)
		default:
			time.Sleep(time.Millisecond)
		}
	}
	k.expire(t, s, a)
	b, err := s.Acquire(ctx, "w", "B", long)
	must(t, err)
	sv, err := s.Load(ctx, "w")
	must(t, err)
	from := len(sv.Match.Moves)
	wb := s.Fenced(b)
	for i := from; i < from+10; i++ {
		must(t, wb.AppendMove(ctx, 1, i, SignedMove(b, 1)))
	}
	wantErr(t, "A's last write", <-done, store.ErrLeaseLost)
	sv, err = s.Load(ctx, "w")
	must(t, err)
	if len(sv.Match.Moves) != from+10 || int64(from) != written.Load() {
		t.Fatalf("%d moves, want A's %d (B loaded %d) and B's 10", len(sv.Match.Moves), written.Load(), from)
	}
	for i, m := range sv.Match.Moves {
		node, _ := Signer(t, m)
		if want := map[bool]string{true: "A", false: "B"}[i < from]; node != want {
			t.Fatalf("move %d by %s, want %s", i, node, want)
		}
	}
}

// A node that knows the holder is gone takes the lease before it expires:
// the epoch grows and the gone holder's writes are fenced off at once. A
// take from a holder that is no longer the holder is refused, naming the
// one who is.
func testLeaseTake(t *testing.T, k LeaseBackend) {
	ctx := context.Background()
	s := k.Open(t)
	defer s.Close()
	LeaseTable(t, s, "k")
	a, err := s.Acquire(ctx, "k", "A", long)
	must(t, err)
	wa := s.Fenced(a)
	must(t, wa.SetSeat(ctx, 0, store.Seat{Bot: "random"}, &store.Start{No: 1, Seed: 7}))
	must(t, wa.AppendMove(ctx, 1, 0, SignedMove(a, 0)))
	b, err := s.Take(ctx, "k", "B", a, long)
	must(t, err)
	sameLease(t, "the taker", b, "k", "B", a.Epoch+1)
	wantErr(t, "the gone holder's move", wa.AppendMove(ctx, 1, 1, SignedMove(a, 1)), store.ErrLeaseLost)
	must(t, s.Fenced(b).AppendMove(ctx, 1, 1, SignedMove(b, 1)))
	// C read A as the holder too, but B was first.
	_, err = s.Take(ctx, "k", "C", a, long)
	var held *store.LeaseHeldError
	if !errors.As(err, &held) || held.Holder.Node != "B" || held.Holder.Epoch != b.Epoch {
		t.Fatalf("a take from a stale holder: %v, want B's lease held", err)
	}
	// A free table is simply acquired.
	must(t, s.Release(ctx, b))
	c, err := s.Take(ctx, "k", "C", a, long)
	must(t, err)
	sameLease(t, "a take of a free lease", c, "k", "C", b.Epoch+1)
}

// RenewAll renews every live lease of one node in one call and no other
// node's; a lease that expired or was taken is not among them, and stays
// lost.
func testLeaseRenewAll(t *testing.T, k LeaseBackend) {
	ctx := context.Background()
	s := k.Open(t)
	defer s.Close()
	for _, id := range []string{"r1", "r2", "r3", "r4"} {
		LeaseTable(t, s, id)
	}
	a1, err := s.Acquire(ctx, "r1", "A", long)
	must(t, err)
	a2, err := s.Acquire(ctx, "r2", "A", long)
	must(t, err)
	a3, err := s.Acquire(ctx, "r3", "A", long)
	must(t, err)
	b4, err := s.Acquire(ctx, "r4", "B", long)
	must(t, err)
	k.expire(t, s, a2)
	_, err = s.Take(ctx, "r3", "B", a3, long)
	must(t, err)
	ls, err := s.RenewAll(ctx, "A", long)
	must(t, err)
	if len(ls) != 1 || ls[0].Table != "r1" || ls[0].Epoch != a1.Epoch || ls[0].Node != "A" || ls[0].Until.IsZero() {
		t.Fatalf("A renewed %+v, want r1 alone at epoch %d", ls, a1.Epoch)
	}
	if h, err := s.Holder(ctx, "r4"); err != nil || h.Node != "B" || h.Epoch != b4.Epoch {
		t.Fatalf("B's lease after A's renewal: %+v %v", h, err)
	}
	_, err = s.Renew(ctx, a2, long)
	wantErr(t, "the expired lease", err, store.ErrLeaseLost)
}
