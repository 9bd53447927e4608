package cabo

import "tapis/game"

// Cabo's own reasons for a refusal (game.Refusal), beside the shared
// game.Reason* ones.
const (
	reasonPeekFirst = "peek_first"     // every player first makes their initial peek
	reasonPeeked    = "already_peeked" // args: seat
	reasonPeekCount = "peek_count"     // args: n, the slots to choose
	reasonPeekOver  = "peek_over"      // the initial peek is over
	reasonDrawn     = "card_drawn"     // a drawn card waits: replace a slot with it or discard it
	reasonDrawFirst = "draw_first"     // draw a card first
	reasonSetSize   = "set_size"       // give 1 slot, or 2 to 4 for a set
	reasonDeckEmpty = "deck_empty"     // no card is left to draw
	reasonCalled    = "cabo_called"    // args: seat, who called
	reasonEmptySlot = "empty_slot"     // args: seat, slot
	reasonNoPower   = "no_power"       // the drawn card does not have this power
	reasonSpyOwn    = "spy_own"        // spy is for another player's slot
	reasonSwapMine  = "swap_mine"      // one of the swapped slots must be yours
	reasonSwapTwo   = "swap_two"       // the swapped slots must be two players'
)

// Reasons lists every reason Cabo's refusals give: the shared ones it
// uses (game.Reason*) and its own.
func Reasons() []string {
	return []string{game.ReasonOver, game.ReasonNoSeat, game.ReasonNotYourTurn, game.ReasonBadMove, game.ReasonBadPlayers,
		game.ReasonBadOptions, game.ReasonBadStack, game.ReasonUnreadable, game.ReasonBadFields,
		game.ReasonBadOption, game.ReasonOutOfRange, game.ReasonTwice,
		reasonPeekFirst, reasonPeeked, reasonPeekCount, reasonPeekOver,
		reasonDrawn, reasonDrawFirst, reasonSetSize, reasonDeckEmpty, reasonCalled, reasonEmptySlot,
		reasonNoPower, reasonSpyOwn, reasonSwapMine, reasonSwapTwo}
}

// deny is game.Refuse for Cabo. The move that calls Cabo is named "cabo"
// in REPLAY.md; its refusals say "call" so that the sentence does not read
// "cabo: cabo: …", a doubled prefix to anyone reading it.
func deny(action, reason string, args map[string]any, format string, a ...any) error {
	if action == "cabo" {
		action = "call"
	}
	return game.Refuse("cabo", action, reason, args, format, a...)
}
