package table

import (
	"fmt"
	"time"

	"tapis/game"
	"tapis/store"
	"tapis/wire"
)

// Turn-based tables (issue 29): a table chosen at creation to be played
// over days, with a time per move of an hour to a week (a day unless
// said). Nothing plays for an absent player there until their time runs
// out: there is no away stand-in (standin.go), the clocks run whoever is
// connected, and a table nobody is at sleeps in the store between moves
// (sleep.go), its clocks kept there (deadline.go) so that it wakes when
// a deadline passes, after a restart or on another node too. When a
// seat's time runs out, the stand-in makes that one move for it
// (turntime.go's turnUp, as at a real-time table with a time per move);
// after timeoutsOut of them in a row, the seat is given to a bot for the
// rest of the match, and at a rated table its player ranks last, as one
// who leaves does (leave.go, rated.go).
//
// The word for this is "turn-based" (wire.Table's TurnBased, the
// creation's turn_based); pace.go's pace is another thing, how fast a
// person wants to see the bots play.

// The time per move of a turn-based table, in seconds (turn_seconds).
const (
	minDaysTurn     = 3600      // an hour
	maxDaysTurn     = 7 * 86400 // a week
	defaultDaysTurn = 86400     // a day
	daysTurnHint    = "from 3600 (an hour) to 604800 (7 days), 86400 (a day) if left out"
)

// turnWaiting is how long a turn-based table waits for its players to
// take their seats, unvisited, before it expires: friends invited to
// play over days may take days to come (a real-time table waits
// Config.WaitingTTL).
const turnWaiting = 7 * 24 * time.Hour

// timeoutsOut is how many times in a row a seat's time may run out at a
// turn-based table before the seat is given to a bot.
const timeoutsOut = 3

// daysTurn returns the time per move a turn-based table's creation asks
// for, in seconds: the one given, or a day.
func (r createReq) daysTurn() (int, error) {
	if r.TurnSeconds == nil {
		return defaultDaysTurn, nil
	}
	t := *r.TurnSeconds
	if t < minDaysTurn || t > maxDaysTurn {
		return 0, fmt.Errorf("server: turn_seconds is %d: a turn-based table's time per move is %s", t, daysTurnHint)
	}
	return t, nil
}

// days is what a table keeps of being turn-based.
type days struct {
	on bool
	// timeouts is, by seat, how many times in a row its time ran out.
	timeouts []int
	// written is the clock last written to the store (deadline.go), so
	// that an unchanged one is not written again.
	written store.Clock
}

// strike counts the move human seat by just made at a turn-based table:
// a stand-in's, its time being up, is one more timeout in a row, and the
// timeoutsOut-th gives the seat away (giveAway); the player's own clears
// the count. It runs from clocks, before the stand-in is sent away.
func (t *table) strike(by game.Seat) {
	if !t.days.on || t.seats[by].Bot != "" {
		return
	}
	if len(t.days.timeouts) != len(t.seats) {
		t.days.timeouts = make([]int, len(t.seats))
	}
	if !t.byStandin || !t.seats[by].turnBot {
		t.days.timeouts[by] = 0
		return
	}
	t.days.timeouts[by]++
	if t.days.timeouts[by] >= timeoutsOut {
		t.giveAway(by)
	}
}

// giveAway gives human seat s to a bot for the rest of the match, its
// player having let their time run out timeoutsOut times in a row: as
// when a player leaves (leaveSeat), the name and the player's id stay on
// the seat, so that a rated end ranks them last (rate), and their token
// and sessions no longer seat them. The stand-in that played for them
// plays on, as the bot.
func (t *table) giveAway(s game.Seat) {
	seat := &t.seats[s]
	ns := store.Seat{Name: seat.Name, Bot: standInLevel, Player: seat.Player}
	ctx, cancel := t.srv.persist()
	defer cancel()
	if err := t.w.SetSeat(ctx, int(s), ns, nil); err != nil {
		// The stand-in goes on playing each move as its time runs out.
		t.srv.log.Error("give a timed-out seat to a bot", "table", t.id, "seat", s, "err", err)
		return
	}
	t.srv.log.Info("seat given to a bot", "table", t.id, "seat", s, "timeouts", t.days.timeouts[s])
	seat.Seat = ns
	if seat.player == nil {
		seat.player = t.botFor(standInLevel, s)
	}
	seat.turnBot, seat.due = false, time.Time{}
	t.days.timeouts[s] = 0
	t.dropAll(func(c *conn) bool { return c.seat == s }, wire.TypeLeft)
	t.broadcastInfo()
}

// quiet reports whether nothing is to be played at the table now but by
// people: no bot or stand-in is due to act, nor thinking. A turn-based
// table nobody is at goes to sleep only then (sleep.go).
func (t *table) quiet() bool {
	if t.thinking != 0 || t.botC != nil {
		return false
	}
	if t.st == nil || t.st.Over() {
		return true
	}
	for s := range t.st.ToMove().All() {
		if t.seats[s].player != nil {
			return false
		}
	}
	return true
}
