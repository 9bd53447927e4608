package account

import (
	"fmt"
	"net/http"
	"net/url"
	"testing"
	"time"

	"golang.org/x/time/rate"

	"tapis/limit"
)

// Finding 11 of issue 24: 66,000 sign-ins with distinct usernames from
// 2,276 addresses (abandoned before any hash) evicted a locked account's
// budget from memory, and its attacker had 10 fresh guesses. Only
// usernames that exist have a budget now, so made-up ones, however many,
// push nothing out. The budget holds 4 accounts here instead of 65,536,
// so that 10 made-up usernames would do what 66,000 did.
func TestMadeUpUsernamesDoNotFlushALockedAccount(t *testing.T) {
	const guesses, held = 3, 4
	h := newHarness(t, func(c *Config) {
		c.Accounts = limit.NewRates(rate.Every(time.Hour), guesses, held)
	})
	owner := h.client("192.0.2.1")
	owner.guest("Vic")
	owner.post("/api/account/claim", creds("victim", secret), http.StatusOK)
	for i := range guesses {
		h.client(fmt.Sprintf("203.0.113.%d", i+1)).post("/api/account/signin", creds("victim", fmt.Sprint("guess ", i)), http.StatusUnauthorized)
	}
	h.client("203.0.113.50").post("/api/account/signin", creds("victim", "one more"), http.StatusTooManyRequests)
	for i := range 10 {
		h.client(fmt.Sprintf("198.51.%d.1", i)).post("/api/account/signin", creds(fmt.Sprint("madeup", i), "guess"), http.StatusUnauthorized)
	}
	h.client("203.0.113.51").post("/api/account/signin", creds("victim", "a fresh guess?"), http.StatusTooManyRequests)
}

// Finding 12 of issue 24: 10 wrong guesses from anywhere locked the
// account's owner out too, and usernames are public. A browser that has
// signed in to the account (or claimed it) holds a device cookie for it,
// and its sign-ins spend that device's budget, not the account's.
func TestStrangersGuessesDoNotLockOutTheOwnersBrowser(t *testing.T) {
	const guesses = 3
	h := newHarness(t, func(c *Config) {
		c.Accounts = newTestRates(guesses)
		c.Devices = newTestRates(2)
	})
	owner := h.client("192.0.2.1")
	owner.guest("Ann")
	owner.post("/api/account/claim", creds("ann", secret), http.StatusOK)
	owner.post("/api/account/signout", map[string]bool{}, http.StatusOK)
	for i := range guesses {
		h.client(fmt.Sprintf("203.0.113.%d", i+1)).post("/api/account/signin", creds("ann", fmt.Sprint("guess ", i)), http.StatusUnauthorized)
	}
	// Strangers are locked out, even with the right password…
	h.client("203.0.113.50").post("/api/account/signin", creds("ann", secret), http.StatusTooManyRequests)
	// …and so is a cookie made up or signed for another account.
	other := h.client("203.0.113.60")
	other.guest("Eve")
	other.post("/api/account/claim", creds("eve", secret), http.StatusOK)
	other.post("/api/account/signin", creds("ann", secret), http.StatusTooManyRequests)
	// The owner's browser is not.
	if p := owner.post("/api/account/signin", creds("ann", secret), http.StatusOK).player(t); p == nil || p.Username != "ann" {
		t.Fatalf("the owner signed in as %+v", p)
	}
	// Its own guesses have a budget of their own: a stolen device cookie
	// is no way round the lock.
	owner.post("/api/account/signin", creds("ann", "wrong 1"), http.StatusUnauthorized)
	owner.post("/api/account/signin", creds("ann", "wrong 2"), http.StatusUnauthorized)
	owner.post("/api/account/signin", creds("ann", secret), http.StatusTooManyRequests)
}

// Finding 12 of issue 24: a claim kept the guest's session id, so that
// whoever learnt it while the player was a guest held the account. A
// claim and a sign-in now give the browser a new session, and the old
// one ends.
func TestClaimAndSignInIssueANewSession(t *testing.T) {
	h := newHarness(t, nil)
	g := h.client("192.0.2.1")
	g.guest("Ann")
	asGuest := g.token()
	g.post("/api/account/claim", creds("ann", secret), http.StatusOK)
	claimed := g.token()
	if claimed == "" || claimed == asGuest {
		t.Fatalf("the claim kept the session %q", asGuest)
	}
	b := h.client("192.0.2.2")
	b.guest("Bob")
	asBob := b.token()
	b.post("/api/account/signin", creds("ann", secret), http.StatusOK)
	if b.token() == asBob || b.token() == "" {
		t.Fatalf("the sign-in kept the session %q", asBob)
	}
	u, _ := url.Parse(h.srv.URL)
	for _, old := range []string{asGuest, asBob} {
		c := h.client("192.0.2.3")
		c.jar.SetCookies(u, []*http.Cookie{{Name: CookieName, Value: old}})
		if p := c.me(); p != nil {
			t.Fatalf("the session replaced is still %+v", p)
		}
	}
	if p := (&client{h: h, http: g.http, jar: g.jar, addr: g.addr}).me(); p == nil || p.Username != "ann" {
		t.Fatalf("the claimer's new session is %+v", p)
	}
}
