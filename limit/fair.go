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
// Its methods are safe for concurrent use.
type Fair struct {
	perNet int

	mu   sync.Mutex
	free int
	// waiting holds each network's waiters in order; turn the networks
	// with waiters, the next to be served first.
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
	return &Fair{perNet: perNet, free: slots, waiting: map[string][]*waiter{}}
}

// Acquire waits for a slot for network until ctx ends; the caller must
// call Release after. It fails with a *FullError at once if network
// already has PerNet requests waiting, and with ctx's cause if ctx ends
// first (a slot granted meanwhile is handed on).
func (f *Fair) Acquire(ctx context.Context, network string) error {
	f.mu.Lock()
	if f.free > 0 && len(f.turn) == 0 {
		f.free--
		f.mu.Unlock()
		return nil
	}
	q := f.waiting[network]
	if len(q) >= f.perNet {
		f.mu.Unlock()
		return &FullError{Retry: fullRetry}
	}
	w := &waiter{ready: make(chan struct{})}
	if len(q) == 0 {
		f.turn = append(f.turn, network)
	}
	f.waiting[network] = append(q, w)
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
		f.drop(network, w)
		f.mu.Unlock()
	}
	return fmt.Errorf("limit: gave up waiting for a slot: %w", context.Cause(ctx))
}

// Release gives a slot back: to the first waiter of the network whose turn
// it is, which then goes to the back of the turn if it has more waiting.
func (f *Fair) Release() {
	f.mu.Lock()
	defer f.mu.Unlock()
	if len(f.turn) == 0 {
		f.free++
		return
	}
	network := f.turn[0]
	f.turn = f.turn[1:]
	q := f.waiting[network]
	w := q[0]
	if len(q) == 1 {
		delete(f.waiting, network)
	} else {
		f.waiting[network] = q[1:]
		f.turn = append(f.turn, network)
	}
	w.granted = true
	close(w.ready)
}

// drop removes w, which gave up, from network's waiters. f.mu is held.
func (f *Fair) drop(network string, w *waiter) {
	q := f.waiting[network]
	for i, o := range q {
		if o == w {
			q = append(q[:i:i], q[i+1:]...)
			break
		}
	}
	if len(q) > 0 {
		f.waiting[network] = q
		return
	}
	delete(f.waiting, network)
	for i, n := range f.turn {
		if n == network {
			f.turn = append(f.turn[:i:i], f.turn[i+1:]...)
			break
		}
	}
}

// Queued returns how many requests of network wait for a slot.
func (f *Fair) Queued(network string) int {
	f.mu.Lock()
	defer f.mu.Unlock()
	return len(f.waiting[network])
}
