package table

import (
	"time"

	"tapis/bot"
	"tapis/game"
	"tapis/table/codec"
	"tapis/wire"
)

// A stand-in is a bot that plays for a human seat whose player has been
// gone longer than Config.AwayAfter, so that a closed tab does not keep
// the rest of the table waiting; it leaves as soon as the player is back.

// absent reports whether human seat s has nobody to play it: no
// connection and no stand-in yet.
func (t *table) absent(s game.Seat) bool {
	seat := &t.seats[s]
	return seat.Bot == "" && seat.conns == 0 && seat.player == nil
}

// armAway arms the away timer for the earliest end of a grace period among
// the absent seats that must act. A timer that fires early is harmless
// (standIn checks again), so it is only re-armed to fire sooner.
func (t *table) armAway() {
	after := t.srv.cfg.AwayAfter
	if after < 0 || t.scripting() || t.days.on {
		// A tutorial waits for its player: a stand-in would play its
		// steps. A turn-based table waits for its players' time to run
		// out (days.go).
		return
	}
	var due time.Time
	for s := range t.st.ToMove().All() {
		if !t.absent(s) {
			continue
		}
		if d := t.seats[s].away.Add(after); due.IsZero() || d.Before(due) {
			due = d
		}
	}
	if !due.IsZero() && (t.awayC == nil || due.Before(t.awayAt)) {
		t.awayC, t.awayAt = time.After(time.Until(due)), due
	}
}

// standIn seats a stand-in bot at every absent seat that must act and whose
// grace period is over. It plays like a bot seat (schedule, playBot) until
// its player comes back (attach) or the match ends (begin).
func (t *table) standIn() {
	after := t.srv.cfg.AwayAfter
	if after < 0 || t.st == nil || t.st.Over() || !t.attended() || t.days.on {
		return
	}
	taken := false
	for s := range t.st.ToMove().All() {
		if !t.absent(s) || time.Since(t.seats[s].away) < after {
			continue
		}
		t.seats[s].player = t.standInFor(s)
		taken = true
	}
	if taken {
		t.broadcastInfo()
	}
}

// standInLevel is the bot level a stand-in plays at.
const standInLevel = "easy"

// standInFor builds seat s's stand-in: the easy level, or a random player
// if the game has none, so that an absent seat is never left waiting. It
// is told what the seat was told so far in this match.
func (t *table) standInFor(s game.Seat) game.Player {
	seed := t.srv.botSeed(t.seed, s, t.n)
	p, err := t.newBot(standInLevel, s, seed)
	if err != nil {
		t.srv.log.Warn("stand-in", "table", t.id, "seat", s, "err", err)
		p = bot.NewRandom(seed)
	}
	for _, e := range t.history.For(s) {
		p.Observe(e)
	}
	return p
}

// dismiss sends away the stand-in of human seat s, whose player is back
// and moves themselves, or whose one move for a player out of time is
// made (clocks). A move it is thinking of is ignored when it comes
// (botChose drops a thought that is no longer t.thinking).
func (t *table) dismiss(s game.Seat) {
	seat := &t.seats[s]
	if seat.Bot != "" || seat.player == nil {
		return
	}
	seat.player, seat.pending, seat.turnBot = nil, nil, false
	if t.thinking != 0 && t.thinker == s {
		t.thinking = 0
	}
}

// missedMoves is what a stand-in played for a seat while its player had
// no connection, kept until the player comes back and is told ("while you
// were away, 3 moves were played for you: …"), so that nobody takes a
// stand-in's moves for their own (issue 24, finding 15).
type missedMoves struct {
	n int // moves
	// events are those moves' events the seat may see, as the welcome's
	// history gives them back (recall), the last maxMissed at most.
	events []any
}

// maxMissed bounds the events a seat's missedMoves keeps: a player gone
// for hours is told how many moves were made, and the latest of them.
const maxMissed = 100

// noteMissed records the stand-in's move for seat s just applied (its
// events in t.moveEvents), if its player is away: one out of time, still
// there, saw it played.
func (t *table) noteMissed(s game.Seat) {
	seat := &t.seats[s]
	if seat.conns > 0 {
		return
	}
	m := &seat.missed
	m.n++
	for _, e := range t.moveEvents.Events {
		if e.To.Has(s) {
			m.events = append(m.events, t.recall(e))
		}
	}
	if over := len(m.events) - maxMissed; over > 0 {
		m.events = append(m.events[:0], m.events[over:]...)
	}
}

// tellMissed sends c, a connection of a seat, what the stand-in played
// for that seat since its player was last there, and forgets it.
func (t *table) tellMissed(c *conn) {
	m := &t.seats[c.seat].missed
	if m.n == 0 {
		return
	}
	evs := m.events
	if evs == nil {
		evs = []any{}
	}
	t.send(c, codec.Encode(wire.StandinMoves[any]{Type: wire.TypeStandinMoves, Seat: int(c.seat), Moves: m.n, Events: evs}))
	*m = missedMoves{}
}
