// Package account holds what the server knows about players: guest sessions, usernames and
// passwords. This file hashes passwords with argon2id and checks them; session.go makes session
// tokens, username.go and name.go clean names, service.go ties a browser's cookie to a player in
// the store, http.go and signin.go are the API (Service.Routes), budget.go and fair.go bound what
// hashing one client or network may ask for, device.go keeps an account's owner out of its lock,
// and origin.go keeps other sites from using it (SameOrigin). The store only keeps the strings
// made here.
package account

import (
	"context"
	"crypto/rand"
	"crypto/subtle"
	"encoding/base64"
	"errors"
	"fmt"
	"runtime"
	"strconv"
	"strings"
	"unicode/utf8"

	"golang.org/x/crypto/argon2"

	"tapis/limit"
)

// The current cost of a new hash: OWASP's minimum for argon2id (19 MiB, 2 passes, 1 lane).
// They are written into every PHC string, so raising them later leaves old hashes verifiable;
// NeedsRehash then tells the sign-in to store a fresh hash while it has the password.
const (
	memoryKiB = 19 * 1024
	passes    = 2
	lanes     = 1
	saltBytes = 16
	keyBytes  = 32
)

// Bounds on a password's length. The minimum counts characters (runes), not bytes, so that a
// password in another script is not judged longer than it is; the maximum counts bytes, because
// argon2 reads the whole password and its length is a cost whoever sends it picks.
const (
	MinPassword = 8
	MaxPassword = 1024
)

// Limits on parameters read back from a stored string. They are far above anything this package
// will write, and only stop a damaged or forged row from making one verification take a huge
// amount of memory or time.
const (
	maxMemoryKiB = 1 << 20 // 1 GiB
	maxPasses    = 32
	maxLanes     = 16
	minSaltBytes = 8 // the PHC format's minimum
	maxSaltBytes = 64
	minKeyBytes  = 16 // a shorter stored key would make a wrong password match by chance
	maxKeyBytes  = 64
	maxPHCBytes  = 512
)

// Errors about the password itself, shown to the player in words by the HTTP layer.
var (
	ErrPasswordEmpty    = errors.New("account: the password is empty")
	ErrPasswordTooShort = fmt.Errorf("account: the password has fewer than %d characters", MinPassword)
	ErrPasswordTooLong  = fmt.Errorf("account: the password is longer than %d bytes", MaxPassword)
)

// ErrMalformedHash is wrapped by every error about a stored PHC string that cannot be used.
// It means a damaged or foreign row, never a wrong password.
var ErrMalformedHash = errors.New("account: malformed password hash")

// params are the argon2id costs of one hash, as written in its PHC string.
type params struct {
	memory uint32 // KiB
	passes uint32
	lanes  uint8
}

var current = params{memory: memoryKiB, passes: passes, lanes: lanes}

// b64 is the PHC format's base64: standard alphabet, no padding. Strict rejects encodings with
// stray low bits, so each hash has exactly one spelling.
var b64 = base64.RawStdEncoding.Strict()

// checkNewPassword applies the rules for choosing a password.
func checkNewPassword(password string) error {
	if err := checkPasswordSize(password); err != nil {
		return err
	}
	if utf8.RuneCountInString(password) < MinPassword {
		return ErrPasswordTooShort
	}
	return nil
}

// checkPasswordSize applies the rules every password must pass before it is hashed, including
// one being checked at sign-in: the minimum length is not among them, so that raising it later
// does not lock out players whose password was long enough when they chose it.
func checkPasswordSize(password string) error {
	switch {
	case password == "":
		return ErrPasswordEmpty
	case len(password) > MaxPassword:
		return ErrPasswordTooLong
	}
	return nil
}

// Hash returns the PHC string of a new password, hashed with argon2id at the current
// parameters and a fresh random salt. It refuses passwords that are empty, shorter than
// MinPassword characters or longer than MaxPassword bytes.
//
// Hash takes 19 MiB and tens of milliseconds; a server should go through a Hasher, which bounds
// how many run at once.
func Hash(password string) (string, error) {
	if err := checkNewPassword(password); err != nil {
		return "", err
	}
	salt := make([]byte, saltBytes)
	rand.Read(salt) // never fails: crypto/rand aborts the program rather than return weak bytes
	return hashWithSalt(password, salt, current), nil
}

