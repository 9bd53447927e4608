package account

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	"golang.org/x/time/rate"

	"tapis/api"
	"tapis/limit"
	"tapis/store"
)

const secret = "correct horse battery"

func creds(username, password string) map[string]string {
	return map[string]string{"username": username, "password": password}
}

// TestGuestClaimSignIn follows a player from a first visit to signing in
// on a second device, which must find the same player.
func TestGuestClaimSignIn(t *testing.T) {
	h := newHarness(t, nil)
	a := h.client("203.0.113.1")
	if p := a.me(); p != nil {
		t.Fatalf("a new browser is %+v, want nobody", p)
	}
	g := a.guest("  Ann  ")
	if g.Name != "Ann" || g.ID == "" || g.Username != "" {
		t.Fatalf("guest %+v", g)
	}
	if p := a.me(); p == nil || *p != *g {
		t.Fatalf("GET /api/me = %+v, want %+v", p, g)
	}
	// A second POST renames the same player rather than make another.
	if p := a.post("/api/me", map[string]string{"name": "Annie"}, 200).player(t); p.ID != g.ID || p.Name != "Annie" {
		t.Fatalf("rename gave %+v", p)
	}
	if a := a.do("POST", "/api/me", map[string]string{"name": "\u200b "}); a.status != 400 || a.code() != "bad_name" {
		t.Fatalf("empty name: %d %s", a.status, a.body)
	}

	var claimed *PlayerView
	if n := h.counted(func() { claimed = a.post("/api/account/claim", creds("Ann", secret), 200).player(t) }); n != 1 {
		t.Fatalf("claim took %d hashes, want 1", n)
	}
	if claimed.ID != g.ID || claimed.Username != "Ann" || claimed.Guest {
		t.Fatalf("claimed %+v", claimed)
	}
	if r := a.do("POST", "/api/account/claim", creds("Other", secret)); r.status != 409 || r.code() != "claimed" {
		t.Fatalf("second claim: %d %s", r.status, r.body)
	}

	// Another guest finds the name taken, whatever its case, without a hash spent.
	c := h.client("203.0.113.3")
	c.guest("Cid")
	if n := h.counted(func() {
		if r := c.do("POST", "/api/account/claim", creds("ＡＮＮ", secret)); r.status != 409 || r.code() != "taken" {
			t.Fatalf("claiming a taken name: %d %s", r.status, r.body)
		}
	}); n != 0 {
		t.Fatalf("claiming a taken name took %d hashes", n)
	}
	for _, bad := range []struct{ username, password, code string }{
		{"x", secret, "bad_username"},
		{"cid", "short", "bad_password"},
	} {
		if r := c.do("POST", "/api/account/claim", creds(bad.username, bad.password)); r.status != 400 || r.code() != bad.code {
			t.Errorf("claim %q/%q: %d %s, want 400 %s", bad.username, bad.password, r.status, r.body, bad.code)
		}
	}

	// A second device, a guest first, signs in: same player, and its
	// guest session is ended rather than left behind.
	b := h.client("198.51.100.2")
	b.guest("Bob")
	old := b.token()
	p := b.post("/api/account/signin", creds("ann", secret), 200).player(t)
	if p.ID != g.ID || p.Username != "Ann" {
		t.Fatalf("signed in as %+v, want %s", p, g.ID)
	}
	if p := b.me(); p == nil || p.ID != g.ID {
		t.Fatalf("after sign-in b is %+v", p)
	}
	if b.token() == old {
		t.Fatal("sign-in kept the guest's cookie")
	}
	if _, err := h.store.Session(context.Background(), HashToken(old), h.clock.Now()); !errors.Is(err, store.ErrNotFound) {
		t.Fatalf("the replaced guest session: %v, want ErrNotFound", err)
	}
	if p := a.me(); p == nil || p.ID != g.ID {
		t.Fatalf("a after b's sign-in: %+v", p)
	}
}

