package account

import (
	"context"
	"crypto/rand"
	"encoding/base64"
	"errors"
	"fmt"
	"net/http"
	"time"

	"golang.org/x/time/rate"

	"tapis/limit"
	"tapis/store"
)

// CookieName is the name of the session cookie.
const CookieName = "tapis_session"

// DefaultLifetime is how long a session lasts from its sign-in when
// Config.Lifetime is zero. It does not slide: a month after signing in, a
// browser signs in again (a guest's browser gets a new guest).
const DefaultLifetime = 30 * 24 * time.Hour

// keysHeld bounds the clients and accounts each default rate limit tracks
// at once (see limit.Rates for what happens past it).
const keysHeld = 1 << 16

// Config sets up a Service. Zero fields take the defaults given.
type Config struct {
	// Players keeps players and sessions; required.
	Players store.Players
	// Hasher hashes and checks passwords (default NewHasher(0)).
	Hasher *Hasher
	// Now is the clock (default time.Now); tests move it.
	Now func() time.Time
	// Lifetime is how long a new session lasts (default DefaultLifetime).
	Lifetime time.Duration
	// Proxies are the reverse proxies trusted to say which client a
	// request comes from and whether it came over TLS (default none).
	Proxies limit.Proxies
	// Guests bounds the guests one client address may create (default
	// 20 at once, then one every 10 s), so that a script cannot fill the
	// store with players.
	Guests *limit.Rates
	// Accounts and Addresses bound the password checks (sign-ins, and a
	// password given to change it or delete an account) made against one
	// account, by its username key, and from one client address. Every
	// check spends a token before any hashing, so that a flood, even of
	// requests sent at once, is refused without costing a hash; a
	// successful sign-in spends one too, which a player signing in on a
	// few devices never notices. Defaults: per account 10 at once, then
	// one a minute; per address 30 at once, then one every 20 s.
	// Only usernames that exist have a budget, so that strangers trying
	// made-up usernames cannot push a locked account's budget out of
	// memory (issue 24, finding 11).
	Accounts  *limit.Rates
	Addresses *limit.Rates
	// Networks and PerPlayer bound the hashes (claims, sign-ins, password
	// checks) asked for from one network (limit.Network: an IPv4 /24 or
	// IPv6 /48) and by one signed-in player. Defaults: per network 60 at
	// once, then one every 2 s; per player 6 at once, then one every
	// 20 s. A player also has one hash at a time at most: a second asked
	// for while one runs is refused.
	Networks  *limit.Rates
	PerPlayer *limit.Rates
	// Devices bounds the sign-ins tried from a browser holding a device
	// cookie (device.go) for the account it names, instead of the
	// account's own budget: strangers' wrong guesses lock the account
	// for strangers only. Default 10 at once, then one a minute, as an
	// account's. DeviceKey signs device cookies (default: random at
	// start, so that the cookies of a restarted server or of another node
	// are not recognised and their browsers fall back on the account's
	// budget); nodes that share it recognise each other's.
	Devices   *limit.Rates
	DeviceKey []byte
	// Renames bounds how often a player renames themselves, as each
	// rename is shown at every table they sit at. Default 5 at once, then
	// one every 20 s.
	Renames *limit.Rates
	// Renaming, if set, is asked before a player is renamed, and refuses
	// with an error wrapping ErrNameTaken and naming the clash (the HTTP
	// answer is 409 with its words; another error is a 500): the server refuses a name that reads like another player's
	// at a table where the player sits, as it refuses it to a newcomer.
	Renaming func(ctx context.Context, p store.Player, name string) error
	// Revoked, if set, is told that a player's sessions ended (signed
	// out, everywhere or here; the password changed; the account
	// deleted): the server closes the player's sockets, which were opened
	// under a session that may no longer be, and the browsers still
	// signed in connect again. all is true when the owner ended every
	// other session to shut someone out (the password changed, signed
	// out everywhere, deleted): what those sessions were given, such as
	// seat tokens, is void too.
	Revoked func(player string, all bool)
	// Changed, if set, is told of a player renamed (their new name) or
	// deleted (Deleted set, no name) once the store has it, so that the
	// tables showing them can follow at once.
	Changed func(p store.Player)
	// Moved, if set, is told when a guest's seats at unfinished tables
	// went to the account they signed in to (store.MoveSeats).
	Moved func(from string, to store.Player)
}