// hashWithSalt computes and encodes the hash; it is separate from Hash so that tests can fix the salt.
func hashWithSalt(password string, salt []byte, p params) string {
	key := argon2.IDKey([]byte(password), salt, p.passes, p.memory, p.lanes, keyBytes)
	return encode(p, salt, key)
}

func encode(p params, salt, key []byte) string {
	return fmt.Sprintf("$argon2id$v=%d$m=%d,t=%d,p=%d$%s$%s",
		argon2.Version, p.memory, p.passes, p.lanes, b64.EncodeToString(salt), b64.EncodeToString(key))
}

// decode parses a PHC string written by encode and checks its parameters are within the limits.
func decode(phc string) (p params, salt, key []byte, err error) {
	bad := func(format string, args ...any) (params, []byte, []byte, error) {
		return params{}, nil, nil, fmt.Errorf("%w: "+format, append([]any{ErrMalformedHash}, args...)...)
	}
	if len(phc) > maxPHCBytes {
		return bad("%d bytes long", len(phc))
	}
	parts := strings.Split(phc, "$")
	if len(parts) != 6 || parts[0] != "" {
		return bad("want $argon2id$v=19$m=…,t=…,p=…$salt$hash")
	}
	if parts[1] != "argon2id" {
		return bad("algorithm %q, want argon2id", parts[1])
	}
	if parts[2] != "v="+strconv.Itoa(argon2.Version) {
		return bad("version %q, want v=%d", parts[2], argon2.Version)
	}
	fields := strings.Split(parts[3], ",")
	if len(fields) != 3 {
		return bad("parameters %q, want m=…,t=…,p=…", parts[3])
	}
	var vals [3]uint64
	for i, name := range []string{"m", "t", "p"} {
		v, ok := strings.CutPrefix(fields[i], name+"=")
		if !ok {
			return bad("parameters %q, want m=…,t=…,p=…", parts[3])
		}
		n, err := strconv.ParseUint(v, 10, 32)
		if err != nil {
			return bad("parameter %s=%q is not a number", name, v)
		}
		vals[i] = n
	}
	m, t, l := vals[0], vals[1], vals[2]
	switch {
	case l < 1 || l > maxLanes:
		return bad("p=%d outside 1…%d", l, maxLanes)
	case t < 1 || t > maxPasses:
		return bad("t=%d outside 1…%d", t, maxPasses)
	case m < 8*l || m > maxMemoryKiB: // argon2 needs 8 KiB per lane
		return bad("m=%d outside %d…%d KiB", m, 8*l, maxMemoryKiB)
	}
	salt, err = b64.DecodeString(parts[4])
	if err != nil || b64.EncodeToString(salt) != parts[4] {
		// The second test catches what the decoder skips (line breaks), so that a stored hash
		// has one spelling and a damaged one is reported rather than read.
		return bad("salt is not unpadded base64")
	}
	if len(salt) < minSaltBytes || len(salt) > maxSaltBytes {
		return bad("salt of %d bytes, want %d…%d", len(salt), minSaltBytes, maxSaltBytes)
	}
	key, err = b64.DecodeString(parts[5])
	if err != nil || b64.EncodeToString(key) != parts[5] {
		return bad("hash is not unpadded base64")
	}
	if len(key) < minKeyBytes || len(key) > maxKeyBytes {
		return bad("hash of %d bytes, want %d…%d", len(key), minKeyBytes, maxKeyBytes)
	}
	return params{memory: uint32(m), passes: uint32(t), lanes: uint8(l)}, salt, key, nil
}

// Verify reports whether password matches the PHC string phc, using the parameters written in
// phc. A wrong password is (false, nil); an error means the password is empty or too long, or phc
// is unusable (wrapping ErrMalformedHash). The comparison takes the same time wherever the
// hashes differ.
//
// Like Hash, Verify is unbounded; a server should use a Hasher.
func Verify(password, phc string) (bool, error) {
	if err := checkPasswordSize(password); err != nil {
		return false, err
	}
	p, salt, key, err := decode(phc)
	if err != nil {
		return false, err
	}
	got := argon2.IDKey([]byte(password), salt, p.passes, p.memory, p.lanes, uint32(len(key)))
	return subtle.ConstantTimeCompare(got, key) == 1, nil
}

