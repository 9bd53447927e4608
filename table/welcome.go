package table

import (
	"slices"

	"tapis/game"
)

// What a connection costs the table's goroutine, bounded (issue 24,
// finding 4: on a table with 20,700 moves, a 330 KB welcome, 48 spectator
// sockets reconnecting from one address pushed the table's move round
// trip from 6.5 ms to 303 ms median, as every connect encoded the whole
// history on the table's goroutine, and connects were not paced).
//
// The welcome carries the latest welcomeEvents events the seat may see,
// not the whole match: it rebuilds the page's log, which keeps no more
// (app.js), and everything else the page shows comes from the state
// that follows it (view, scores of every round). And the WebSockets
// opened to one table from one network are paced (Limits.ConnectEvery).

// welcomeEvents is how many events a welcome's history holds at most:
// as many as the web client's log keeps.
const welcomeEvents = 500

// recent is the history a welcome gives seat s: its latest welcomeEvents
// events, oldest first, as a reconnecting page may see them (recall).
// It walks back from the end, so a long match costs no more than a short
// one, unless the seat sees few of its events.
func (t *table) recent(s game.Seat) []any {
	out := []any{}
	evs := t.history.Events
	for i := len(evs) - 1; i >= 0 && len(out) < welcomeEvents; i-- {
		if evs[i].To.Has(s) {
			out = append(out, t.recall(evs[i]))
		}
	}
	slices.Reverse(out)
	return out
}
