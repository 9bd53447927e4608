package dacapo

import "tapis/game"

// Da Capo!'s own reasons for a refusal (game.Refusal), beside the shared
// game.Reason* ones. A card in args is "1" to "10" or "J" (the Joker), a
// pile or helper pile its index from 0.
const (
	reasonNoCard      = "no_card_in_hand" // args: card
	reasonHelperEmpty = "helper_empty"    // args: index
	reasonOpponent    = "not_opponent"    // args: seat
	reasonStart       = "cannot_start"    // args: card: only a 1 or a Joker starts a pile
	reasonFit         = "does_not_fit"    // args: card, pile, value (the pile's), next (the card it needs)
	reasonHandLeft    = "hand_not_empty"  // args: n, the cards still held, when End is sent
	reasonRefill      = "can_refill"      // the hand can still be refilled
)

// Reasons lists every reason Da Capo!'s refusals give: the shared ones it
// uses (game.Reason*) and its own.
func Reasons() []string {
	return []string{game.ReasonOver, game.ReasonNoSeat, game.ReasonNotYourTurn, game.ReasonBadMove, game.ReasonBadPlayers,
		game.ReasonBadOptions, game.ReasonBadStack, game.ReasonUnreadable, game.ReasonBadFields,
		game.ReasonBadOption, game.ReasonOutOfRange,
		reasonNoCard, reasonHelperEmpty, reasonOpponent, reasonStart,
		reasonFit, reasonHandLeft, reasonRefill}
}

// deny is game.Refuse for Da Capo!.
func deny(action, reason string, args map[string]any, format string, a ...any) error {
	return game.Refuse("dacapo", action, reason, args, format, a...)
}