// NeedsRehash reports whether phc was made with weaker settings than Hash uses now (less memory,
// fewer passes, a shorter salt or key), so that a sign-in that has just verified the password
// should store a fresh Hash of it. A malformed phc needs one too.
func NeedsRehash(phc string) bool {
	p, salt, key, err := decode(phc)
	if err != nil {
		return true
	}
	return p.memory < current.memory || p.passes < current.passes ||
		len(salt) < saltBytes || len(key) < keyBytes
}

// A Hasher bounds how many argon2 computations run at once, because each holds 19 MiB (more for
// stronger stored parameters) and a burst of sign-ins must queue rather than exhaust memory.
// Its slots go to the networks waiting in turn, and each network may have DefaultQueue hashes
// waiting at once (fair.go), so that a flood from one network delays the others' sign-ins by a
// hash or two at most. Its methods are safe for concurrent use.
type Hasher struct {
	slots *limit.Fair
	// holding, when set by a test, runs while a slot is held with the network it is held for,
	// so a test can keep it held and see whose turn it was.
	holding func(network string)
}

// NewHasher returns a Hasher running at most n hashes at once; n < 1 means GOMAXPROCS, as
// hashing is CPU-bound and more at once would only share the same processors.
func NewHasher(n int) *Hasher {
	if n < 1 {
		n = runtime.GOMAXPROCS(0)
	}
	return &Hasher{slots: limit.NewFair(n, DefaultQueue)}
}

// acquire waits for a free slot, in the turn of ctx's network (WithNetwork), before the
// ordinary turns if ctx has priority (withPriority), until ctx ends; the caller must call
// release after. A network whose queue is full is refused at once with
// an *QueueFullError.
func (h *Hasher) acquire(ctx context.Context) error {
	// Checked first, as a request already given up on should not hash.
	if ctx.Err() != nil {
		return fmt.Errorf("account: not hashing the password: %w", context.Cause(ctx))
	}
	network := networkOf(ctx)
	acquire := h.slots.Acquire
	if priorityOf(ctx) {
		acquire = h.slots.AcquireFirst
	}
	var full *limit.FullError
	switch err := acquire(ctx, network); {
	case errors.As(err, &full):
		return &QueueFullError{Retry: full.Retry}
	case err != nil:
		return fmt.Errorf("account: gave up waiting for a free password hashing slot: %w", context.Cause(ctx))
	}
	if h.holding != nil {
		h.holding(network)
	}
	return nil
}

func (h *Hasher) release() { h.slots.Release() }

// Hash is the package's Hash, waiting for a free slot until ctx ends. Password rules are checked
// before waiting, so a refused password never queues.
func (h *Hasher) Hash(ctx context.Context, password string) (string, error) {
	if err := checkNewPassword(password); err != nil {
		return "", err
	}
	if err := h.acquire(ctx); err != nil {
		return "", err
	}
	defer h.release()
	return Hash(password)
}

// Verify is the package's Verify, waiting for a free slot until ctx ends.
func (h *Hasher) Verify(ctx context.Context, password, phc string) (bool, error) {
	if err := h.acquire(ctx); err != nil {
		return false, err
	}
	defer h.release()
	return Verify(password, phc)
}

// dummyPHC is a well-formed hash at the current parameters that no password matches (its key
// is zeros, and argon2's output is not). It is built from the constants rather than written out
// so that it follows them when they are raised.
var dummyPHC = encode(current, make([]byte, saltBytes), make([]byte, keyBytes))

// VerifyNone does the work of a Verify against a current-parameter hash and always fails. A
// sign-in for a username that does not exist calls it, so that it takes as long as one for a
// username that does and cannot tell the two apart by timing. It returns only the errors Verify
// would (a password empty or too long, or ctx ending while waiting).
func (h *Hasher) VerifyNone(ctx context.Context, password string) error {
	_, err := h.Verify(ctx, password, dummyPHC)
	return err
}
