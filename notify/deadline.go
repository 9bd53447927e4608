package notify

import (
	"context"
	"strconv"
	"time"

	"tapis/store"
)

// DeadlineSoonWithin is how near a seat's deadline must be for
// DeadlineSoon to tell its player: "less than an hour to move".
const DeadlineSoonWithin = time.Hour

// Deadline is a seat's time to move at a table running out: the payload
// of a store.KindDeadlineSoon notification ({"table","game","seat",
// "match","n","deadline"}), whose mail and push link to the table.
type Deadline struct {
	Table string `json:"table"`
	Game  string `json:"game"`
	Seat  int    `json:"seat"`
	Match int    `json:"match"`
	// N is the number of moves made in the match when the seat became
	// due: with Table and Match, which move's deadline this is.
	N  int       `json:"n"`
	At time.Time `json:"deadline"`
}

// DeadlineSoon tells player that their seat's time to move runs out at
// d.At, if that is less than DeadlineSoonWithin from now and still to
// come, and they have not been told of this move's deadline yet (once
// per table, match, seat and n, across restarts and nodes: a pace in the
// store until the deadline). It reports whether it told them. The table
// host calls it for a seat due at a turn-based table, as often as it
// likes once the deadline is within the hour (a timer, or the wake of a
// dormant table); real-time tables, whose longest time per move is
// minutes, do not.
func (s *Service) DeadlineSoon(ctx context.Context, player string, d Deadline) (bool, error) {
	now := s.cfg.Now()
	if !d.At.After(now) || d.At.Sub(now) > DeadlineSoonWithin {
		return false, nil
	}
	key := store.KindDeadlineSoon + "/" + d.Table + "/" + strconv.Itoa(d.Match) + "/" + strconv.Itoa(d.Seat) + "/" + strconv.Itoa(d.N)
	took, err := s.cfg.Store.Pace(ctx, player, key, now, d.At)
	if err != nil || !took {
		return false, err
	}
	d.At = d.At.UTC()
	if err := s.Notify(ctx, player, store.KindDeadlineSoon, d); err != nil {
		return false, err
	}
	return true, nil
}
