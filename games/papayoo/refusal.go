package papayoo

import "tapis/game"

// Papayoo's own reasons for a refusal (game.Refusal), beside the shared
// game.Reason* ones. A card in args is its REPLAY.md name ("P20"), a suit
// its letter ("H").
const (
	reasonPassFirst = "pass_first"     // args: n, the cards every player passes first
	reasonPassed    = "already_passed" // args: seat
	reasonNotHeld   = "not_held"       // args: card
	reasonChosen    = "already_chosen" // args: card, already in the pass
	reasonPassCount = "pass_count"     // args: n, the cards to pass
	reasonPassLeft  = "pass_left"      // args: k (chosen), n (left to give)
	reasonPassOver  = "pass_over"      // the pass is over
	reasonFollow    = "must_follow"    // args: suit
	reasonBadCard   = "bad_card"       // args: card, a name that is no card
)

// Reasons lists every reason Papayoo's refusals give: the shared ones it
// uses (game.Reason*) and its own.
func Reasons() []string {
	return []string{game.ReasonOver, game.ReasonNoSeat, game.ReasonNotYourTurn, game.ReasonBadMove, game.ReasonBadPlayers,
		game.ReasonBadOptions, game.ReasonBadStack, game.ReasonUnreadable, game.ReasonBadFields,
		game.ReasonBadOption, game.ReasonTwice,
		reasonPassFirst, reasonPassed, reasonNotHeld, reasonChosen,
		reasonPassCount, reasonPassLeft, reasonPassOver, reasonFollow, reasonBadCard}
}

// deny is game.Refuse for Papayoo.
func deny(action, reason string, args map[string]any, format string, a ...any) error {
	return game.Refuse("papayoo", action, reason, args, format, a...)
}
