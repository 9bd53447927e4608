package table

import (
	"fmt"
	"sync"
	"time"

	"tapis/game"
	"tapis/metrics"
	"tapis/table/codec"
	"tapis/wire"
)

// A table's audience: the connections of its seats and its spectators,
// how many it admits, and what they are told when someone comes or goes.

// watchEvery is how often at most a table tells the spectator count.
const watchEvery = time.Second

// admit says why the table admits no more connections for seat (a
// spectator when seat is game.Spectator), or "" when it admits one; it
// then holds that place until the connection is attached (or leave gives
// it back), so that connections opening at once cannot overrun a cap.
func (t *table) admit(seat game.Seat) string {
	l := &t.srv.cfg
	n := t.coming[seat]
	switch {
	case seat < 0 && l.Watchers > 0 && t.watchers+n >= l.Watchers:
		return fmt.Sprintf("server: this table has %d spectators, as many as it takes; try again later", t.watchers+n)
	case seat >= 0 && l.SeatConns > 0 && t.seats[seat].conns+n >= l.SeatConns:
		return fmt.Sprintf("server: your seat has %d connections open already; close one", t.seats[seat].conns+n)
	}
	t.coming[seat]++
	return ""
}

// leave gives back a place admit held for a connection that never came.
func (t *table) leave(seat game.Seat) {
	if t.coming[seat]--; t.coming[seat] <= 0 {
		delete(t.coming, seat)
	}
}

// attach adds a connection and sends it the table as its seat sees it.
// A seat's connection changes what everyone sees of the seats; a
// spectator's changes only the count, told later (tellWatchers).
func (t *table) attach(c *conn) {
	t.leave(c.seat) // the place admit held is now taken
	if len(t.conns) == 0 {
		t.wake()
	}
	t.conns[c] = struct{}{}
	t.srv.cfg.Metrics.Connected(role(c.seat), 1)
	c.no = t.talk.Number()
	if c.seat >= 0 {
		t.seats[c.seat].conns++
		t.dismiss(c.seat)
		t.seen = time.Now()
		if t.st == nil && t.seats[c.seat].Bot == "" && t.seats[c.seat].conns == 1 {
			t.srv.listNow(t)
		}
	} else {
		t.watchers++
		t.noteWatchers()
	}
	// The welcome is encoded by the connection's goroutine, which sends
	// it before anything queued on out (serveWS): a connect costs the
	// table only the copy of the events it gives (welcome.go).
	c.welcome = &wire.Welcome[any]{Type: wire.TypeWelcome, Seat: int(c.seat), Table: t.info(), History: t.recent(c.seat)}
	if t.st != nil {
		t.tellTutorial(c)
		t.send(c, t.stateFor(c.seat, game.Spectator, nil))
	}
	if c.seat >= 0 {
		t.tellMissed(c)
	}
	t.chatHistory(c)
	if c.seat >= 0 {
		t.broadcastInfo()
	}
}

// wake restarts the clocks of a table nobody was at: nothing played
// meanwhile (attended), so the seats due to act and the absent ones get
// their whole time and grace period from now, as after a restart.
func (t *table) wake() {
	if t.days.on {
		return // its clocks ran meanwhile, and go on (days.go)
	}
	now := time.Now()
	for i := range t.seats {
		seat := &t.seats[i]
		if !seat.due.IsZero() {
			seat.due = now
		}
		if seat.conns == 0 {
			seat.away = now
		}
	}
}

// drop removes a connection; its outbox then closes the socket, with
// c.bye's code.
func (t *table) drop(c *conn) {
	if _, ok := t.conns[c]; !ok {
		return
	}
	delete(t.conns, c)
	t.srv.cfg.Metrics.Connected(role(c.seat), -1)
	c.out.Close(c.bye)
	if len(t.conns) == 0 {
		t.empty = time.Now()
	}
	if c.seat < 0 {
		t.watchers--
		t.noteWatchers()
		return
	}
	seat := &t.seats[c.seat]
	seat.conns--
	t.seen = time.Now()
	if seat.conns == 0 {
		seat.away = time.Now() // its grace period starts
	}
	t.broadcastInfo()
}

// noteWatchers arms the timer that tells the new spectator count.
func (t *table) noteWatchers() {
	if t.watchC == nil {
		t.watchC = time.After(watchEvery)
	}
}

