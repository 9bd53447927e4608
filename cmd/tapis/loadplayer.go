package main

import (
	"context"
	"fmt"
	"math/rand/v2"
	"time"

	"tapis/client"
)

// seatPlayer is one load test client: it plays a random legal move of its
// seat after a think time, and measures each move's round trip. The host
// (the table's creator) also starts the next match when one ends, and
// times the server's bots.
type seatPlayer struct {
	conn *client.Conn
	// dial opens the seat's connection again (--reconnect).
	dial func(ctx context.Context) (*client.Conn, error)
	o    loadOptions
	t    *tally
	host bool
	rng  *rand.Rand

	latest *client.State
	// The move in flight: its id, the state it answered, when it left.
	pending   bool
	pendingID int64
	pendingN  int
	pendingM  int
	sentAt    time.Time
	// botSince is, for each bot seat that must act, since when (host only).
	botSince map[int]time.Time
	botMatch int
	lastOver int // the last match counted as over
}

// thinkTime draws from [0.5, 1.5) × --think.
func (p *seatPlayer) thinkTime() time.Duration {
	return time.Duration((0.5 + p.rng.Float64()) * float64(p.o.think))
}

// play runs until ctx ends, then waits (up to o.drain) for the answer to
// the move in flight, so that every move the server applied is counted.
// With --reconnect a connection lost (a server restarted, a node gone) is
// dialled again until the seat is back, and the time it was away counted.
func (p *seatPlayer) play(ctx context.Context) {
	for {
		err := p.session(ctx)
		if err == nil {
			return
		}
		if !p.o.reconnect {
			p.t.fail("seat %d of table %s: connection lost: %v", p.conn.Seat(), p.conn.Table().ID, err)
			return
		}
		lost := time.Now()
		p.t.add(func(t *tally) { t.away++ })
		// A move in flight when the connection went may or may not have
		// been applied: its answer is not waited for, nor its time counted.
		p.pending = false
		conn, err := p.redial(ctx)
		p.t.add(func(t *tally) { t.away-- })
		if err != nil {
			p.t.fail("seat %d of table %s: not back at its seat by the run's end: %v", p.conn.Seat(), p.conn.Table().ID, err)
			return
		}
		p.conn = conn
		away := time.Since(lost)
		p.t.add(func(t *tally) { t.aways = append(t.aways, away) })
	}
}

// redial dials the seat again until it is back or ctx ends, waiting a
// little longer after each failure (100 ms doubling to 2 s, jittered, so
// that thousands of clients do not knock at once).
func (p *seatPlayer) redial(ctx context.Context) (*client.Conn, error) {
	wait := 100 * time.Millisecond
	for {
		conn, err := p.dial(ctx)
		if err == nil {
			return conn, nil
		}
		j := time.Duration((0.5 + p.rng.Float64()) * float64(wait))
		select {
		case <-ctx.Done():
			return nil, fmt.Errorf("%w (last: %v)", ctx.Err(), err)
		case <-time.After(j):
		}
		wait = min(2*wait, 2*time.Second)
	}
}

