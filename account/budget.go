package account

import (
	"context"
	"net/http"
	"time"

	"tapis/limit"
	"tapis/store"
)

// What a password hash costs its asker before it runs. A hash takes
// tens of milliseconds of a processor and 19 MiB, so each one spends
// tokens of every budget it falls under (its address, its network, the
// signed-in player asking, the account tried) and a player has one under
// way at a time; the Hasher then shares its slots among networks in turn
// (fair.go). Issue 24, finding 1: 20 guests of one address sending 30
// claims each at once ran 511 hashes and made a sign-in from elsewhere
// wait 16 s.

// charge is one budget a hash spends a token of: key's in rates.
type charge struct {
	rates *limit.Rates
	key   string
}

// hashing takes player's one hash at a time (player: the signed-in
// player asking, "" for none) and spends, before a hash for r, a token of
// r's address and network, of player and of each of more. The address is
// asked before the others, so that one client trying many accounts is stopped without
// using up their budgets. It returns the context to hash under, which
// names r's network for the Hasher's turns, and done, to call once the
// hash is over; or a *LimitError.
func (s *Service) hashing(r *http.Request, player string, more ...charge) (context.Context, func(), error) {
	// One at a time first: the requests a player sends at once are
	// refused without spending the budgets the one under way needs.
	done := func() {}
	if player != "" {
		release, ok := s.busy.Acquire(player)
		if !ok {
			return nil, nil, &LimitError{What: "password attempts at once (one of yours is being checked)", Retry: time.Second}
		}
		done = release
	}
	addr := s.proxies.Client(r)
	network := limit.Network(addr)
	all := append([]charge{{s.addresses, limit.Key(addr)}, {s.networks, network}, {s.perPlayer, player}}, more...)
	for _, c := range all {
		if c.key == "" && c.rates != s.addresses {
			continue
		}
		if err := spend(c); err != nil {
			done()
			return nil, nil, err
		}
	}
	return WithNetwork(r.Context(), network), done, nil
}

// checkPassword verifies password against p's stored hash under ctx
// (the budgets spent: hashing), and stores a fresh hash if the stored one
// is weaker than today's. A wrong password is (false, nil); an error is a
// failure (a malformed stored hash, the request given up).
func (s *Service) checkPassword(ctx context.Context, p store.Player, password string) (bool, error) {
	ok, err := s.hasher.Verify(ctx, password, p.Password)
	if err != nil || !ok {
		return false, err
	}
	if NeedsRehash(p.Password) {
		s.rehash(ctx, p.ID, password)
	}
	return true, nil
}

// spend spends a token of c, or returns a *LimitError.
func spend(c charge) error {
	if retry, ok := c.rates.Allow(c.key); !ok {
		return &LimitError{What: "password attempts", Retry: retry}
	}
	return nil
}

// rehash stores a fresh hash of player's password, just verified against
// a hash made at a lower cost than today's: the password is at hand only
// now. Failing to is no reason to refuse a correct password, so errors
// are dropped and the next sign-in tries again.
func (s *Service) rehash(ctx context.Context, player, password string) {
	if phc, err := s.hasher.Hash(ctx, password); err == nil {
		_ = s.players.SetPassword(ctx, player, phc)
	}
}