func TestSignOut(t *testing.T) {
	h := newHarness(t, nil)
	a, b, c := h.client("203.0.113.1"), h.client("203.0.113.2"), h.client("203.0.113.3")
	id := a.guest("Ann").ID
	a.post("/api/account/claim", creds("ann", secret), 200)
	b.post("/api/account/signin", creds("ann", secret), 200)
	c.post("/api/account/signin", creds("ann", secret), 200)

	// Signing out here leaves the other devices signed in.
	if p := c.post("/api/account/signout", map[string]bool{}, 200).player(t); p != nil {
		t.Fatalf("sign-out answered %+v", p)
	}
	if c.me() != nil || c.token() != "" {
		t.Fatal("c still signed in after signing out")
	}
	if p := b.me(); p == nil || p.ID != id {
		t.Fatalf("b after c signed out: %+v", p)
	}
	// Everywhere ends the other jar's session too.
	a.post("/api/account/signout", map[string]bool{"everywhere": true}, 200)
	if p := a.me(); p != nil {
		t.Fatalf("a after signing out everywhere: %+v", p)
	}
	if p := b.me(); p != nil {
		t.Fatalf("b after a signed out everywhere: %+v", p)
	}
	// Signing out when signed out is fine.
	a.post("/api/account/signout", map[string]bool{}, 200)
}

func TestChangePassword(t *testing.T) {
	h := newHarness(t, nil)
	a, b := h.client("203.0.113.1"), h.client("203.0.113.2")
	id := a.guest("Ann").ID
	if r := a.do("POST", "/api/account/password", map[string]string{"old": secret, "new": "a new secret"}); r.status != 409 || r.code() != "guest" {
		t.Fatalf("a guest changing a password: %d %s", r.status, r.body)
	}
	a.post("/api/account/claim", creds("ann", secret), 200)
	b.post("/api/account/signin", creds("ann", secret), 200)

	if n := h.counted(func() {
		if r := a.do("POST", "/api/account/password", map[string]string{"old": secret, "new": "short"}); r.status != 400 || r.code() != "bad_password" {
			t.Fatalf("short new password: %d %s", r.status, r.body)
		}
	}); n != 0 {
		t.Fatalf("a refused new password took %d hashes", n)
	}
	if r := a.do("POST", "/api/account/password", map[string]string{"old": "not the secret", "new": "a new secret"}); r.status != 403 || r.code() != "wrong_password" {
		t.Fatalf("wrong old password: %d %s", r.status, r.body)
	}
	if p := b.me(); p == nil {
		t.Fatal("a refused change ended b's session")
	}
	a.post("/api/account/password", map[string]string{"old": secret, "new": "a new secret"}, 200)
	if p := a.me(); p == nil || p.ID != id {
		t.Fatalf("a after changing its password: %+v", p)
	}
	if p := b.me(); p != nil {
		t.Fatalf("b after a changed the password: %+v", p)
	}
	if r := b.do("POST", "/api/account/signin", creds("ann", secret)); r.status != 401 || r.code() != "bad_credentials" {
		t.Fatalf("the old password: %d %s", r.status, r.body)
	}
	if p := b.post("/api/account/signin", creds("ann", "a new secret"), 200).player(t); p.ID != id {
		t.Fatalf("the new password signed in %+v", p)
	}
}

func TestDeleteAccount(t *testing.T) {
	h := newHarness(t, nil)
	a, b := h.client("203.0.113.1"), h.client("203.0.113.2")
	id := a.guest("Zoé").ID
	a.post("/api/account/claim", creds("zoe", secret), 200)
	b.post("/api/account/signin", creds("zoe", secret), 200)

	if r := a.do("POST", "/api/account/delete", map[string]string{}); r.status != 400 || r.code() != "bad_password" {
		t.Fatalf("delete without the password: %d %s", r.status, r.body)
	}
	if r := a.do("POST", "/api/account/delete", map[string]string{"password": "not the secret"}); r.status != 403 || r.code() != "wrong_password" {
		t.Fatalf("delete with a wrong password: %d %s", r.status, r.body)
	}
	a.post("/api/account/delete", map[string]string{"password": secret}, 200)
	if a.me() != nil || a.token() != "" || b.me() != nil {
		t.Fatal("a session outlived the account")
	}
	p, err := h.store.Player(context.Background(), id)
	if err != nil || !p.Deleted || p.Name != "" || p.Username != "" || p.Password != "" {
		t.Fatalf("deleted player in the store: %+v, %v", p, err)
	}
	if r := b.do("POST", "/api/account/signin", creds("zoe", secret)); r.status != 401 || r.code() != "bad_credentials" {
		t.Fatalf("signing in to a deleted account: %d %s", r.status, r.body)
	}
	// The username is free again.
	b.guest("Zed")
	if p := b.post("/api/account/claim", creds("Zoe", "another secret"), 200).player(t); p.ID == id || p.Username != "Zoe" {
		t.Fatalf("claimed a freed name as %+v", p)
	}

	// A guest deletes itself without a password.
	g := h.client("203.0.113.9")
	g.guest("Gus")
	if n := h.counted(func() { g.post("/api/account/delete", map[string]string{}, 200) }); n != 0 {
		t.Fatalf("deleting a guest took %d hashes", n)
	}
	if g.me() != nil {
		t.Fatal("the deleted guest is still signed in")
	}
}

