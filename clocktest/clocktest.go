// Package clocktest gives tests a time they move by hand, so that no test
// sleeps to see a deadline pass, a rate refill or a lease expire. Pass
// Clock.Now wherever the code under test takes a func() time.Time.
package clocktest

import (
	"sync"
	"time"
)

// Clock is a time that moves only when told to. It is safe for use by
// several goroutines (the code under test reads it while the test moves it).
type Clock struct {
	mu sync.Mutex
	t  time.Time
}

// New returns a Clock set at start.
func New(start time.Time) *Clock { return &Clock{t: start} }

// Now returns the clock's time.
func (c *Clock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.t
}

// Advance moves the clock forward by d.
func (c *Clock) Advance(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.t = c.t.Add(d)
}

// Set moves the clock to t, forward or back.
func (c *Clock) Set(t time.Time) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.t = t
}
