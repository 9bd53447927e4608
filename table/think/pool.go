// Package think is the pool the table host's bot searches run in: a
// bounded number at once over all tables, so that bots never take every
// core from people's moves, which each table applies on its own
// goroutine, outside the pool; and the CPU time each search took, for the
// metrics.
package think

import (
	"context"
	"sync/atomic"
	"time"
)

// Pool is where bot searches run: at most n at once over all tables. A
// search waits for a place in the order it asked (a channel's blocked
// senders are woken first come, first served), so a bot's wait is bounded
// by the searches ahead of it.
type Pool struct {
	slots   chan struct{}
	running atomic.Int32
	started func(running int)
	done    func(cpu time.Duration)
}

// NewPool returns a pool of n places. started, if not nil, is called as
// each search begins, with the number running, itself included; done, if
// not nil, after each search with the CPU time it took (its thread's,
// where the system tells it, else the wall time it held its place).
func NewPool(n int, started func(int), done func(time.Duration)) *Pool {
	return &Pool{slots: make(chan struct{}, n), started: started, done: done}
}

// Think runs search once a place is free, and reports false without
// running it if ctx ends first.
func (p *Pool) Think(ctx context.Context, search func()) bool {
	select {
	case p.slots <- struct{}{}:
	case <-ctx.Done():
		return false
	}
	defer func() { <-p.slots }()
	p.run(search)
	return true
}

// run runs search in the place taken, counted and measured.
func (p *Pool) run(search func()) {
	n := p.running.Add(1)
	defer p.running.Add(-1)
	if p.started != nil {
		p.started(int(n))
	}
	if p.done == nil {
		search()
	} else {
		p.done(measureCPU(search))
	}
}
