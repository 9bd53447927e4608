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

// Per-network turns cannot beat a flood from many networks (issue 24,
// finding 1: claims and sign-ins from 8 /24s at once pushed another
// network's sign-ins to p50 1.0 s, p99 3.49 s, from 44 ms at rest), and
// networks are cheap (IPv6 /48s). So the hashes of the people most worth
// protecting go first (limit.Fair.AcquireFirst): a sign-in from a browser
// carrying a valid device cookie for the account (device.go, a browser
// that signed in to it before), and a password change or deletion by a
// signed-in player whose browser carries one. The cookie is an HMAC,
// checked before the hash; an unknown username, a claim, or a browser
// without a valid cookie waits in the ordinary turns.

// priorityKey is the context key of withPriority.
type priorityKey struct{}

// withPriority returns ctx marking its hashes as a returning owner's, to
// be served before the ordinary turns.
func withPriority(ctx context.Context) context.Context {
	return context.WithValue(ctx, priorityKey{}, true)
}

func priorityOf(ctx context.Context) bool {
	p, _ := ctx.Value(priorityKey{}).(bool)
	return p
}
