package lobby

import (
	"errors"
	"fmt"
	"slices"
	"time"

	"tapis/bot"
	"tapis/game"
)

// The bounds of a request's wait for people before bots take the free
// seats.
const (
	// DefaultWait is the wait of a request that does not say.
	DefaultWait = 30 * time.Second
	// MaxWait is the longest wait a request may ask for, short of never.
	MaxWait = 10 * time.Minute
	// Never is the wait of a player who wants people only: bots never
	// take the free seats of their table. Any negative wait means never.
	Never time.Duration = -1
)

// The errors Check returns wrap one of these, so that the server can tell
// which field of a request was wrong.
var (
	ErrGame    = errors.New("lobby: unknown game")
	ErrPlayers = errors.New("lobby: bad number of players")
	ErrBot     = errors.New("lobby: unknown bot level")
	ErrWait    = errors.New("lobby: bad wait")
)

// Check checks a request to join the quick-match queue for game g (nil for
// a game the server does not have): players is the number of players
// wanted, 0 for any the game allows; bot the level of the bots that take
// the free seats once the wait is over (one of bot.Offered); wait how long
// to wait for people first, from 0 to MaxWait, or negative for never.
func Check(g game.Game, players int, level string, wait time.Duration) error {
	if g == nil {
		return ErrGame
	}
	if players != 0 {
		if err := game.CheckPlayers(g, players); err != nil {
			return fmt.Errorf("%w: %v (or 0 for any)", ErrPlayers, err)
		}
	}
	if !slices.Contains(bot.Offered, level) {
		return fmt.Errorf("%w: %q is not one of %v", ErrBot, level, bot.Offered)
	}
	if wait > MaxWait {
		return fmt.Errorf("%w: %v is longer than %v (a negative wait means never)", ErrWait, wait, MaxWait)
	}
	return nil
}
