package table

import (
	"context"

	"tapis/history"
	"tapis/store"
)

// A crash between a match's last move and the write of its end (kill -9
// right after the move: 3 of 12 tries in issue 24) leaves a match whose
// moves end the game but that the store holds open: its history refused
// as unfinished, and still among its players' tables. Loading the table
// mends it (load writes the end, and rates a rated match if it was not).
// Start-up reads no table's moves (restore), so the places that show such
// a match settle it first: a player's tables and a finished match's
// history; the sweep's abandonment loads it too (retire).

// Settle checks dormant table id, whose match the store holds unfinished:
// if its moves end the game, it loads the table, which marks the match
// over, and reports true. Each table is checked once per process: a
// match found unfinished ends, later, at a table that writes its end. In
// a cluster, only the node that holds, or can take, the table's lease
// loads it.
func (s *Host) Settle(ctx context.Context, id string) bool {
	// A loaded table is not checked: load settled it.
	if !s.tables.FirstSettle(id) || !s.endedUnmarked(ctx, id) {
		return false
	}
	// Only then is the lease taken (a table another node holds is loaded
	// there, which marked it), and the table loaded, as any request
	// would: it leaves memory, and gives its lease back, once idle.
	node, fresh, err := s.own.OwnerOf(ctx, id)
	if err != nil || node != "" {
		return false
	}
	if fresh {
		s.forget(id) // as owned does: the store has what the last owner wrote
	}
	t, err := s.lookup(id)
	return err == nil && t != nil
}

// endedUnmarked reports whether table id's latest match ends the game
// while the store holds it unfinished. A damaged match is not: loading
// it would close the table as broken, which is for a player to find.
func (s *Host) endedUnmarked(ctx context.Context, id string) (over bool) {
	sv, err := s.cfg.Store.Load(ctx, id)
	if err != nil || sv.Closed != store.NotClosed || sv.Match == nil || sv.Match.Over || s.games[sv.Game] == nil {
		return false
	}
	defer func() {
		if recover() != nil {
			over = false
		}
	}()
	st, err := history.Played(s.games[sv.Game], sv)
	return err == nil && st.Over()
}
