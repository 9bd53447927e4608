package table

import (
	"fmt"
	"time"

	"tapis/wire"
)

// A person's pace (issue 26): how fast they want to see the bots play
// (wire.TypePace). The bots of a table wait the server's bot delay before
// each move, scaled by the pace of the people seated at it: a table has
// one tempo, and it is the slowest any of its seated people asked for, so
// that nobody is shown moves faster than they can follow; one alone with
// bots, the usual table, gets exactly the pace they chose. The animations
// are each page's own, at each person's pace (web/static/motion.js).
type pace int8

// The paces, in order: the zero value is "normal", a connection's until
// it says, and the slowest of several is the greatest.
const (
	paceFast   pace = -1
	paceNormal pace = 0
	paceSlow   pace = 1
)

// paceNamed returns the pace a "pace" message names.
func paceNamed(s string) (pace, bool) {
	switch s {
	case "normal":
		return paceNormal, true
	case "fast":
		return paceFast, true
	case "slow":
		return paceSlow, true
	}
	return paceNormal, false
}

// of scales the server's bot delay d: a Da Capo! turn of 22 plays at
// 700 ms took 15.4 s; at "fast" it takes under 4.
func (p pace) of(d time.Duration) time.Duration {
	switch p {
	case paceFast:
		return d / 4
	case paceSlow:
		return d * 2
	}
	return d
}

// botDelay is how long the table's bots wait before a move: the server's
// delay at the slowest pace of the seated people's connections (normal
// when none is connected).
func (t *table) botDelay() time.Duration {
	p, seated := paceFast, false
	for c := range t.conns {
		if c.seat >= 0 {
			p, seated = max(p, c.pace), true
		}
	}
	if !seated {
		p = paceNormal
	}
	return p.of(t.srv.cfg.botDelay())
}

// setPace is a connection's "pace": the bots' next delay follows it.
func (t *table) setPace(c *conn, m clientMsg) {
	p, ok := paceNamed(m.Pace)
	if !ok {
		t.sendError(c, wire.CodeBadMessage, fmt.Sprintf("server: pace %q: say \"slow\", \"normal\" or \"fast\"", m.Pace), m.ID)
		return
	}
	c.pace = p
}
