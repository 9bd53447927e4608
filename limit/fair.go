package limit

import (
	"context"
	"fmt"
	"sync"
	"time"
)

// FullError is the error of a request refused by a Fair because its
// network's requests already fill their share of the queue; Retry is a
// sensible Retry-After.
type FullError struct{ Retry time.Duration }

func (e *FullError) Error() string {
	return "limit: too many requests from your network are waiting: try again in a moment"
}

// fullRetry is the Retry of a FullError: about what a few slots' turns
// take.
const fullRetry = time.Second

// Fair hands out a fixed number of slots (CPU-bound work that may run at
// once: password hashes, history replays) to the networks waiting for one
// in turn (round robin), not to the requests in the order they came, so
// that one network's flood delays another network's request by at most
// one slot's turn per network waiting. Each network may have PerNet
// requests waiting at once; the one after them is refused at once with a
// *FullError rather than queued. Networks are keys such as Network's.
//
// Requests made with AcquireFirst wait in a first lane, served before
// any of the others at each Release (round robin among its networks too,
// with the same bound per network): the requests worth serving first
// when many networks flood the ordinary lane, as a returning owner's
// sign-in is (issue 24, finding 1: with N networks flooding, a newcomer
// waits about N/slots turns). Its methods are safe for concurrent use.
type Fair struct {
	perNet int

	mu    sync.Mutex
	free  int
	first lane // served before ordinary
	lane       // the ordinary lane
}

// lane is one queue of a Fair: waiting holds each network's waiters in
// order; turn the networks with waiters, the next to be served first.
type lane struct {
	waiting map[string][]*waiter
	turn    []string
}

// waiter is one request waiting for a slot; ready is closed when given
// one (granted set under fair.mu).
type waiter struct {
	ready   chan struct{}
	granted bool
}

// NewFair returns a Fair with slots slots and at most perNet requests
// waiting per network. It panics unless both are at least 1.
func NewFair(slots, perNet int) *Fair {
	if slots < 1 || perNet < 1 {
		panic("limit: NewFair needs at least one slot and one waiter per network")
	}
	return &Fair{
		perNet: perNet, free: slots,
		first: lane{waiting: map[string][]*waiter{}},
		lane:  lane{waiting: map[string][]*waiter{}},
	}
}

// Acquire waits for a slot for network until ctx ends; the caller must
// call Release after. It fails with a *FullError at once if network
// already has PerNet requests waiting, and with ctx's cause if ctx ends
// first (a slot granted meanwhile is handed on).
func (f *Fair) Acquire(ctx context.Context, network string) error {
	return f.acquire(ctx, network, &f.lane)
}

// AcquireFirst is Acquire in the first lane: the slot goes to it before
// any request waiting in Acquire, in turn with the other networks
// waiting in AcquireFirst. Network may have PerNet requests waiting here
// beside those it has waiting in Acquire.
func (f *Fair) AcquireFirst(ctx context.Context, network string) error {
	return f.acquire(ctx, network, &f.first)
}

func (f *Fair) acquire(ctx context.Context, network string, l *lane) error {
	f.mu.Lock()
	if f.free > 0 && len(f.first.turn) == 0 && len(f.lane.turn) == 0 {
		f.free--
		f.mu.Unlock()
		return nil
	}
	q := l.waiting[network]
	if len(q) >= f.perNet {
		f.mu.Unlock()
		return &FullError{Retry: fullRetry}
	}
	w := &waiter{ready: make(chan struct{})}
	if len(q) == 0 {
		l.turn = append(l.turn, network)
	}
	l.waiting[network] = append(q, w)
	f.mu.Unlock()
	select {
	case <-w.ready:
		return nil
	case <-ctx.Done():
	}
	f.mu.Lock()
	if w.granted {
		// Given a slot as ctx ended: handed on to the next.
		f.mu.Unlock()
		f.Release()
	} else {
		l.drop(network, w)
		f.mu.Unlock()
	}
	return fmt.Errorf("limit: gave up waiting for a slot: %w", context.Cause(ctx))
}

// Release gives a slot back: to the first waiter of the network whose turn
// it is in the first lane, or if none waits there in the ordinary one; that
// network then goes to the back of its lane's turn if it has more waiting.
func (f *Fair) Release() {
	f.mu.Lock()
	defer f.mu.Unlock()
	l := &f.first
	if len(l.turn) == 0 {
		l = &f.lane
	}
	if len(l.turn) == 0 {
		f.free++
		return
	}
	network := l.turn[0]
	l.turn = l.turn[1:]
	q := l.waiting[network]
	w := q[0]
	if len(q) == 1 {
		delete(l.waiting, network)
	} else {
		l.waiting[network] = q[1:]
		l.turn = append(l.turn, network)
	}
	w.granted = true
	close(w.ready)
}

// drop removes w, which gave up, from network's waiters. The Fair's mu is
// held.
func (l *lane) drop(network string, w *waiter) {
	q := l.waiting[network]
	for i, o := range q {
		if o == w {
			q = append(q[:i:i], q[i+1:]...)
			break
		}
	}
	if len(q) > 0 {
		l.waiting[network] = q
		return
	}
	delete(l.waiting, network)
	for i, n := range l.turn {
		if n == network {
			l.turn = append(l.turn[:i:i], l.turn[i+1:]...)
			break
		}
	}
}

// Queued returns how many requests of network wait for a slot, in both
// lanes.
func (f *Fair) Queued(network string) int {
	f.mu.Lock()
	defer f.mu.Unlock()
	return len(f.waiting[network]) + len(f.first.waiting[network])
}
