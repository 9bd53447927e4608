package notify

import (
	"context"
	"errors"
	"time"

	"tapis/store"
)

// Sender sends a delivery on one channel. It gives d.ID to the other end
// as the send's idempotency key (an e-mail's Message-ID, a push's topic),
// because a node that dies after sending and before marking the delivery
// sent leaves it to be sent again.
type Sender interface {
	Send(ctx context.Context, d store.Delivery) error
}

// Permanent wraps a send's error that trying again will not mend (an
// address refused, a push subscription gone): the delivery is given up.
func Permanent(err error) error { return permanent{err} }

type permanent struct{ error }

func (p permanent) Unwrap() error { return p.error }

// batch is how many deliveries one claim takes.
const batch = 16

// Run sends the outbox's deliveries until ctx ends: when Notify wrote
// one on this node, and every Config.Every for those written elsewhere
// and those to try again. Every Config.PruneEvery it prunes the inbox
// and the outbox (Prune).
func (s *Service) Run(ctx context.Context) {
	tick := time.NewTicker(s.cfg.Every)
	defer tick.Stop()
	prune := time.NewTicker(s.cfg.PruneEvery)
	defer prune.Stop()
	s.Prune(ctx)
	for {
		if len(s.channels()) > 0 {
			for s.Step(ctx) == batch {
			}
			s.StepDigest(ctx)
		}
		select {
		case <-ctx.Done():
			return
		case <-s.wake:
		case <-tick.C:
		case <-prune.C:
			s.Prune(ctx)
		}
	}
}

// Prune removes the notifications older than Config.Keep (but those
// whose deliveries wait) and the deliveries done before then.
func (s *Service) Prune(ctx context.Context) {
	n, err := s.cfg.Store.PruneNotifications(ctx, s.cfg.Now().Add(-s.cfg.Keep))
	switch {
	case err != nil && ctx.Err() == nil:
		s.cfg.Logger.Error("notify: pruning", "err", err)
	case n > 0:
		s.cfg.Logger.Info("notify: pruned", "notifications", n)
	}
}

// Step claims the deliveries due, up to a batch, sends them and marks
// each, and says how many it claimed. A delivery claimed is the claimer's
// until its claim ends: if this process dies before marking it, another
// (or this one restarted) claims and sends it again then.
func (s *Service) Step(ctx context.Context) int {
	now := s.cfg.Now()
	ds, err := s.cfg.Store.ClaimDeliveries(ctx, s.cfg.Node, s.channels(), now, now.Add(s.cfg.Claim), batch)
	if err != nil {
		if ctx.Err() == nil {
			s.cfg.Logger.Error("notify: claiming deliveries", "err", err)
		}
		return 0
	}
	for _, d := range ds {
		s.send(ctx, d)
	}
	return len(ds)
}

// send sends one delivery claimed and records how it went.
func (s *Service) send(ctx context.Context, d store.Delivery) {
	sctx, cancel := context.WithTimeout(ctx, s.cfg.Claim/2)
	err := s.cfg.Senders[d.Channel].Send(sctx, d)
	cancel()
	now := s.cfg.Now()
	var mark error
	switch {
	case err == nil:
		mark = s.cfg.Store.DeliveryDone(ctx, d.ID, d.Channel, s.cfg.Node, now, "")
	case errors.As(err, new(permanent)) || d.Attempts >= s.cfg.Attempts:
		s.cfg.Logger.Warn("notify: a delivery given up", "id", d.ID, "channel", d.Channel, "attempts", d.Attempts, "err", err)
		mark = s.cfg.Store.DeliveryDone(ctx, d.ID, d.Channel, s.cfg.Node, now, err.Error())
	default:
		// Back off: 30 s, 1 min, 2 min... up to an hour.
		wait := min(30*time.Second<<min(max(d.Attempts-1, 0), 7), time.Hour)
		s.cfg.Logger.Info("notify: a delivery to try again", "id", d.ID, "channel", d.Channel, "in", wait, "err", err)
		mark = s.cfg.Store.RetryDelivery(ctx, d.ID, d.Channel, s.cfg.Node, now.Add(wait))
	}
	if mark != nil && ctx.Err() == nil {
		// ErrNotFound: the claim ended and another node took it; it may
		// send it again, under the same key.
		s.cfg.Logger.Warn("notify: marking a delivery", "id", d.ID, "channel", d.Channel, "err", mark)
	}
}
