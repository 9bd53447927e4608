package table

import "tapis/game"

// A game may have a memory rule (game.Entry's Forget; Cabo's is
// cabo.Forget): what a seat looked at privately it must remember by
// itself, unless the table was created with the memory aid
// (store.Table.MemoryAid). The live "state" messages keep the values; the
// "welcome" history, which only rebuilds the log of a page that connects
// again, is sent through the rule, so that a reload is no way to read
// every past look again. A game without a rule has nothing of the kind in
// its events, and the memory aid is refused for it (it would change
// nothing).

// forgetters maps each of games that has a memory rule to it.
func forgetters(games []game.Game) map[string]func(game.Event) any {
	out := map[string]func(game.Event) any{}
	for _, g := range games {
		if e, ok := game.EntryOf(g); ok && e.Forget != nil {
			out[g.Name()] = e.Forget
		}
	}
	return out
}

// recall is event e as the history of a reconnecting page may give it back.
func (t *table) recall(e game.Event) any {
	if f := t.srv.memRules[t.g.Name()]; f != nil && !t.memoryAid {
		return f(e)
	}
	return e.Data
}
