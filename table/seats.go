package table

import (
	"errors"
	"time"

	"tapis/game"
	"tapis/store"
)

// Who sits where: a guest or a signed-in player taking a seat, the seat of
// a player, and the seats still free. The table's goroutine runs all of it.

// join seats a guest in the first free human seat and returns its token.
// A signed-in player (player, their id) who sits at the table already gets
// their seat back, without a new token: their session reaches it.
func (t *table) join(name, player string) (game.Seat, string, error) {
	if s, ok := t.seatOfPlayer(player); ok {
		return s, "", nil
	}
	if t.nameTaken(name) {
		return 0, "", errNameTaken
	}
	for i, s := range t.seats {
		if s.Bot != "" || s.TokenHash != "" {
			continue
		}
		token := randomToken()
		ns := store.Seat{Name: name, TokenHash: hashToken(token), Player: player}
		// The seat that fills the table and the match it starts are one
		// write: no crash between them leaves a full table unstarted.
		var start *store.Start
		if t.st == nil && t.freeSeats() == 1 {
			start = &store.Start{No: t.match + 1, Seed: t.srv.cfg.Seed()}
		}
		ctx, cancel := t.srv.persist()
		defer cancel()
		if err := t.w.SetSeat(ctx, i, ns, start); err != nil {
			return 0, "", err
		}
		t.seats[i].Seat = ns
		// A guest who has just sat down is not taken for gone
		// (seatbot.go) before their page has had time to connect.
		t.seats[i].away = time.Now()
		t.seen = time.Now()
		t.broadcastInfo()
		if start != nil {
			t.open(start.No, start.Seed)
			t.tellStart(game.Only(game.Seat(i)))
		}
		return game.Seat(i), token, nil
	}
	return 0, "", errFull
}

// seatOfPlayer returns the seat of the player whose id this is, or false
// (always for "", a request without a player).
func (t *table) seatOfPlayer(player string) (game.Seat, bool) {
	if player == "" {
		return game.Spectator, false
	}
	for i, s := range t.seats {
		if s.Player == player && s.Bot == "" {
			return game.Seat(i), true
		}
	}
	return game.Spectator, false
}

var (
	errFull      = errors.New("server: every seat is taken")
	errNameTaken = errors.New("server: a player of that name already sits at this table: choose another name")
)

func (t *table) full() bool { return t.freeSeats() == 0 }

// freeSeats is how many human seats nobody has taken.
func (t *table) freeSeats() int {
	n := 0
	for _, s := range t.seats {
		if s.Bot == "" && s.TokenHash == "" {
			n++
		}
	}
	return n
}

// seated reports whether every seat is taken, by a bot or a person.
func seated(seats []store.Seat) bool {
	for _, s := range seats {
		if s.Bot == "" && s.TokenHash == "" {
			return false
		}
	}
	return true
}
