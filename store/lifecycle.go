package store

import (
	"fmt"
	"time"
)

// A table's life, as the store sees it: open while it waits for players
// (no match yet), while a match is played, and once its latest match is
// over (until "play again" starts the next); then closed for one of the
// reasons below, for good. Waiting, playing and over follow from the
// matches; closed is recorded (CloseTable), because nothing else shows it.

// Closed says whether and why a table was closed.
type Closed string

const (
	// NotClosed is an open table's state.
	NotClosed Closed = ""
	// Expired: the table waited for players and nobody came in time.
	Expired Closed = "expired"
	// Abandoned: the table's match was left unfinished with no human
	// connected for too long.
	Abandoned Closed = "abandoned"
	// Broken: the table could not be restored (a row that does not
	// decode, a move its game refuses); the reason says what failed.
	Broken Closed = "broken"
)

// Valid reports whether c is a state a table may be closed in.
func (c Closed) Valid() bool { return c == Expired || c == Abandoned || c == Broken }

// Summary is an open table without its seats or moves: enough for a
// server to decide, without replaying anything, what to do with it at
// start (wait for players, load it when someone comes, expire it, or
// close it as abandoned).
type Summary struct {
	ID      string
	Game    string
	Players int
	Created time.Time
	Creator string
	Active  time.Time
	// Started: the table has a match (not over: Open lists no other).
	Started bool
	// Seated is how many seats are taken: bots, and humans with a token.
	Seated int
	// Problem, if not empty, says why the table's row could not be read
	// whole; the other fields hold what could. A server marks such a
	// table Broken rather than fail to start.
	Problem string
}

// MaxPlayers bounds the seats a stored table may claim (a store refuses
// more): no game has more than a handful, and a damaged row claiming
// millions must not make Load allocate them.
const MaxPlayers = 64

// CheckPlayers says what is wrong with a table's number of players, if
// anything: every store refuses a table, and reads back as damaged a row,
// whose number is out of bounds.
func CheckPlayers(n int) error {
	if n < 1 || n > MaxPlayers {
		return fmt.Errorf("%d players (want 1 to %d)", n, MaxPlayers)
	}
	return nil
}
