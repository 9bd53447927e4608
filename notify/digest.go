package notify

import (
	"context"
	"errors"
	"slices"
	"strconv"
	"time"

	"tapis/store"
)

// The daily digest (issue 29): a player who chose it gets their "your
// turn", invitation and game-over mails gathered into one mail a day,
// at Config.DigestAt, instead of one by one. Each such notification is
// written to the outbox on the pseudo-channel Digest instead of
// store.ChannelEmail, so it is as durable as any delivery: the sender
// claims it, puts it off (RetryDelivery) until its digest's time, then
// claims it again with the rest of that digest and sends them as one
// mail, whose idempotency key is the player and that time. One node at a
// time does this (a lease taken with Store.Pace), and its claims end with
// its lease, so that no digest is split between two nodes: a node that
// dies mid-send leaves the whole digest to the next, which sends it again
// under the same key.

// Digest is the daily digest: the pseudo-channel its deliveries wait on,
// and the kind of the choice that turns it on (store.Pref{Kind: Digest,
// Channel: store.ChannelEmail}).
const Digest = "digest"

// DigestKinds are the kinds a digest gathers; the others (a friend
// request, a deadline within the hour) are mailed at once.
var DigestKinds = []string{store.KindYourTurn, store.KindInvitation, store.KindGameOver}

// Digester is an e-mail Sender that can also send a digest: several
// deliveries to one player in one mail, under key as its idempotency
// key (as d.ID is a delivery's).
type Digester interface {
	SendDigest(ctx context.Context, key string, ds []store.Delivery) error
}

// digestMax bounds the deliveries one digest pass gathers.
const digestMax = 4096

// digester is the e-mail sender's digest, nil if it has none.
func (s *Service) digester() Digester {
	d, _ := s.cfg.Senders[store.ChannelEmail].(Digester)
	return d
}

// digested reports whether player chose the digest (prefs are theirs)
// and kind is one it gathers.
func (s *Service) digested(prefs []store.Pref, kind string) bool {
	return s.digester() != nil && slices.Contains(DigestKinds, kind) && chosen(prefs, Digest, store.ChannelEmail)
}

// nextDigest is the first digest time after t: Config.DigestAt past a
// midnight, UTC.
func (s *Service) nextDigest(t time.Time) time.Time {
	t = t.UTC()
	at := time.Date(t.Year(), t.Month(), t.Day(), 0, 0, 0, 0, time.UTC).Add(s.cfg.DigestAt)
	for !at.After(t) {
		at = at.AddDate(0, 0, 1)
	}
	return at
}

// StepDigest makes one pass of the digests, if this node takes the
// lease: it claims every digest delivery due (up to a bound), puts off
// those whose digest's time has not come, and sends the others, one mail
// per player and digest time. It says how many deliveries it claimed.
func (s *Service) StepDigest(ctx context.Context) int {
	dg := s.digester()
	if dg == nil {
		return 0
	}
	now := s.cfg.Now()
	until := now.Add(s.cfg.Claim)
	took, err := s.cfg.Store.Pace(ctx, "", "notify/"+Digest, now, until)
	if err != nil || !took {
		if err != nil && ctx.Err() == nil {
			s.cfg.Logger.Error("notify: the digests' lease", "err", err)
		}
		return 0
	}
	var ds []store.Delivery
	for len(ds) < digestMax {
		got, err := s.cfg.Store.ClaimDeliveries(ctx, s.cfg.Node, []string{Digest}, now, until, batch)
		if err != nil {
			if ctx.Err() == nil {
				s.cfg.Logger.Error("notify: claiming digests", "err", err)
			}
			break
		}
		ds = append(ds, got...)
		if len(got) < batch {
			break
		}
	}
	// One digest per player and time, in the order claimed (oldest first).
	type key struct {
		player string
		at     time.Time
	}
	groups := map[key][]store.Delivery{}
	var order []key
	for _, d := range ds {
		k := key{d.Player, s.nextDigest(d.Created)}
		if groups[k] == nil {
			order = append(order, k)
		}
		groups[k] = append(groups[k], d)
	}
	for _, k := range order {
		g := groups[k]
		if k.at.After(now) {
			s.mark(ctx, g, nil, k.at)
			continue
		}
		sctx, cancel := context.WithTimeout(ctx, s.cfg.Claim/2)
		err := dg.SendDigest(sctx, k.player+"."+strconv.FormatInt(k.at.Unix(), 10), g)
		cancel()
		// The first claim put it off; the others are tries.
		tries := g[0].Attempts - 1
		switch {
		case err == nil:
			s.mark(ctx, g, nil, time.Time{})
		case errors.As(err, new(permanent)) || tries >= s.cfg.Attempts:
			s.cfg.Logger.Warn("notify: a digest given up", "player", k.player, "attempts", tries, "err", err)
			s.mark(ctx, g, err, time.Time{})
		default:
			wait := min(30*time.Second<<min(max(tries-1, 0), 7), time.Hour)
			s.cfg.Logger.Info("notify: a digest to try again", "player", k.player, "in", wait, "err", err)
			s.mark(ctx, g, nil, s.cfg.Now().Add(wait))
		}
	}
	return len(ds)
}

// mark records a digest's deliveries: done (failed if err), or to claim
// again at retry if it is not zero.
func (s *Service) mark(ctx context.Context, g []store.Delivery, err error, retry time.Time) {
	now := s.cfg.Now()
	for _, d := range g {
		var mark error
		switch {
		case !retry.IsZero():
			mark = s.cfg.Store.RetryDelivery(ctx, d.ID, Digest, s.cfg.Node, retry)
		case err != nil:
			mark = s.cfg.Store.DeliveryDone(ctx, d.ID, Digest, s.cfg.Node, now, err.Error())
		default:
			mark = s.cfg.Store.DeliveryDone(ctx, d.ID, Digest, s.cfg.Node, now, "")
		}
		if mark != nil && ctx.Err() == nil {
			s.cfg.Logger.Warn("notify: marking a digest's delivery", "id", d.ID, "err", mark)
		}
	}
}