// TestSignInFailuresLookAlike: an unknown username, a name that cannot be
// one and a wrong password give the same answer for the same work.
func TestSignInFailuresLookAlike(t *testing.T) {
	h := newHarness(t, nil)
	a := h.client("203.0.113.1")
	a.guest("Ann")
	a.post("/api/account/claim", creds("ann", secret), 200)

	var first answer
	for i, c := range []map[string]string{
		creds("ann", "not the secret"),
		creds("nobody", "not the secret"),
		creds("no such name!", "not the secret"),
	} {
		var got answer
		if n := h.counted(func() { got = h.client("198.51.100.1").do("POST", "/api/account/signin", c) }); n != 1 {
			t.Errorf("sign-in %v took %d hashes, want 1", c, n)
		}
		if got.status != http.StatusUnauthorized || got.header.Get("Set-Cookie") != "" {
			t.Errorf("sign-in %v: %d %s (Set-Cookie %q)", c, got.status, got.body, got.header.Get("Set-Cookie"))
		}
		if i == 0 {
			first = got
		} else if got.status != first.status || string(got.body) != string(first.body) {
			t.Errorf("sign-in %v answered %d %s; a wrong password answered %d %s", c, got.status, got.body, first.status, first.body)
		}
	}
}

// TestSignInRateLimits: failures are limited per account and per address,
// refused before hashing, while others still get through.
func TestSignInRateLimits(t *testing.T) {
	const n = 3
	h := newHarness(t, func(c *Config) {
		c.Accounts = newTestRates(n)
		c.Addresses = newTestRates(n)
	})
	owner := h.client("192.0.2.1")
	owner.guest("Ann")
	owner.post("/api/account/claim", creds("ann", secret), 200)

	refused := func(c *client, cr map[string]string) {
		t.Helper()
		var r answer
		if k := h.counted(func() { r = c.do("POST", "/api/account/signin", cr) }); k != 0 {
			t.Fatalf("a refused sign-in took %d hashes", k)
		}
		if r.status != http.StatusTooManyRequests || r.code() != "too_fast" || r.header.Get("Retry-After") == "" {
			t.Fatalf("sign-in %v from %s: %d %s (Retry-After %q), want 429", cr, c.addr, r.status, r.body, r.header.Get("Retry-After"))
		}
	}
	failed := func(c *client, cr map[string]string) {
		t.Helper()
		if r := c.do("POST", "/api/account/signin", cr); r.status != http.StatusUnauthorized {
			t.Fatalf("sign-in %v from %s: %d %s, want 401", cr, c.addr, r.status, r.body)
		}
	}

	// One account from many addresses.
	for i := range n {
		failed(h.client(fmt.Sprintf("203.0.113.%d", i+1)), creds("ANN", fmt.Sprint("guess ", i)))
	}
	refused(h.client("203.0.113.9"), creds("ann", "another guess"))
	// Even the right password waits, from a browser without a device
	// cookie for the account (see TestStrangersGuessesDoNotLockOutTheOwnersBrowser).
	refused(h.client("203.0.113.10"), creds("ann", secret))

	// One address trying many accounts.
	spray := h.client("198.51.100.7")
	for i := range n {
		failed(spray, creds(fmt.Sprint("user", i), "guess"))
	}
	refused(spray, creds("someone", "guess"))

	// Someone else, elsewhere, is not held up by either.
	failed(h.client("198.51.100.8"), creds("someone", "guess"))
}

func TestGuestRateLimit(t *testing.T) {
	h := newHarness(t, func(c *Config) { c.Guests = newTestRates(2) })
	for i := range 2 {
		h.client("203.0.113.1").guest(fmt.Sprint("Guest ", i))
	}
	r := h.client("203.0.113.1").do("POST", "/api/me", map[string]string{"name": "Flood"})
	if r.status != http.StatusTooManyRequests || r.header.Get("Retry-After") == "" || r.code() != "too_fast" {
		t.Fatalf("third guest from one address: %d %s", r.status, r.body)
	}
	h.client("203.0.113.2").guest("Elsewhere")
	// A player who has one is not a new guest and is not limited.
	g := h.client("203.0.113.3")
	g.guest("First")
	g.guest("Second")
	g.guest("Third")
}