// Service is the identity of the people using the server: who a request
// comes from (its session cookie), guests, usernames and passwords. Its
// methods are safe for concurrent use; it keeps nothing in memory that
// another node would need, only rate limits.
type Service struct {
	players   store.Players
	hasher    *Hasher
	now       func() time.Time
	lifetime  time.Duration
	proxies   limit.Proxies
	guests    *limit.Rates
	accounts  *limit.Rates
	addresses *limit.Rates
	networks  *limit.Rates
	perPlayer *limit.Rates
	devices   *limit.Rates
	deviceKey []byte
	renames   *limit.Rates
	// busy holds the players with a hash under way: one at a time.
	busy     *limit.Counts
	changed  func(p store.Player)
	moved    func(from string, to store.Player)
	renaming func(ctx context.Context, p store.Player, name string) error
	revoked  func(player string, all bool)
}

// New returns a Service for c.
func New(c Config) (*Service, error) {
	if c.Players == nil {
		return nil, errors.New("account: a Service needs a store of players")
	}
	s := &Service{
		players: c.Players, hasher: c.Hasher, now: c.Now, lifetime: c.Lifetime, proxies: c.Proxies,
		guests: c.Guests, accounts: c.Accounts, addresses: c.Addresses, changed: c.Changed, moved: c.Moved,
		networks: c.Networks, perPlayer: c.PerPlayer, devices: c.Devices, deviceKey: c.DeviceKey, renames: c.Renames,
		busy: limit.NewCounts(1, 0), renaming: c.Renaming, revoked: c.Revoked,
	}
	if s.renaming == nil {
		s.renaming = func(context.Context, store.Player, string) error { return nil }
	}
	if s.revoked == nil {
		s.revoked = func(string, bool) {}
	}
	if s.networks == nil {
		s.networks = limit.NewRates(rate.Every(2*time.Second), 60, keysHeld)
	}
	if s.perPlayer == nil {
		s.perPlayer = limit.NewRates(rate.Every(20*time.Second), 6, keysHeld)
	}
	if s.devices == nil {
		s.devices = limit.NewRates(rate.Every(time.Minute), 10, keysHeld)
	}
	if len(s.deviceKey) == 0 {
		s.deviceKey = make([]byte, 32)
		rand.Read(s.deviceKey)
	}
	if s.renames == nil {
		s.renames = limit.NewRates(rate.Every(20*time.Second), 5, keysHeld)
	}
	if s.changed == nil {
		s.changed = func(store.Player) {}
	}
	if s.moved == nil {
		s.moved = func(string, store.Player) {}
	}
	if s.hasher == nil {
		s.hasher = NewHasher(0)
	}
	if s.now == nil {
		s.now = time.Now
	}
	if s.lifetime <= 0 {
		s.lifetime = DefaultLifetime
	}
	if s.guests == nil {
		s.guests = limit.NewRates(rate.Every(10*time.Second), 20, keysHeld)
	}
	if s.accounts == nil {
		s.accounts = limit.NewRates(rate.Every(time.Minute), 10, keysHeld)
	}
	if s.addresses == nil {
		s.addresses = limit.NewRates(rate.Every(20*time.Second), 30, keysHeld)
	}
	return s, nil
}

// ErrNameEmpty is returned by Ensure when the name given is empty once
// cleaned (CleanName).
var ErrNameEmpty = errors.New("account: the name is empty")

// ErrNameTaken is wrapped by the error of Config.Renaming refusing a name
// that reads like another player's at a table where the player sits; its
// words name the clash.
var ErrNameTaken = errors.New("account: that name reads like another player's")

// A LimitError is a request refused because its client or account has
// made too many of them lately; the HTTP answer is 429 with a Retry-After
// of Retry.
type LimitError struct {
	// What was refused, in words: "guests", "password checks".
	What  string
	Retry time.Duration
}

func (e *LimitError) Error() string {
	return fmt.Sprintf("account: too many %s lately: try again in %s", e.What, e.Retry.Round(time.Second))
}

// Current returns the player signed in on r's browser: its session
// cookie's session, if it has not expired, and that session's player, if
// not deleted. ok is false for nobody, and also if the store fails, as a
// request that cannot be tied to a player is served as nobody's.
func (s *Service) Current(r *http.Request) (p store.Player, ok bool) {
	p, _, err := s.current(r)
	return p, err == nil
}