// tellWatchers sends everyone the spectator count, if it changed since
// it was last told.
func (t *table) tellWatchers() {
	if t.watchers == t.told {
		return
	}
	t.told = t.watchers
	b := codec.Encode(wire.Watchers{Type: wire.TypeWatchers, Count: t.watchers})
	for c := range t.conns {
		t.send(c, b)
	}
}

// stateFor builds seat s's state message after the move whose events are
// evs (all of them; the seat's own are picked here).
func (t *table) stateFor(s game.Seat, by game.Seat, evs []game.Event) []byte {
	e := t.stateEncoder(by, evs)
	defer e.Release()
	return e.Seat(s)
}

// stateEncoder starts the state messages of the table's position after
// the move whose events are evs (package codec).
func (t *table) stateEncoder(by game.Seat, evs []game.Event) *codec.StateEncoder {
	// The encoder writes p out at once, so the result's slices may be
	// written over at the next message.
	if w, ok := t.st.(game.ResultWriter); ok {
		w.ResultTo(&t.result)
	} else {
		t.result = t.st.Result()
	}
	p := codec.StateParts{Match: t.match, N: t.n, Status: t.status(), By: by, Standin: t.byStandin && by >= 0, ToMove: t.st.ToMove(),
		Result: t.result, Rounds: t.rounds, TurnLeft: t.turnLeft()}
	return codec.NewStateEncoder(t.g, t.codec, t.st, &p, evs)
}

// stateBufs holds the buffers a move's state messages are encoded into:
// a connection's outbox copies what it is sent, so the buffer is free
// again once every connection has been sent its message.
var stateBufs = sync.Pool{New: func() any { b := make([]byte, 0, 8192); return &b }}

// broadcastState sends every connection its seat's state; one encoding per
// seat, shared by that seat's connections, all of them in one pooled
// buffer.
func (t *table) broadcastState(by game.Seat, evs []game.Event) {
	if t.st == nil {
		return
	}
	t.tellTutorial(nil)
	e := t.stateEncoder(by, evs)
	defer e.Release()
	bp := stateBufs.Get().(*[]byte)
	buf := (*bp)[:0]
	var at [game.MaxPlayers + 1][2]int // by seat+1 (a spectator's first): where its message is in buf
	for c := range t.conns {
		i := int(c.seat) + 1
		if i < 0 || i >= len(at) {
			t.send(c, e.Seat(c.seat)) // not a seat the game has
			continue
		}
		if at[i][1] == 0 {
			start := len(buf)
			buf = e.AppendSeat(buf, c.seat)
			at[i] = [2]int{start, len(buf)}
		}
		t.send(c, buf[at[i][0]:at[i][1]])
	}
	if cap(buf) <= 64<<10 {
		*bp = buf[:0]
		stateBufs.Put(bp)
	}
}

func (t *table) broadcastInfo() {
	// Seats may have changed: this node's lobby answers are read again.
	t.srv.lobbyGen.Add(1)
	b := codec.Encode(wire.TableUpdate{Type: wire.TypeTable, Table: t.info()})
	for c := range t.conns {
		t.send(c, b)
	}
}

// send queues a message for c; a client too slow to take its messages is
// dropped (it comes back with a fresh state when it reconnects). A
// connection dropped already is sent nothing: a reader's error posted
// before the drop may run after it, and its out is closed.
func (t *table) send(c *conn, b []byte) {
	if _, ok := t.conns[c]; !ok {
		return
	}
	if !c.out.Send(b) {
		t.srv.log.Warn("dropping a slow client", "table", t.id, "seat", c.seat)
		t.drop(c)
	}
}

func (t *table) sendError(c *conn, code, text string, id *int64) {
	t.srv.cfg.Metrics.Refused(code, answered(t.answering))
	t.send(c, codec.Encode(&wire.Error{Type: wire.TypeError, Code: code, Message: text, ID: id}))
}

// answered is the metrics' name of the message an error answers: none
// for a message refused before the table could read it (too large, not
// JSON, too fast).
func answered(typ string) string {
	if typ == "" {
		return "none"
	}
	return typ
}

// role is the metrics' name of a connection's role.
func role(s game.Seat) string {
	if s < 0 {
		return metrics.RoleSpectator
	}
	return metrics.RoleSeat
}
