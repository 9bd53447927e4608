package table

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/coder/websocket"

	"tapis/account"
	"tapis/store"
)

// What a player's session ending does to their sockets, and what a rename
// must obey (package account asks, through account.Config's Revoked and
// Renaming hooks, which package server sets to the Host's).
//
// Issue 24, finding 9: after a password change, a sign-out everywhere or
// an account deleted, a socket opened earlier kept moving for the seat and
// receiving its private peeks. A socket's seat is decided once, when it
// connects (a seat token, or the signed-in player's session), so the
// sockets of a player whose sessions end are closed: their browsers still
// signed in connect again, under a session that is. Finding 10: a seated
// player could rename to "alice" beside "Alice", which joining under that
// name is refused.

// revokeSubject carries a player's revocation to every node of a cluster:
// their sockets may be on any of them, as reseats are (players.go).
const revokeSubject = "tapis.players.revoked"

// revokedBye is the close code of a socket whose session ended: a policy
// closure, after which the page connects again as whoever it now is.
const revokedBye = websocket.StatusPolicyViolation

// Revoked closes the player's sockets on every node: account.Config's
// Revoked. A revocation of all sessions travels as the player's id
// followed by " all".
func (s *Host) Revoked(player string, all bool) {
	msg := player
	if all {
		msg += revokeAll
	}
	s.own.Everywhere(revokeSubject, []byte(msg), func() { s.revoke(player, all) })
}

// revokeAll ends a revocation message of all a player's sessions (an id
// holds no space).
const revokeAll = " all"

// heardRevoke revokes on this node when any node says so.
func (s *Host) heardRevoke(msg []byte) {
	player, all := strings.CutSuffix(string(msg), revokeAll)
	go s.revoke(player, all)
}

// revoke closes, at every table loaded on this node, the sockets opened
// by the player's sessions and those of the player's seats (opened with a
// seat token, which may have been given to a session now ended). If the
// account is deleted, its seats' tokens are voided too, so that nobody
// takes them back, and the stand-in plays them from now on. If all the
// sessions of an account with a username ended (the owner shutting
// someone out), its seats' tokens are voided as well, since a session
// now ended may have been given them (joining a table returns its seat's
// token): the owner's pages, signed in again, take their seats by their
// session (a page forgets a token refused twice).
func (s *Host) revoke(player string, all bool) {
	if player == "" {
		return
	}
	ctx, cancel := s.persist()
	defer cancel()
	p, err := s.cfg.Store.Player(ctx, player)
	deleted := err == nil && p.Deleted
	void := deleted || all && err == nil && p.Username != ""
	tables := s.tables.Tables()
	for _, t := range tables {
		t.post(ctx, func() { t.revoke(player, deleted, void) })
	}
}

// revoke is revoke at one table, on its goroutine: void says to void the
// player's seats' tokens, deleted that nobody comes back to them.
func (t *table) revoke(player string, deleted, void bool) {
	mine := map[int]bool{}
	for i, st := range t.seats {
		if st.Player == player && st.Bot == "" {
			mine[i] = true
		}
	}
	for c := range t.conns {
		if c.player == player || c.seat >= 0 && mine[int(c.seat)] {
			c.bye = revokedBye
			t.drop(c)
		}
	}
	if !void || len(mine) == 0 {
		return
	}
	ctx, cancel := t.srv.persist()
	defer cancel()
	for i := range mine {
		st := t.seats[i].Seat
		st.TokenHash = hashToken(randomToken()) // taken, by nobody who can connect with a token
		if deleted {
			// The store has cleared the name (DeletePlayer); the reseat
			// that clears it here may come after this.
			st.Name = ""
		}
		if err := t.w.SetSeat(ctx, i, st, nil); err != nil {
			t.srv.log.Error("void a seat's token", "table", t.id, "seat", i, "err", err)
			continue
		}
		t.seats[i].Seat = st
		if deleted {
			// Its grace period is over: nobody is coming back.
			t.seats[i].away = t.seats[i].away.AddDate(-1, 0, 0)
		}
	}
	if deleted && t.st != nil {
		t.standIn()
	}
}

// Renaming refuses to rename p to name if name reads like (nameKey) the
// name of another person seated at one of p's open tables: the rule a
// newcomer joining under that name obeys (seats.go). account.Config's
// Renaming. A table loaded on this node is asked; another is read from
// the store, which every seat change is written to before it is shown.
func (s *Host) Renaming(ctx context.Context, p store.Player, name string) error {
	ts, err := s.cfg.Store.PlayerTables(ctx, p.ID)
	if err != nil {
		return err
	}
	for _, pt := range ts {
		var seats []store.Seat
		t := s.tables.Get(pt.ID)
		if t != nil {
			err = t.call(ctx, func() {
				for _, st := range t.seats {
					seats = append(seats, st.Seat)
				}
			})
		}
		if t == nil || errors.Is(err, errTableClosed) {
			var saved store.Saved
			saved, err = s.cfg.Store.Load(ctx, pt.ID)
			seats = saved.Seats
		}
		if err != nil {
			return err
		}
		if clash := nameClash(seats, p.ID, name); clash != "" {
			return fmt.Errorf("%w: %s sits at table %s, and %s would read alike there; choose another name",
				account.ErrNameTaken, clash, pt.ID, name)
		}
	}
	return nil
}

// nameClash returns the name of a person other than player seated in
// seats whose name reads like name, or "".
func nameClash(seats []store.Seat, player, name string) string {
	k := nameKey(name)
	for _, st := range seats {
		if st.Bot == "" && st.TokenHash != "" && st.Player != player && nameKey(st.Name) == k {
			return st.Name
		}
	}
	return ""
}
