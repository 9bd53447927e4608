// Package lobby is the public lobby and the quick-match queue: which
// waiting players to seat together, when bots take the free seats, and the
// checks on a player's request to queue.
//
// It keeps no state in process memory: the queue lives in the store, and a
// Matcher reads it afresh on every pass, so that several nodes can run
// matchers against one database. The store's SeatQueued settles their races:
// it seats a group only if every one of its players is still waiting.
package lobby
