package server

import (
	"context"
	"errors"
	"sync/atomic"
	"time"

	"tapis/bot"
	"tapis/game"
)

// playBot starts the first bot that must act thinking, in a goroutine of
// its own on a copy of the state: a search takes milliseconds, and longer
// while it waits its turn in the server's pool (thinkers), and the table
// must go on answering meanwhile. The move comes back through the inbox
// (botChose).
func (t *table) playBot(ctx context.Context) {
	if !t.attended() {
		return
	}
	for _, s := range t.st.ToMove().List() {
		p := t.seats[s].player
		if p == nil {
			continue
		}
		t.thoughts++
		id, st, delay := t.thoughts, t.st.Clone(), t.srv.cfg.BotDelay
		t.thinking, t.thinker, t.thinkN = id, s, t.n
		met, name, level := t.srv.cfg.Metrics, t.g.Name(), t.seats[s].Bot
		if level == "" {
			level = standInLevel // a human seat's stand-in
		}
		pool := t.srv.thinkers
		go func() {
			start := time.Now()
			var m game.Move
			choose := func() {
				began := time.Now()
				m = p.Choose(game.KnowledgeOf(st, s))
				// The thought alone, not the wait for the pool nor the
				// pause after it: what bots cost.
				met.Thought(name, level, time.Since(began))
			}
			if _, search := p.(*bot.Search); !search {
				// Random and heuristic bots take microseconds: they
				// need no place in the pool, nor to wait behind searches.
				choose()
			} else if !pool.think(ctx, choose) {
				return
			}
			if wait := delay - time.Since(start); wait > 0 {
				select {
				case <-time.After(wait):
				case <-ctx.Done():
					return
				}
			}
			// If the table has gone, nobody waits for the move.
			// The move is read, as a person's is from its socket, when
			// it is handed to the table.
			read := met.Now()
			_ = t.post(ctx, func() { t.botChose(id, s, m, read) })
		}()
		return
	}
}

// botChose plays the move thought number id chose for seat s, if the table
// still wants one from s, after telling the bot what happened meanwhile.
func (t *table) botChose(id int, s game.Seat, m game.Move, read time.Time) {
	if id != t.thinking {
		return // a thought from before a new match began
	}
	t.thinking = 0
	t.flush(s)
	if t.st.Over() || !t.st.ToMove().Has(s) {
		return
	}
	// A bot playing a human seat is its stand-in.
	t.byStandin = t.seats[s].Bot == ""
	err := t.apply(s, m, read)
	t.byStandin = false
	var stored *storeError
	if err != nil && !errors.As(err, &stored) && t.n != t.thinkN {
		return // others moved meanwhile (a simultaneous phase): think again
	}
	if err != nil {
		t.srv.log.Error("bot move", "table", t.id, "seat", s, "err", err)
		// Try again later rather than spin on a failing store.
		t.botC = time.After(time.Second)
	}
}

// flush tells seat s's bot the events held while it was thinking.
func (t *table) flush(s game.Seat) {
	seat := &t.seats[s]
	for _, e := range seat.pending {
		seat.player.Observe(e)
	}
	seat.pending = seat.pending[:0]
}

// thinkers is the pool bot searches run in: at most cap(slots) at once
// over all tables. A search waits for a slot in the order it asked (a
// channel's blocked senders are woken first come, first served), so a
// bot's wait is bounded by the searches ahead of it.
type thinkers struct {
	slots   chan struct{}
	running atomic.Int32
	started func(running int)
	done    func(cpu time.Duration)
}

func newThinkers(n int, started func(int), done func(time.Duration)) *thinkers {
	return &thinkers{slots: make(chan struct{}, n), started: started, done: done}
}

// think runs search once a slot is free, and reports false without
// running it if ctx ends first.
func (p *thinkers) think(ctx context.Context, search func()) bool {
	select {
	case p.slots <- struct{}{}:
	case <-ctx.Done():
		return false
	}
	defer func() { <-p.slots }()
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
	return true
}
