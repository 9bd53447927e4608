package table

import (
	"tapis/store"
	"tapis/table/codec"
	"tapis/table/tableset"
	"tapis/wire"
)

// Leaving and closing (issue 26): a player gives up their seat for good,
// and a host closes a table nobody plays at yet, so that tables left
// behind do not stay under "Your tables" forever.

// leaveSeat gives up connection c's seat: free again while the table waits,
// played by a stand-in bot from then on during a match (and at a rated
// table, its player ranks last: rate).
func (t *table) leaveSeat(c *conn, m clientMsg) {
	switch {
	case c.seat < 0:
		t.sendError(c, wire.CodeNotSeated, "server: you are not seated here (or left already)", m.ID)
		return
	case t.st != nil && t.st.Over():
		t.sendError(c, wire.CodeOver, "server: the game is over: there is nothing to leave", m.ID)
		return
	case t.st == nil && c.seat == t.host:
		t.sendError(c, wire.CodeHostLeaves, "server: you host this table: close it instead", m.ID)
		return
	}
	i := c.seat
	seat := &t.seats[i]
	ns := store.Seat{} // free again
	if t.st != nil {
		// The name stays, so the others still see whose seat the bot
		// plays, and the player's id, so that a rated end ranks them
		// last (rate), after a restart too; the store no longer lists
		// the table as theirs (PlayerTables) and their sessions no
		// longer seat them (seatOfPlayer), nor does their token.
		ns = store.Seat{Name: seat.Name, Bot: standInLevel, Player: seat.Player}
	}
	ctx, cancel := t.srv.persist()
	defer cancel()
	if err := t.w.SetSeat(ctx, int(i), ns, nil); err != nil {
		t.srv.log.Error("leave", "table", t.id, "seat", i, "err", err)
		t.sendError(c, wire.CodeStore, "server: your leaving could not be saved; try again", m.ID)
		return
	}
	seat.Seat = ns
	if t.st != nil {
		if t.thinking != 0 && t.thinker == i {
			t.thinking = 0 // a stand-in's thought, ignored when it comes
		}
		seat.player, seat.pending, seat.turnBot = t.botFor(standInLevel, i), nil, false
	}
	t.dropAll(func(o *conn) bool { return o.seat == i }, wire.TypeLeft)
	t.broadcastInfo()
}

// closeTable closes the waiting table for its host's connection c.
func (t *table) closeTable(c *conn, m clientMsg) {
	switch {
	case c.seat < 0 || c.seat != t.host:
		t.sendError(c, wire.CodeNotHost, "server: only the table's host may close it", m.ID)
		return
	case t.st != nil:
		t.sendError(c, wire.CodeStarted, "server: the game has started: leave the table instead", m.ID)
		return
	}
	ctx, cancel := t.srv.persist()
	defer cancel()
	// Closed as expired, the store's word for a table nobody will play;
	// the reason says who closed it.
	if err := t.w.CloseTable(ctx, store.Expired, closedByHost); err != nil {
		t.srv.log.Error("close table", "table", t.id, "err", err)
		t.sendError(c, wire.CodeStore, "server: the table could not be closed; try again", m.ID)
		return
	}
	t.srv.log.Info("table closed", "table", t.id, "as", store.Expired, "because", closedByHost)
	t.closed = true
	t.dropAll(func(*conn) bool { return true }, wire.TypeClosed)
}

// dropAll tells the connections that which picks they are no longer at
// the table (a wire.Gone of type typ), then closes them.
func (t *table) dropAll(which func(*conn) bool, typ string) {
	b := codec.Encode(&wire.Gone{Type: typ})
	for c := range t.conns {
		if which(c) {
			t.send(c, b)
			t.drop(c)
		}
	}
}

// ended takes closed table t out of this node for good: a request for it
// finds it closed, and the lobby no longer lists it. It runs in the
// table's goroutine, which then ends.
func (s *Host) ended(t *table) {
	ts := s.tables
	// Marked ended first: a request that finds it no longer loaded then
	// finds it closed, rather than asking the store (adopt).
	ts.MarkEnded(t.id)
	ts.Lock()
	ts.Move(t.id, tableset.Loaded, tableset.Absent, t, nil)
	ts.Unlock()
	s.own.Release(t.id)
	s.lobbyGen.Add(1)
}
