package table

import (
	"fmt"
	"time"

	"tapis/game"
	"tapis/store"
	"tapis/wire"
)

// The host is the table's creator (wire.Table.Host). They may give a free
// seat, or the seat of a guest who has left, to a bot, so that a table is
// not held by a friend who never came or went home: the bot plays the seat
// from then on, and the guest's token no longer seats anyone (the store
// keeps the bot, so a restart keeps it too).

// hostGrace is how long a guest's seat must have had no connection before
// the host may give it away: the away grace period (Config.AwayAfter),
// after which a stand-in would play for it anyway, or its default when
// stand-ins are off. A page being reloaded or a phone between networks is
// not a guest who left.
func (t *table) hostGrace() time.Duration {
	if d := t.srv.cfg.AwayAfter; d > 0 {
		return d
	}
	return 45 * time.Second
}

// seatBot gives seat *m.Seat to the bot m.Bot for the host's connection c.
func (t *table) seatBot(c *conn, m clientMsg) {
	switch {
	case c.seat < 0 || c.seat != t.host:
		t.sendError(c, wire.CodeNotHost, "server: only the table's host may give a seat to a bot", m.ID)
		return
	case m.Seat == nil || *m.Seat < 0 || *m.Seat >= len(t.seats):
		t.sendError(c, wire.CodeBadMessage, fmt.Sprintf("server: seat_bot needs a seat from 0 to %d", len(t.seats)-1), m.ID)
		return
	case t.st != nil && t.st.Over():
		t.sendError(c, wire.CodeOver, "server: the game is over", m.ID)
		return
	case !seatable(m.Bot):
		t.sendError(c, wire.CodeBadBot, fmt.Sprintf("server: no bot %q to seat", m.Bot), m.ID)
		return
	}
	i := *m.Seat
	seat := &t.seats[i]
	switch {
	case seat.Bot != "":
		t.sendError(c, wire.CodeBotSeat, "server: a bot already plays that seat", m.ID)
		return
	case t.rated && (seat.TokenHash != "" || seat.Player != ""):
		// A rated seat is its player's for the whole match: a host who
		// could give an absent opponent's seat away would pick who ranks
		// last. A stand-in plays for them meanwhile; one who stays away
		// is rated last (rated.go).
		t.sendError(c, wire.CodeRatedSeat, "server: this table is rated: a person's seat is theirs for the whole match; a stand-in plays for them while they are away, and one who does not come back ranks last", m.ID)
		return
	case t.days.on && (seat.TokenHash != "" || seat.Player != ""):
		// Over days a person is away between moves, by design: their
		// seat is theirs until their time runs out three times in a row
		// (days.go), not the host's to give when they close the page.
		t.sendError(c, wire.CodePresent, "server: this table is played over days: a person's seat is theirs between moves; if their time runs out three times in a row, a bot takes it", m.ID)
		return
	case seat.conns > 0:
		t.sendError(c, wire.CodePresent, "server: that player is connected: only a free seat or a player who has left may be given to a bot", m.ID)
		return
	case seat.TokenHash != "" && time.Since(seat.away) < t.hostGrace():
		t.sendError(c, wire.CodePresent, fmt.Sprintf("server: that player left less than %v ago: give them a moment", t.hostGrace().Round(time.Second)), m.ID)
		return
	}
	if _, err := t.newBot(m.Bot, game.Seat(i), 1); err != nil {
		t.sendError(c, wire.CodeBadBot, err.Error(), m.ID)
		return
	}
	ns := store.Seat{Name: m.Bot, Bot: m.Bot}
	// The seat that fills the table and the match it starts are one
	// write, as when a guest takes the last seat (join).
	var start *store.Start
	if t.st == nil && seat.TokenHash == "" && t.freeSeats() == 1 {
		start = &store.Start{No: t.match + 1, Seed: t.srv.cfg.Seed()}
	}
	ctx, cancel := t.srv.persist()
	defer cancel()
	if err := t.w.SetSeat(ctx, i, ns, start); err != nil {
		t.srv.log.Error("seat a bot", "table", t.id, "seat", i, "err", err)
		t.sendError(c, wire.CodeStore, "server: the seat could not be saved; try again", m.ID)
		return
	}
	seat.Seat = ns
	if t.st != nil {
		// Mid-match: the bot replaces any stand-in and a thought of its
		// (botChose ignores it), and is told what the seat was told so
		// far, as a stand-in is.
		if t.thinking != 0 && t.thinker == game.Seat(i) {
			t.thinking = 0
		}
		seat.player, seat.pending, seat.turnBot = t.botFor(m.Bot, game.Seat(i)), nil, false
	}
	t.broadcastInfo()
	if start != nil {
		t.open(start.No, start.Seed)
	}
}

// botFor builds a bot of level name for seat s in the middle of the match,
// told what the seat was told so far.
func (t *table) botFor(name string, s game.Seat) game.Player {
	p, err := t.newBot(name, s, t.srv.botSeed(t.seed, s, t.n))
	if err != nil {
		// Checked by seatBot already; the easy stand-in is a fallback.
		return t.standInFor(s)
	}
	for _, e := range t.history.For(s) {
		p.Observe(e)
	}
	return p
}
