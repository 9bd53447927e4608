package limit

import (
	"sync"
	"sync/atomic"
)

// Counts bounds the things held at once (open connections, waiting
// tables), per key and in total. It is safe for concurrent use.
//
// It holds an entry only for keys holding something, so its memory follows
// what is really held, never the number of keys ever seen. The per-key
// bound is what keeps one client from filling the total: with a total of T
// and a per-key bound of K, it takes T/K keys acting together to refuse
// anyone else.
type Counts struct {
	perKey, total int

	mu  sync.Mutex
	n   map[string]int
	sum int
}

// NewCounts returns a Counts letting each key hold perKey things at once,
// and all keys together total. A bound of 0 or less is no bound.
func NewCounts(perKey, total int) *Counts {
	return &Counts{perKey: perKey, total: total, n: map[string]int{}}
}

// Acquire takes one thing for key if the bounds allow it and returns true
// with the function that gives it back. Release may be called any number
// of times, from any goroutine, and gives back once, so that it can be both
// deferred and called early. When refused, Acquire returns false and a
// release that does nothing, which is just as safe to call.
func (c *Counts) Acquire(key string) (release func(), ok bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.total > 0 && c.sum >= c.total || c.perKey > 0 && c.n[key] >= c.perKey {
		return nothing, false
	}
	c.n[key]++
	c.sum++
	var done atomic.Bool
	return func() {
		if !done.Swap(true) {
			c.release(key)
		}
	}, true
}

func nothing() {}

func (c *Counts) release(key string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.sum--
	if c.n[key]--; c.n[key] <= 0 {
		delete(c.n, key)
	}
}

// Count returns how many things key holds now.
func (c *Counts) Count(key string) int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.n[key]
}
