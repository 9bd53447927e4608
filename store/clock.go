package store

import (
	"context"
	"encoding/json"
	"fmt"
	"time"
)

// Turn-based tables (issue 29): a table played over days keeps its
// clocks in the store between moves, so that it can sleep there, costing
// its server nothing, and wake when its deadline passes, after a restart
// or on another node. A table has a clock only if it is turn-based: the
// table host writes one when it creates such a table, and again whenever
// a seat's time starts or stops.

// Clock is a turn-based table's clocks as its host last wrote them.
type Clock struct {
	// Match and N are the position the clock was written at (the match
	// and the moves applied in it): a clock older than the position
	// replayed (the server stopped between a move and its clock) is
	// stale.
	Match int `json:"match"`
	N     int `json:"n"`
	// Turn is the table's time per move, so that a seat's deadline is
	// read from its clock alone (GET /api/me/turns).
	Turn time.Duration `json:"-"`
	// Due is, by seat, since when the seat has been due to act (zero:
	// it is not).
	Due []time.Time `json:"due"`
	// Timeouts is, by seat, how many times in a row its time ran out.
	Timeouts []int `json:"timeouts"`
	// Deadline is the earliest end of a due person's time, or when a
	// bot is due to act (zero: none, nobody is on the clock).
	Deadline time.Time `json:"-"`
	// Warn is when a due person must be told that their deadline is
	// near (zero: nobody is to be told): the table wakes at the earlier
	// of Warn and Deadline (Wake), so that a sleeping table tells them.
	Warn time.Time `json:"-"`
}

// Wake returns when the table must next wake: the earlier of c's Warn
// and Deadline (zero: never). DueClocks lists the tables by it.
func (c Clock) Wake() time.Time {
	if c.Warn.IsZero() || (!c.Deadline.IsZero() && c.Deadline.Before(c.Warn)) {
		return c.Deadline
	}
	return c.Warn
}

// Clocks keeps the turn-based tables' clocks.
type Clocks interface {
	// SetClock records table's clock, replacing the one before.
	SetClock(ctx context.Context, table string, c Clock) error
	// Clock returns table's clock, and false if it has none (a real
	// time table, or no such table).
	Clock(ctx context.Context, table string) (Clock, bool, error)
	// OpenClocks returns the clock of every open table that has one,
	// by table id.
	OpenClocks(ctx context.Context) (map[string]Clock, error)
	// DueClocks lists the open tables whose wake time (Clock.Wake) is
	// at or before now, the earliest first, at most limit of them.
	DueClocks(ctx context.Context, now time.Time, limit int) ([]string, error)
}

// clockJSON is a clock as the SQL stores keep it: the times in Unix
// milliseconds (0: none). The deadline and the warning are in it since
// the warning came; the table's column holds the wake time (Clock.Wake),
// which is the deadline in the clocks written before.
type clockJSON struct {
	Match      int     `json:"match"`
	N          int     `json:"n"`
	TurnMS     int64   `json:"turn_ms"`
	Due        []int64 `json:"due"`
	Timeouts   []int   `json:"timeouts"`
	DeadlineMS int64   `json:"deadline_ms,omitempty"`
	WarnMS     int64   `json:"warn_ms,omitempty"`
}

// unixMS returns t in Unix milliseconds, 0 for the zero time.
func unixMS(t time.Time) int64 {
	if t.IsZero() {
		return 0
	}
	return t.UnixMilli()
}

// EncodeClock returns c's stored form: its JSON, and its wake time
// (Clock.Wake) in Unix milliseconds (nil for none), for the SQL stores,
// whose DueClocks look at the wake time.
func EncodeClock(c Clock) (string, any) {
	j := clockJSON{Match: c.Match, N: c.N, TurnMS: c.Turn.Milliseconds(), Due: make([]int64, len(c.Due)), Timeouts: c.Timeouts,
		DeadlineMS: unixMS(c.Deadline), WarnMS: unixMS(c.Warn)}
	for i, d := range c.Due {
		if !d.IsZero() {
			j.Due[i] = d.UnixMilli()
		}
	}
	if j.Timeouts == nil {
		j.Timeouts = []int{}
	}
	b, _ := json.Marshal(j)
	var wake any
	if w := c.Wake(); !w.IsZero() {
		wake = w.UnixMilli()
	}
	return string(b), wake
}

// DecodeClock reads a clock's stored form back (EncodeClock); deadline is
// its column, the wake time in Unix milliseconds, nil or 0 for none: the
// deadline of a clock written before the warning came.
func DecodeClock(js string, deadline *int64) (Clock, error) {
	var j clockJSON
	if err := json.Unmarshal([]byte(js), &j); err != nil {
		return Clock{}, fmt.Errorf("store: a clock: %v", err)
	}
	if len(j.Due) > MaxPlayers || len(j.Timeouts) > MaxPlayers {
		return Clock{}, fmt.Errorf("store: a clock of %d seats", max(len(j.Due), len(j.Timeouts)))
	}
	c := Clock{Match: j.Match, N: j.N, Turn: time.Duration(j.TurnMS) * time.Millisecond, Due: make([]time.Time, len(j.Due)), Timeouts: j.Timeouts}
	for i, ms := range j.Due {
		if ms != 0 {
			c.Due[i] = time.UnixMilli(ms)
		}
	}
	switch {
	case j.DeadlineMS != 0:
		c.Deadline = time.UnixMilli(j.DeadlineMS)
		if j.WarnMS != 0 {
			c.Warn = time.UnixMilli(j.WarnMS)
		}
	case deadline != nil && *deadline != 0:
		c.Deadline = time.UnixMilli(*deadline)
	}
	return c, nil
}
