package limit

import (
	"math"
	"strconv"
	"sync"
	"time"

	"golang.org/x/time/rate"
)

// Rates is a token bucket (golang.org/x/time/rate) per key: each key may
// act r times a second on average, in bursts of burst, whatever the other
// keys do. It is safe for concurrent use.
//
// Its memory stays bounded whatever the number of keys it is shown. A key
// whose bucket has filled up again is forgotten, which loses nothing: a
// new bucket starts full. And at most maxKeys keys are held: a new key
// past that pushes out the least recently used one. Of the choices, this is
// the one under which a flood of new keys (many addresses, or one IPv6
// host's many /64s) still stops no one else:
//   - refusing new keys while full would lock out every address not yet
//     seen;
//   - letting them through untracked would leave the flood unlimited;
//   - pushing out the least recently used key costs nothing when that key's
//     bucket is full again, which the longest idle likely is; when it is
//     not, that key merely gets a fresh burst on its next use, no more
//     than a new address gets. Nobody is ever refused because of another
//     key.
//
// So the cap only decides how much an attacker cycling through more than
// maxKeys keys within a refill time (burst/r) gains: size it above the
// number of clients expected to be active within that time.
type Rates struct {
	limit rate.Limit
	burst int
	max   int
	now   func() time.Time

	mu   sync.Mutex
	keys map[string]*bucket
	// lru is the sentinel of a ring of the buckets held, least recently
	// used first (lru.next).
	lru bucket
}

// bucket is one key's limiter and its place in the ring.
type bucket struct {
	key        string
	lim        *rate.Limiter
	full       time.Time // when the bucket is full again if left alone
	prev, next *bucket
}

// NewRates returns a Rates letting each key act r times a second on
// average, in bursts of burst, holding at most maxKeys keys. r == rate.Inf
// lets everything through and holds nothing (to turn a limit off). It
// panics unless r > 0, burst >= 1 and maxKeys >= 1: those would refuse
// everyone (for ever, or after a first burst), a programming error rather
// than a policy.
func NewRates(r rate.Limit, burst int, maxKeys int) *Rates {
	if !(r > 0) || burst < 1 || maxKeys < 1 {
		panic("limit: NewRates needs a rate > 0, a burst >= 1 and maxKeys >= 1")
	}
	rs := &Rates{limit: r, burst: burst, max: maxKeys, now: time.Now, keys: map[string]*bucket{}}
	rs.lru.next, rs.lru.prev = &rs.lru, &rs.lru
	return rs
}

// Allow spends one of key's tokens if it has one and reports true. If it
// has none it spends nothing and returns false with how long until it has
// one, for the caller to answer 429 with a Retry-After (see RetryAfter).
// The delay is returned by the same call, under the same lock, so that it
// is the one that applies to the refusal. It does not allocate for a key
// already held.
func (rs *Rates) Allow(key string) (retry time.Duration, ok bool) {
	if rs.limit == rate.Inf {
		return 0, true
	}
	rs.mu.Lock()
	defer rs.mu.Unlock()
	now := rs.now()
	b := rs.bucket(key, now)
	ok = b.lim.AllowN(now, 1)
	tokens := b.lim.TokensAt(now)
	if !ok {
		// Rounded up to the millisecond, so that a caller retrying after
		// exactly retry does not find the float a hair short of a token.
		retry = duration((1-tokens)/float64(rs.limit)).Truncate(time.Millisecond) + time.Millisecond
	}
	rs.settle(b, now, tokens)
	return retry, ok
}

// Reserve spends one of key's tokens, borrowing it from the future if need
// be, and returns how long the caller must wait before acting (0 if it may
// act at once). It suits a stream that is slowed rather than refused, such
// as a WebSocket's messages: the caller waits under its own context, e.g.
//
//	if d := rs.Reserve(key); d > 0 {
//		select {
//		case <-time.After(d):
//		case <-ctx.Done():
//			return
//		}
//	}
//
// A token borrowed is not given back if the caller gives up: a client that
// leaves while slowed down keeps its debt until the bucket refills. The
// debt is bounded by the number of callers waiting at once, each waiting
// before it reserves again.
func (rs *Rates) Reserve(key string) time.Duration {
	if rs.limit == rate.Inf {
		return 0
	}
	rs.mu.Lock()
	defer rs.mu.Unlock()
	now := rs.now()
	b := rs.bucket(key, now)
	// n == 1 <= burst, so the reservation is always possible.
	d := b.lim.ReserveN(now, 1).DelayFrom(now)
	rs.settle(b, now, b.lim.TokensAt(now))
	return d
}

// RetryAfter formats d as a Retry-After header's value: whole seconds,
// rounded up (a client told 0 would retry at once and be refused again),
// and at least 1.
func RetryAfter(d time.Duration) string {
	s := int64(1)
	if d > time.Second {
		s = int64((d + time.Second - 1) / time.Second)
	}
	return strconv.FormatInt(s, 10)
}

// bucket returns key's bucket, held as the most recently used, making one
// (and forgetting the least recently used if over the cap) if need be.
// rs.mu must be held.
func (rs *Rates) bucket(key string, now time.Time) *bucket {
	if b, ok := rs.keys[key]; ok {
		b.unlink()
		rs.pushBack(b)
		return b
	}
	if len(rs.keys) >= rs.max {
		rs.remove(rs.lru.next)
	}
	b := &bucket{key: key, lim: rate.NewLimiter(rs.limit, rs.burst)}
	rs.keys[key] = b
	rs.pushBack(b)
	return b
}

// settle records when b will be full again, b holding tokens at now, and
// forgets the least recently used buckets that are full by now. Those
// are the likeliest to be full; a full one further in is forgotten later,
// when its turn comes, or pushed out by the cap. rs.mu must be held.
func (rs *Rates) settle(b *bucket, now time.Time, tokens float64) {
	b.full = now.Add(duration((float64(rs.burst) - tokens) / float64(rs.limit)))
	for f := rs.lru.next; f != &rs.lru && !f.full.After(now); f = rs.lru.next {
		rs.remove(f)
	}
}

func (rs *Rates) pushBack(b *bucket) {
	b.prev, b.next = rs.lru.prev, &rs.lru
	b.prev.next, rs.lru.prev = b, b
}

func (rs *Rates) remove(b *bucket) {
	b.unlink()
	delete(rs.keys, b.key)
}

func (b *bucket) unlink() {
	b.prev.next, b.next.prev = b.next, b.prev
	b.prev, b.next = nil, nil
}

// duration converts seconds to a Duration, saturating instead of
// overflowing for the tiny rates whose buckets take centuries to fill.
func duration(seconds float64) time.Duration {
	const most = float64(math.MaxInt64 / 2)
	d := seconds * float64(time.Second)
	switch {
	case !(d > 0):
		return 0
	case d > most:
		return time.Duration(most)
	}
	return time.Duration(d)
}
