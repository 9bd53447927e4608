// Package notify tells players of what happened while they were away
// (issue 29): a friend request, an invitation, their turn, a game over, a
// deadline near. Every notification goes to the player's inbox (the
// in-app list, GET /api/me/inbox) and, for each channel the player chose
// for its kind (e-mail, push: opt-in, every one off until chosen), to a
// durable outbox in the store that a sender loop empties (outbox.go) and
// prunes: a
// notification is never lost across a restart, and each delivery is
// claimed by one node at a time, sent with the notification's id as its
// idempotency key.
package notify

import (
	"context"
	"crypto/rand"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"log/slog"
	"net/http"
	"slices"
	"time"

	"tapis/store"
)

// Config sets up a Service. Store and Player are required; zero fields
// take the defaults given.
type Config struct {
	Store store.Notifications
	// Player returns the signed-in player of a request, if any.
	Player func(r *http.Request) (store.Player, bool)
	// Senders are the channels this server sends on, by channel
	// (store.ChannelEmail, store.ChannelPush); a channel without one is
	// neither offered nor written to the outbox.
	Senders map[string]Sender
	// Node names this process's claims (default: random at start), so
	// that a node restarted never takes its old claims for its own.
	Node string
	// Claim is how long a claim of a delivery lasts before another node
	// may take it (default a minute): longer than a send takes.
	Claim time.Duration
	// Every is how often the sender loop looks for deliveries due when
	// nothing woke it (default 5 s): deliveries made on other nodes, and
	// retries.
	Every time.Duration
	// Attempts is how many times a delivery is tried before it is given
	// up (default 8).
	Attempts int
	// Keep is how long the inbox keeps a notification (default 30
	// days); the sender loop prunes older ones, and deliveries done
	// before then, every PruneEvery (default an hour).
	Keep, PruneEvery time.Duration
	// Pace is how often a channel may carry a kind about one table (the
	// payload's "table") to a player, by channel then kind: what comes
	// sooner goes to the inbox only. Default: "your turn" by e-mail once
	// an hour per table.
	Pace map[string]map[string]time.Duration
	// DigestAt is when the daily digests go (digest.go), as a time past
	// midnight, UTC (default 8 h: the morning in Europe).
	DigestAt time.Duration
	// Now is the clock (default time.Now); tests move it.
	Now    func() time.Time
	Logger *slog.Logger
}

// Service is the notifications' room and sender.
type Service struct {
	cfg Config
	// wake nudges the sender loop: a delivery was just written here.
	wake chan struct{}
}

// New makes a Service of c.
func New(c Config) *Service {
	if c.Node == "" {
		c.Node = newID()
	}
	if c.Claim <= 0 {
		c.Claim = time.Minute
	}
	if c.Every <= 0 {
		c.Every = 5 * time.Second
	}
	if c.Attempts <= 0 {
		c.Attempts = 8
	}
	if c.Keep <= 0 {
		c.Keep = 30 * 24 * time.Hour
	}
	if c.PruneEvery <= 0 {
		c.PruneEvery = time.Hour
	}
	if c.Pace == nil {
		c.Pace = map[string]map[string]time.Duration{store.ChannelEmail: {store.KindYourTurn: time.Hour}}
	}
	if c.DigestAt <= 0 || c.DigestAt >= 24*time.Hour {
		c.DigestAt = 8 * time.Hour
	}
	if c.Now == nil {
		c.Now = time.Now
	}
	if c.Logger == nil {
		c.Logger = slog.Default()
	}
	return &Service{cfg: c, wake: make(chan struct{}, 1)}
}

// newID returns a random id: 16 bytes, base64url.
func newID() string {
	b := make([]byte, 16)
	rand.Read(b)
	return base64.RawURLEncoding.EncodeToString(b)
}

// channels lists the channels this server sends on, in store.Channels'
// order.
func (s *Service) channels() []string {
	var out []string
	for _, c := range store.Channels {
		if s.cfg.Senders[c] != nil {
			out = append(out, c)
		}
	}
	return out
}

// Notify tells player of something of kind, with payload as its JSON:
// into their inbox, and onto each channel they chose for kind.
func (s *Service) Notify(ctx context.Context, player, kind string, payload any) error {
	if !slices.Contains(store.Kinds, kind) {
		return fmt.Errorf("notify: no kind %q", kind)
	}
	b, err := json.Marshal(payload)
	if err != nil {
		return fmt.Errorf("notify: %v", err)
	}
	now := s.cfg.Now()
	var on []string
	if chans := s.channels(); len(chans) > 0 {
		prefs, err := s.cfg.Store.NotifyPrefs(ctx, player)
		if err != nil {
			return err
		}
		for _, c := range chans {
			if chosen(prefs, kind, c) && s.reaches(ctx, c, player) && s.paced(ctx, c, kind, player, b, now) {
				if c == store.ChannelEmail && s.digested(prefs, kind) {
					c = Digest // mailed with the others at the day's digest
				}
				on = append(on, c)
			}
		}
	}
	n := store.Notification{ID: newID(), Player: player, Kind: kind, Payload: b, Created: now}
	if err := s.cfg.Store.Notify(ctx, n, on); err != nil {
		return err
	}
	if len(on) > 0 {
		select {
		case s.wake <- struct{}{}:
		default:
		}
	}
	return nil
}

// paced reports whether channel may carry kind to player now, about the
// table payload names, and takes that turn if so.
func (s *Service) paced(ctx context.Context, channel, kind, player string, payload []byte, now time.Time) bool {
	every := s.cfg.Pace[channel][kind]
	var p struct {
		Table string `json:"table"`
	}
	if every <= 0 || json.Unmarshal(payload, &p) != nil || p.Table == "" {
		return true
	}
	took, err := s.cfg.Store.Pace(ctx, player, channel+"/"+kind+"/"+p.Table, now, now.Add(every))
	if err != nil {
		s.cfg.Logger.Warn("notify: a pace", "channel", channel, "player", player, "err", err)
	}
	return took
}

// Reacher is a Sender that can tell whether it reaches a player (the
// e-mail channel: a verified address): no delivery is written on a
// channel that does not.
type Reacher interface {
	Reaches(ctx context.Context, player string) (bool, error)
}

// reaches reports whether channel's sender reaches player; one that
// cannot tell is tried.
func (s *Service) reaches(ctx context.Context, channel, player string) bool {
	r, ok := s.cfg.Senders[channel].(Reacher)
	if !ok {
		return true
	}
	yes, err := r.Reaches(ctx, player)
	if err != nil {
		s.cfg.Logger.Warn("notify: whether a channel reaches a player", "channel", channel, "player", player, "err", err)
	}
	return yes
}

// chosen reports whether prefs turn kind on for channel: every channel
// is off until chosen.
func chosen(prefs []store.Pref, kind, channel string) bool {
	for _, p := range prefs {
		if p.Kind == kind && p.Channel == channel {
			return p.On
		}
	}
	return false
}