// current is Current with the session and the reason for nobody:
// store.ErrNotFound, or the store's failure.
func (s *Service) current(r *http.Request) (store.Player, store.Session, error) {
	token := cookieToken(r)
	if token == "" {
		return store.Player{}, store.Session{}, store.ErrNotFound
	}
	ctx := r.Context()
	sess, err := s.players.Session(ctx, HashToken(token), s.now())
	if err != nil {
		return store.Player{}, store.Session{}, err
	}
	p, err := s.players.Player(ctx, sess.Player)
	if err != nil {
		return store.Player{}, store.Session{}, err
	}
	if p.Deleted {
		return store.Player{}, store.Session{}, store.ErrNotFound
	}
	return p, sess, nil
}

// cookieToken returns the session token of r's cookie, or "" if it has
// none that could be one: a token is NewToken's 22 base64url characters,
// and anything else is not worth a look-up.
func cookieToken(r *http.Request) string {
	c, err := r.Cookie(CookieName)
	if err != nil || len(c.Value) != base64.RawURLEncoding.EncodedLen(tokenBytes) {
		return ""
	}
	if _, err := base64.RawURLEncoding.DecodeString(c.Value); err != nil {
		return ""
	}
	return c.Value
}

// Ensure returns the player signed in on r's browser or, if none, makes a
// new guest called name (cleaned with CleanName) and signs the browser in
// as it with a new session cookie on w. It fails with ErrNameEmpty if a
// guest is needed and the name is empty, with a *LimitError if the
// client has made too many guests lately, or with the store's error.
func (s *Service) Ensure(w http.ResponseWriter, r *http.Request, name string) (store.Player, error) {
	p, _, err := s.current(r)
	switch {
	case err == nil:
		return p, nil
	case !errors.Is(err, store.ErrNotFound):
		// A store that cannot say who this is must not make a second
		// player of someone who has one.
		return store.Player{}, err
	}
	name = CleanName(name)
	if name == "" {
		return store.Player{}, ErrNameEmpty
	}
	if retry, ok := s.guests.Allow(s.clientKey(r)); !ok {
		return store.Player{}, &LimitError{What: "new players", Retry: retry}
	}
	p = store.Player{ID: newID(), Name: name, Created: s.now()}
	if err := s.players.CreatePlayer(r.Context(), p); err != nil {
		return store.Player{}, err
	}
	if err := s.signIn(w, r, p.ID, ""); err != nil {
		return store.Player{}, err
	}
	return p, nil
}

// signIn starts a new session for player on r's browser, ending the one
// whose hash is old if any (the cookie it replaces), and sets the cookie.
func (s *Service) signIn(w http.ResponseWriter, r *http.Request, player, old string) error {
	token, hash := NewToken()
	now := s.now()
	sess := store.Session{Hash: hash, Player: player, Created: now, Expires: now.Add(s.lifetime)}
	if err := s.players.CreateSession(r.Context(), sess); err != nil {
		return err
	}
	if old != "" {
		// The old session is unreachable once the cookie is replaced; a
		// failure to delete it leaves a row that expires on its own.
		_ = s.players.DeleteSession(r.Context(), old)
	}
	http.SetCookie(w, s.cookie(r, token, sess.Expires))
	return nil
}

// cookie returns the session cookie holding token until expires; an
// empty token and zero expires clear it.
func (s *Service) cookie(r *http.Request, token string, expires time.Time) *http.Cookie {
	scheme, _ := s.proxies.Origin(r)
	c := &http.Cookie{
		Name:     CookieName,
		Value:    token,
		Path:     "/",
		HttpOnly: true, // scripts never need it, so an injected one cannot steal it
		SameSite: http.SameSiteLaxMode,
		// Secure only over TLS: a cookie marked Secure is not sent back
		// over plain http, which would sign out everyone on a server run
		// without TLS (at home, in tests).
		Secure: scheme == "https",
	}
	if token == "" {
		c.MaxAge = -1
		c.Expires = time.Unix(0, 0)
	} else {
		c.Expires = expires.UTC()
		c.MaxAge = max(1, int(expires.Sub(s.now())/time.Second))
	}
	return c
}

// clearCookie tells the browser to forget its session cookie.
func (s *Service) clearCookie(w http.ResponseWriter, r *http.Request) {
	http.SetCookie(w, s.cookie(r, "", time.Time{}))
}

// clientKey is the key of r's client in the per-address limits.
func (s *Service) clientKey(r *http.Request) string {
	return limit.Key(s.proxies.Client(r))
}

// newID returns a new player id: 128 random bits, so that ids made on
// different nodes never collide.
func newID() string {
	b := make([]byte, 16)
	rand.Read(b) // never fails: crypto/rand aborts the program rather than return weak bytes
	return base64.RawURLEncoding.EncodeToString(b)
}
