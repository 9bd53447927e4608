package account

import (
	"context"
	"time"
)

// The Hasher's slots go to the networks waiting for one in turn (round
// robin), not to the requests in the order they came: issue 24 saw one
// address's 600 claims sent at once queue 511 hashes ahead of a sign-in
// from elsewhere, which waited 16 s. A request names its network
// (limit.Network: an IPv4 /24 or IPv6 /48) in its context (WithNetwork);
// each network may have a few requests waiting at once, and the one
// after them is refused at once (QueueFullError) rather than queued. So a
// newcomer's request waits behind at most one hash per other network
// waiting, whatever those networks send.

// DefaultQueue is how many hashes one network may have waiting for a slot
// at once when NewHasher is given none: a few people behind one address
// (a family, a classroom's NAT) signing in together, not a flood.
const DefaultQueue = 8

// QueueFullError is the error of a hash refused because the requests of its
// network already fill their share of the queue.
type QueueFullError struct{ Retry time.Duration }

func (e *QueueFullError) Error() string {
	return "account: too many passwords from your network are being checked: try again in a moment"
}

// networkKey is the context key of WithNetwork.
type networkKey struct{}

// WithNetwork returns ctx naming the network a hash is made for, so that
// a Hasher shares its slots fairly among networks. A context without one
// is in the network "" (tests, tools).
func WithNetwork(ctx context.Context, network string) context.Context {
	return context.WithValue(ctx, networkKey{}, network)
}

func networkOf(ctx context.Context) string {
	n, _ := ctx.Value(networkKey{}).(string)
	return n
}
