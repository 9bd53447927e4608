// Package lobby is where a player finds a table: the public lobby, a
// player's own unfinished tables, and the quick-match queue (Service, with
// its routes), and quick match's matcher: which waiting players to seat
// together, when bots take the free seats, and the checks on a player's
// request to queue.
//
// It keeps no state in process memory but a second's cache of the public
// list: the queue lives in the store, and a Matcher reads it afresh on
// every pass, so that several nodes can run matchers against one database.
// The store's SeatQueued settles their races: it seats a group only if
// every one of its players is still waiting. The table host builds the
// tables quick match seats (Host), as it builds its own.
package lobby
