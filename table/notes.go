package table

import (
	"context"

	"tapis/game"
	"tapis/store"
)

// Notifications from tables (issue 29): a move that makes it a person's
// turn tells them (store.KindYourTurn) if they have no socket open at the
// table, and a match's end tells every seated person without one
// (store.KindGameOver). Package notify keeps them in the player's inbox
// and sends them on the channels the player chose, at its pace (a "your
// turn" mail at most once an hour per table).

// Notifier tells a player of something (a *notify.Service).
type Notifier interface {
	Notify(ctx context.Context, player, kind string, payload any) error
}

// UseNotifier makes the host tell players of their turns and their
// matches' ends through n. Package server calls it once, before Start.
// If n is also a Warner, the host warns the players of turn-based
// tables whose time runs out within the hour through it (warn.go).
func (s *Host) UseNotifier(n Notifier) {
	s.notifier = n
	s.warner, _ = n.(Warner)
}

// turnNote is the payload of a "your turn" notification; an e-mail or a
// push links to its table.
type turnNote struct {
	Table string    `json:"table"`
	Game  string    `json:"game"`
	Seat  game.Seat `json:"seat"`
	Match int       `json:"match"`
	N     int       `json:"n"`
}

// overNote is the payload of a "game over" notification.
type overNote struct {
	Table string `json:"table"`
	Game  string `json:"game"`
	Match int    `json:"match"`
}

// tellStart tells the people away from a turn-based table that its match
// has begun and they are due (notifyMove), but those in here, who have
// just sat down: nobody is expected there when one of its players
// presses "play again", or when a friend takes the last seat days after
// it was made. At a real-time table the players are there.
func (t *table) tellStart(here game.Seats) {
	if t.days.on && t.st != nil {
		t.notifyMove(here)
	}
}

// notifyMove tells the people away from the table what the move just
// applied changed for them, was being the seats due to act before it:
// those it made due, or, when it ended the match, everyone seated. A
// seat a stand-in plays is not told it must act: the stand-in does. It
// runs in the table's goroutine, after the move is stored, and writes
// before the next move is applied, so that no notification outruns
// another.
func (t *table) notifyMove(was game.Seats) {
	n := t.srv.notifier
	if n == nil {
		return
	}
	over := t.st.Over()
	due := t.st.ToMove()
	for i := range t.seats {
		seat := &t.seats[i]
		if seat.Bot != "" || seat.Player == "" || seat.conns > 0 {
			continue
		}
		kind, payload := store.KindGameOver, any(overNote{Table: t.id, Game: t.g.Name(), Match: t.match})
		if !over {
			s := game.Seat(i)
			if !due.Has(s) || was.Has(s) || seat.player != nil {
				continue
			}
			kind, payload = store.KindYourTurn, turnNote{Table: t.id, Game: t.g.Name(), Seat: s, Match: t.match, N: t.n}
		}
		ctx, cancel := t.srv.persist()
		if err := n.Notify(ctx, seat.Player, kind, payload); err != nil {
			t.srv.log.Warn("notify", "table", t.id, "kind", kind, "err", err)
		}
		cancel()
	}
}