// session plays on the seat's connection until ctx ends (nil) or the
// connection is lost before then (the read's error).
func (p *seatPlayer) session(ctx context.Context) error {
	rctx, cancelRead := context.WithCancel(context.Background())
	defer func() {
		cancelRead()
		p.conn.Close()
	}()
	msgs := make(chan client.Message, 16)
	readErr := make(chan error, 1)
	conn := p.conn // play replaces p.conn only once this session is over
	go func() {
		for {
			m, err := conn.Next(rctx)
			if err != nil {
				readErr <- err
				return
			}
			select {
			case msgs <- m:
			case <-rctx.Done():
				return
			}
		}
	}()
	var think *time.Timer
	var thinkC <-chan time.Time
	schedule := func() {
		if thinkC == nil {
			think = time.NewTimer(p.thinkTime())
			thinkC = think.C
		}
	}
	defer func() {
		if think != nil {
			think.Stop()
		}
	}()
	stopping := ctx.Done()
	var drainC <-chan time.Time
	draining := false
	for {
		select {
		case <-stopping:
			stopping, thinkC, draining = nil, nil, true
			if !p.pending {
				return nil
			}
			drainC = time.After(p.o.drain)
		case <-drainC:
			p.t.fail("seat %d of table %s: no answer to a move within %v", p.conn.Seat(), p.conn.Table().ID, p.o.drain)
			return nil
		case err := <-readErr:
			if !draining && ctx.Err() == nil {
				return err
			}
			return nil
		case m := <-msgs:
			switch m := m.(type) {
			case *client.State:
				p.state(m)
				if draining {
					if !p.pending {
						return nil
					}
					continue
				}
				if m.Over() && p.host || !m.Over() && !p.pending && m.Moves(p.conn.Seat()) {
					schedule()
				}
			case *client.Error:
				mine := p.pending && m.ID != nil && *m.ID == p.pendingID
				if mine {
					p.pending = false
				}
				if m.Code == "stale" {
					p.t.add(func(t *tally) { t.stale++ })
				} else {
					if m.Code == "too_fast" {
						p.t.tooFast("too_fast on the WebSocket")
					}
					p.t.fail("seat %d of table %s: %s: %s", p.conn.Seat(), p.conn.Table().ID, m.Code, m.Message)
				}
				if draining && !p.pending {
					return nil
				}
				if mine && !draining && p.latest != nil && p.latest.Moves(p.conn.Seat()) {
					schedule() // look again at the newer state
				}
			}
		case <-thinkC:
			thinkC = nil
			// The select may pick the timer over the end: no move then,
			// as it could be applied without being counted.
			if ctx.Err() == nil {
				p.act()
			}
		}
	}
}

// state takes in a new state: the answer to the move in flight, a bot's
// move, a match's end.
func (p *seatPlayer) state(m *client.State) {
	now := time.Now()
	p.latest = m
	seat := p.conn.Seat()
	if p.pending && (m.Match != p.pendingM || m.By == seat && m.N > p.pendingN) {
		p.pending = false
		if m.Match == p.pendingM {
			rtt := now.Sub(p.sentAt)
			steady := !p.sentAt.Before(p.o.steadyFrom)
			p.t.add(func(t *tally) {
				t.rtts = append(t.rtts, rtt)
				if steady {
					t.steady = append(t.steady, rtt)
				}
			})
		}
	}
	if !p.host {
		return
	}
	if m.Over() && m.Match != p.lastOver {
		p.lastOver = m.Match
		p.t.add(func(t *tally) { t.matches++ })
	}
	// The server's bots: from the state in which one must act to the
	// state that follows its move.
	if m.Match != p.botMatch || p.botSince == nil {
		p.botMatch, p.botSince = m.Match, map[int]time.Time{}
	}
	for s, info := range p.conn.Table().Seats {
		if info.Bot == "" {
			continue
		}
		if since, ok := p.botSince[s]; ok && m.By == s {
			d := now.Sub(since)
			p.t.add(func(t *tally) { t.bots = append(t.bots, d) })
			delete(p.botSince, s)
		}
		if _, ok := p.botSince[s]; !ok && !m.Over() && m.Moves(s) {
			p.botSince[s] = now
		}
	}
}

// act plays a random legal move of the latest state, or starts the next
// match once one is over (the host's part). A write ended half-way would
// leave the server's count and the client's apart: the write is given its
// time rather than the run's end.
func (p *seatPlayer) act() {
	ctx, cancel := context.WithTimeout(context.Background(), p.o.drain)
	defer cancel()
	st := p.latest
	switch {
	case st == nil || p.pending:
	case st.Over():
		if _, err := p.conn.Again(ctx); err != nil && !p.o.reconnect {
			p.t.fail("table %s: again: %v", p.conn.Table().ID, err)
		}
	case st.Moves(p.conn.Seat()) && len(st.Legal) > 0:
		move := st.Legal[p.rng.IntN(len(st.Legal))]
		p.sentAt = time.Now()
		id, err := p.conn.MoveAt(ctx, st.N, move)
		if err != nil {
			// With --reconnect a write that fails is a connection lost:
			// the reader sees it too, and the seat is dialled again.
			if !p.o.reconnect {
				p.t.fail("table %s: move: %v", p.conn.Table().ID, err)
			}
			return
		}
		p.pending, p.pendingID, p.pendingN, p.pendingM = true, id, st.N, st.Match
	}
}
