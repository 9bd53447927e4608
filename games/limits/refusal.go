package limits

import "tapis/game"

// Limits' own reasons for a refusal (game.Refusal), beside the shared
// game.Reason* ones. A colour in args is its REPLAY.md name ("red").
const (
	reasonHideFirst     = "hide_first"        // every player first hides their card(s)
	reasonHidden        = "already_hidden"    // args: seat
	reasonHideCount     = "hide_count"        // args: n, the cards to hide
	reasonNoColour      = "no_card_of_colour" // args: colour, n (1, or 2 when two of it are hidden)
	reasonHiddenAlready = "hide_over"         // the cards of this round are hidden already
	reasonLeadFirst     = "lead_first"        // the leader starts the active pile by placing a card
	reasonExchange      = "exchange_four"     // args: colour, n (held, fewer than 4)
	reasonAccuseSelf    = "accuse_self"       // accuse another player
	reasonNotPlaced     = "not_placed"        // args: seat, who placed no card this round
	reasonColour        = "unknown_colour"    // args: colour, the name given
)

// Reasons lists every reason Limits' refusals give: the shared ones it
// uses (game.Reason*) and its own.
func Reasons() []string {
	return []string{game.ReasonOver, game.ReasonNoSeat, game.ReasonNotYourTurn, game.ReasonBadMove, game.ReasonBadPlayers,
		game.ReasonBadOptions, game.ReasonBadStack, game.ReasonUnreadable, game.ReasonBadFields,
		game.ReasonOutOfRange,
		reasonHideFirst, reasonHidden, reasonHideCount, reasonNoColour,
		reasonHiddenAlready, reasonLeadFirst, reasonExchange, reasonAccuseSelf, reasonNotPlaced, reasonColour}
}

// deny is game.Refuse for Limits.
func deny(action, reason string, args map[string]any, format string, a ...any) error {
	return game.Refuse("limits", action, reason, args, format, a...)
}
