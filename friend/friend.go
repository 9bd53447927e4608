// Package friend is the friends list (issue 29): requests by username,
// accepting, declining, removing, the list with who is online, and
// blocks. A block is silent: the player blocked sees nothing different
// (their request to the one who blocked them stays pending for them, and
// nothing says why); what a block refuses elsewhere (invitations, seats,
// chat) asks Blocked.
package friend

import (
	"context"
	"log/slog"
	"net/http"
	"time"

	"golang.org/x/time/rate"

	"tapis/limit"
	"tapis/store"
)

// Store is what the friends list needs of the store.
type Store interface {
	store.Friends
	// Player and PlayerByUsername are store.Players'.
	Player(ctx context.Context, id string) (store.Player, error)
	PlayerByUsername(ctx context.Context, key string) (store.Player, error)
	// Load is store.Store's: the table a friend is invited to.
	Load(ctx context.Context, table string) (store.Saved, error)
	// Pace is store.Notifications': one invitation per friend and table
	// per InviteEvery.
	Pace(ctx context.Context, player, key string, now, until time.Time) (bool, error)
}

// RequestEvery is how long after withdrawing a request to a player a
// new request to them notifies nobody (it is answered alike): asking,
// withdrawing and asking again would otherwise notify them at each turn.
// A request made again after the other declined it notifies them.
const RequestEvery = 24 * time.Hour

// InviteEvery is how often one player may invite one friend to one
// table: what comes sooner is answered alike and notifies nobody.
const InviteEvery = time.Hour

// Presence says which players are online now (connected to a table or
// the site), for the friends list. A server without one shows nobody's.
type Presence interface {
	Online(players []string) map[string]bool
}

// Notifier tells a player of something (package notify): a friend
// request made to them. A failed notice does not fail the request.
type Notifier interface {
	Notify(ctx context.Context, player, kind string, payload any) error
}

// keysHeld bounds the players and networks each default rate tracks.
const keysHeld = 1 << 16

// Config sets up a Service. Store and Player are required; zero fields
// take the defaults given.
type Config struct {
	Store Store
	// Player returns the signed-in player of a request, if any.
	Player func(r *http.Request) (store.Player, bool)
	// Network is the limit key of a request's network (limit.Network);
	// default: none, no limit per network.
	Network func(r *http.Request) string
	// Presence and Notifier may be nil: nobody is shown online, nobody is
	// notified.
	Presence Presence
	Notifier Notifier
	// PerPlayer and PerNetwork bound the friend requests and blocks one
	// player, and one network, make, so that nobody floods players with
	// requests. Defaults: per player 10 at once, then one a minute; per
	// network 30 at once, then one every 20 s.
	PerPlayer, PerNetwork *limit.Rates
	// MaxIncoming bounds the friend requests a player may have waiting
	// (default 50); PerRecipient the new ones they receive (default 20
	// at once, then one every 3 minutes; counted on this node). Both
	// keep many accounts from flooding one player (flood.go).
	MaxIncoming  int
	PerRecipient *limit.Rates
	// Now is the clock (default time.Now).
	Now    func() time.Time
	Logger *slog.Logger
}

// Service is the friends list's room.
type Service struct {
	cfg Config
}

// New makes a Service of c.
func New(c Config) *Service {
	if c.PerPlayer == nil {
		c.PerPlayer = limit.NewRates(rate.Every(time.Minute), 10, keysHeld)
	}
	if c.PerNetwork == nil {
		c.PerNetwork = limit.NewRates(rate.Every(20*time.Second), 30, keysHeld)
	}
	if c.MaxIncoming <= 0 {
		c.MaxIncoming = 50
	}
	if c.PerRecipient == nil {
		c.PerRecipient = limit.NewRates(rate.Every(3*time.Minute), 20, keysHeld)
	}
	if c.Now == nil {
		c.Now = time.Now
	}
	if c.Logger == nil {
		c.Logger = slog.Default()
	}
	return &Service{cfg: c}
}

// Blocked reports whether player was blocked by any of others, for a
// refusal elsewhere (an invitation, a seat, a chat line); a store that
// fails answers false with its error.
func (s *Service) Blocked(ctx context.Context, player string, others ...string) (bool, error) {
	by, err := s.cfg.Store.BlockedBy(ctx, player, others)
	return len(by) > 0, err
}