func TestSessionExpires(t *testing.T) {
	h := newHarness(t, func(c *Config) { c.Lifetime = time.Hour })
	a := h.client("203.0.113.1")
	id := a.guest("Ann").ID
	h.clock.Advance(59 * time.Minute)
	if p := a.me(); p == nil || p.ID != id {
		t.Fatalf("before expiry: %+v", p)
	}
	h.clock.Advance(2 * time.Minute)
	if p := a.me(); p != nil {
		t.Fatalf("after expiry: %+v", p)
	}
	if p := a.guest("Ann"); p.ID == id {
		t.Fatal("an expired session's guest came back")
	}
}

// TestBadRequests: the body rules, and the answers for nobody signed in.
func TestBadRequests(t *testing.T) {
	h := newHarness(t, nil)
	a := h.client("203.0.113.1")
	for _, c := range []struct {
		path   string
		body   any
		header []string
		status int
		code   string
	}{
		{"/api/me", map[string]any{"name": "Ann", "admin": true}, nil, 400, "bad_request"},
		{"/api/me", map[string]string{"name": strings.Repeat("x", api.MaxBody)}, nil, 413, "too_large"},
		{"/api/me", map[string]string{"name": "Ann"}, []string{"Content-Type", "text/plain"}, 415, "bad_request"},
		{"/api/account/claim", creds("ann", secret), nil, 401, "signed_out"},
		{"/api/account/password", map[string]string{"old": secret, "new": "another secret"}, nil, 401, "signed_out"},
		{"/api/account/delete", map[string]string{}, nil, 401, "signed_out"},
		{"/api/account/signin", creds("ann", ""), nil, 400, "bad_password"},
	} {
		r := a.do("POST", c.path, c.body, c.header...)
		if r.status != c.status || r.code() != c.code {
			t.Errorf("POST %s: %d %s, want %d %s", c.path, r.status, r.body, c.status, c.code)
		}
	}
	if a.token() != "" {
		t.Fatal("a refused request left a cookie")
	}
	// A forged cookie is nobody.
	if r := a.do("GET", "/api/me", nil, "Cookie", CookieName+"=AAAAAAAAAAAAAAAAAAAAAA"); r.player(t) != nil {
		t.Fatalf("a forged cookie is %s", r.body)
	}
}

// newTestRates allows burst actions per key, then next to none: the
// bucket refills once an hour, far beyond a test's run.
func newTestRates(burst int) *limit.Rates {
	return limit.NewRates(rate.Every(time.Hour), burst, 100)
}

// TestRehashOnSignIn: a password stored at a lower cost than today's is
// stored again at today's when its owner signs in, the one moment the
// server has it.
func TestRehashOnSignIn(t *testing.T) {
	h := newHarness(t, nil)
	ctx := context.Background()
	weak := hashWithSalt(secret, []byte("0123456789abcdef"), params{memory: 64, passes: 1, lanes: 1})
	p := store.Player{ID: "old-timer", Name: "Old", Username: "old", UsernameKey: UsernameKey("old"), Password: weak, Created: h.clock.Now()}
	if err := h.store.CreatePlayer(ctx, p); err != nil {
		t.Fatal(err)
	}
	if got := h.client("203.0.113.1").post("/api/account/signin", creds("old", secret), 200).player(t); got.ID != p.ID {
		t.Fatalf("signed in as %+v", got)
	}
	after, err := h.store.Player(ctx, p.ID)
	if err != nil || after.Password == weak || NeedsRehash(after.Password) {
		t.Fatalf("stored hash after sign-in: %q, %v; want a fresh one", after.Password, err)
	}
	if ok, err := Verify(secret, after.Password); !ok || err != nil {
		t.Fatalf("the fresh hash does not verify the password: %v, %v", ok, err)
	}
}

// TestDeletedPlayerIsNobody: a session left pointing at a deleted player
// (by a store that missed it) signs nobody in.
func TestDeletedPlayerIsNobody(t *testing.T) {
	h := newHarness(t, nil)
	a := h.client("203.0.113.1")
	id := a.guest("Ann").ID
	ctx := context.Background()
	if err := h.store.DeletePlayer(ctx, id); err != nil {
		t.Fatal(err)
	}
	now := h.clock.Now()
	if err := h.store.CreateSession(ctx, store.Session{Hash: HashToken(a.token()), Player: id, Created: now, Expires: now.Add(time.Hour)}); err != nil {
		t.Fatal(err)
	}
	if p := a.me(); p != nil {
		t.Fatalf("a deleted player's session is %+v", p)
	}
}
