package cabo

import (
	"encoding/json"

	"tapis/game"
)

// Entry is Cabo as Tapis knows it beyond its rules (game.Entry): the bots'
// budgets, their ratings, the memory rule, how the client draws it, and
// the conformance suite's tables.
func (Game) Entry() game.Entry {
	cfgs := game.Configs(MinPlayers, MaxPlayers)
	for _, o := range []string{
		`{"hand_size":6}`,
		`{"swap_opponents":true}`,
		`{"initial_peek":0,"reset_at_100_to":70,"max_resets":1}`,
	} {
		cfgs = append(cfgs, game.Config{Players: 3, Options: json.RawMessage(o)})
	}
	return game.Entry{
		Game: Game{},
		// bot.Budget says how these were chosen: hard at 3,000 closes
		// some 83% of the gap to the cheating bot at 2 players, and
		// searches 3,000*2/n at n seats, where an iteration costs more.
		Levels: game.Levels{Normal: 300, Hard: 3000, HardSeats: 2},
		// rating's anchors.go says how these were measured.
		Anchors: map[string]float64{"random": -16.11, "easy": 36.07, "normal": 35.47, "hard": 37.63},
		Forget:  Forget,
		Look:    game.Look{Title: "Cabo", Scoring: "low", Round: "round", Screen: "cabo.js"},
		Trials:  []game.Trial{{Configs: cfgs}},
		Reasons: Reasons(),
	}
}

// Forget is Cabo's memory rule. A player looks at cards privately (the
// initial peek, a 7 or 8's peek, a 9 or 10's spy, the card they draw) and
// must remember them: the screen shows such a card for a few seconds, and
// nothing may give it back later, unless the table was created with the
// memory aid.
//
// The live "state" messages keep the values: the screen needs them to
// show the look at all, once, as the rules allow. What must not carry them
// is the "welcome" history, which exists only to rebuild the log of a page
// that connects again: a reload would otherwise be a way to read every
// past look again. So the server strips them before sending, rather than
// trust the client to hide them: a seat is sent only what the table's
// rules let it re-read. The seat loses nothing it needs to play: its view
// is the current state, which never holds a face-down card (the drawn
// card in hand is in the view while it is held). Bots and stand-ins are
// still told everything; they remember by themselves anyway.
//
// Forget drops the card values of an event told to a seat alone (its
// Seen: a peek's, a spy's, a draw's). A failed set's Seen is public, shown
// to everyone and so a public fact, and stays.
func Forget(e game.Event) any {
	ev, ok := e.Data.(Event)
	if !ok || e.To == game.Public || ev.Seen == nil {
		return e.Data
	}
	ev.Seen = nil
	return ev
}
