package table

import (
	"context"
	"errors"
	"time"

	"tapis/bot"
	"tapis/game"
)

// playBot starts the first bot that must act thinking, in a goroutine of
// its own on a copy of the state: a search takes milliseconds, and longer
// while it waits its turn in the host's pool (package think), and the table
// must go on answering meanwhile. The move comes back through the inbox
// (botChose).
func (t *table) playBot(ctx context.Context) {
	if !t.attended() {
		return
	}
	for s := range t.st.ToMove().All() {
		p := t.seats[s].player
		if p == nil || t.scriptWaits(s) {
			continue
		}
		t.cue(p) // a tutorial's bot (tutorial.go)
		t.thoughts++
		id, st, delay := t.thoughts, t.st.Clone(), t.botDelay()
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
			} else if !pool.Think(ctx, choose) {
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
