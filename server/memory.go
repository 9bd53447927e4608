package server

import (
	"tapis/game"
	"tapis/games/cabo"
)

// Memory is a rule. In Cabo a player looks at cards privately (the
// initial peek, a 7 or 8's peek, a 9 or 10's spy, the card they draw) and
// must remember them: the screen shows such a card for a few seconds, and
// nothing may give it back later, unless the table was created with the
// memory aid (store.Table.MemoryAid).
//
// The live "state" messages keep the values: the screen needs them to show
// the look at all, once, as the rules allow. What must not carry them is
// the "welcome" history, which exists only to rebuild the log of a page
// that connects again: a reload would otherwise be a way to read every past
// look again. So the server strips them before sending, rather than trust
// the client to hide them: a seat is sent only what the table's rules let
// it re-read. The seat loses nothing it needs to play: its view is the
// current state, which never holds a face-down card (the drawn card in
// hand is in the view while it is held). Bots and stand-ins are still told
// everything; they remember by themselves anyway.

// forgetters maps each game where memory matters to the function that
// takes out of one event what a seat saw privately. A game without an
// entry has nothing of the kind in its events: Papayoo's, Limits' and Da
// Capo!'s private events are a seat's own hand, hidden and drawn cards,
// which its view shows for as long as they are its own, so their log
// repeats nothing the seat is meant to forget. The memory aid is refused
// for those games (it would change nothing).
var forgetters = map[string]func(game.Event) any{
	"cabo": forgetCabo,
}

// forgetCabo drops the card values of an event told to a seat alone (its
// Seen: a peek's, a spy's, a draw's). A failed set's Seen is public, shown
// to everyone and so a public fact, and stays.
func forgetCabo(e game.Event) any {
	ev, ok := e.Data.(cabo.Event)
	if !ok || e.To == game.Public || ev.Seen == nil {
		return e.Data
	}
	ev.Seen = nil
	return ev
}

// recall is event e as the history of a reconnecting page may give it back.
func (t *table) recall(e game.Event) any {
	if f := forgetters[t.g.Name()]; f != nil && !t.memoryAid {
		return f(e)
	}
	return e.Data
}
