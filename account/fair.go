package account

import (
	"context"
	"fmt"
	"sync"
	"time"
)

// The Hasher's slots go to the networks waiting for one in turn (round
// robin), not to the requests in the order they came: issue 24 saw one
// address's 600 claims sent at once queue 511 hashes ahead of a sign-in
// from elsewhere, which waited 16 s. A request names its network
// (limit.Network: an IPv4 /24 or IPv6 /48) in its context (WithNetwork);
// each network may have a few requests waiting at once, and the one
// after them is refused at once (QueueFullError) rather than queued. So a
// newcomer's request waits behind at most one hash per other network
// waiting, whatever those networks send.

// DefaultQueue is how many hashes one network may have waiting for a slot
// at once when NewHasher is given none: a few people behind one address
// (a family, a classroom's NAT) signing in together, not a flood.
const DefaultQueue = 8

// queueRetry is the Retry-After of a request refused because its
// network's queue is full: about what a few hashes take.
const queueRetry = time.Second

// QueueFullError is the error of a hash refused because the requests of its
// network already fill their share of the queue.
type QueueFullError struct{ Retry time.Duration }

func (e *QueueFullError) Error() string {
	return "account: too many passwords from your network are being checked: try again in a moment"
}

// networkKey is the context key of WithNetwork.
type networkKey struct{}

// WithNetwork returns ctx naming the network a hash is made for, so that
// a Hasher shares its slots fairly among networks. A context without one
// is in the network "" (tests, tools).
func WithNetwork(ctx context.Context, network string) context.Context {
	return context.WithValue(ctx, networkKey{}, network)
}

func networkOf(ctx context.Context) string {
	n, _ := ctx.Value(networkKey{}).(string)
	return n
}

// fair hands out n slots round robin over the networks waiting.
type fair struct {
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

func newFair(slots, perNet int) *fair {
	return &fair{perNet: perNet, free: slots, waiting: map[string][]*waiter{}}
}

// acquire waits for a slot for network until ctx ends; the caller must
// call release after.
func (f *fair) acquire(ctx context.Context, network string) error {
	f.mu.Lock()
	if f.free > 0 && len(f.turn) == 0 {
		f.free--
		f.mu.Unlock()
		return nil
	}
	q := f.waiting[network]
	if len(q) >= f.perNet {
		f.mu.Unlock()
		return &QueueFullError{Retry: queueRetry}
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
		f.release()
	} else {
		f.drop(network, w)
		f.mu.Unlock()
	}
	return fmt.Errorf("account: gave up waiting for a free password hashing slot: %w", context.Cause(ctx))
}

// release gives a slot back: to the first waiter of the network whose turn
// it is, which then goes to the back of the turn if it has more waiting.
func (f *fair) release() {
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
func (f *fair) drop(network string, w *waiter) {
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

// queued returns how many requests of network wait for a slot.
func (f *fair) queued(network string) int {
	f.mu.Lock()
	defer f.mu.Unlock()
	return len(f.waiting[network])
}
