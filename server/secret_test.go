package server_test

import (
	"net/http"
	"slices"
	"strings"
	"testing"
	"time"

	"golang.org/x/time/rate"

	"tapis/limit"
	"tapis/server"
	"tapis/store"
)

// The server's secret keys the device cookies and the bots' seeds. It was
// 32 random bytes per process, as tapis serve never set one: after a
// restart every device cookie was void and bots played differently, and
// a cookie issued by one node of a cluster meant nothing to the others.
// It is the store's now (store.Secrets), so every server on one database
// has the same.

// storeSecret is the tests' config for a server that takes its secret
// from its store: an empty Secret, not nil, which newHarness would fill.
// Each server has budgets of its own, as nodes do: the account's, 10
// sign-ins (the default), refilling once an hour so that none comes back
// during the test.
func storeSecret(st store.Store) server.Config {
	cfg := testConfig()
	cfg.Store, cfg.Secret = st, []byte{}
	cfg.Accounts.Accounts = limit.NewRates(rate.Every(time.Hour), 10, 100)
	cfg.Accounts.Devices = limit.NewRates(rate.Every(time.Hour), 10, 100)
	return cfg
}

// lockedOutButOwner has strangers make 10 wrong guesses at ann's password
// on h, which locks the account for them, even with the right password;
// the owner's browser, whose device cookie another server issued, signs
// in all the same.
func lockedOutButOwner(t *testing.T, h *harness, owner *http.Client, pw string) {
	t.Helper()
	for i := range 10 {
		h.person().must(http.StatusUnauthorized, "POST", "/api/account/signin", map[string]string{"username": "ann", "password": strings.Repeat("x", i+1)}, nil)
	}
	h.person().must(http.StatusTooManyRequests, "POST", "/api/account/signin", map[string]string{"username": "ann", "password": pw}, nil)
	var me struct{ Player struct{ Username string } }
	(&person{h: h, c: owner}).must(http.StatusOK, "POST", "/api/account/signin", map[string]string{"username": "ann", "password": pw}, &me)
	if me.Player.Username != "ann" {
		t.Fatalf("the owner signed in as %+v", me)
	}
}

// claimAnn makes ann's account on h from a new browser, signed out after,
// and returns that browser, which holds ann's device cookie.
func claimAnn(h *harness, pw string) *http.Client {
	ann := h.person()
	ann.must(http.StatusOK, "POST", "/api/me", map[string]string{"name": "Ann"}, nil)
	ann.must(http.StatusOK, "POST", "/api/account/claim", map[string]string{"username": "ann", "password": pw}, nil)
	ann.must(http.StatusOK, "POST", "/api/account/signout", map[string]bool{}, nil)
	return ann.c
}

// Issue 24, finding 12: 10 wrong guesses from anywhere locked the
// account's owner out too, unless their browser held a device cookie;
// but a server restarted (tapis serve again on the same database) had
// another key, and the owner's cookie, a year long, was void: the owner
// was locked out with the strangers. Now the restarted server honours it.
func TestDeviceCookieOutlivesRestart(t *testing.T) {
	const pw = "lovelace-1815"
	open := reopener(t)
	st := open()
	h1 := newHarness(t, storeSecret(st))
	owner := claimAnn(h1, pw)
	h1.stop()
	st.Close()

	st = open()
	t.Cleanup(func() { st.Close() })
	lockedOutButOwner(t, newHarness(t, storeSecret(st)), owner, pw)
}

// The same across servers sharing one database at once, as the nodes of
// a cluster do: a device cookie from one is honoured by another, where
// strangers locked the account.
func TestDeviceCookieHonouredByAnotherServer(t *testing.T) {
	const pw = "lovelace-1815"
	st := store.NewMemory()
	a, b := newHarness(t, storeSecret(st)), newHarness(t, storeSecret(st))
	lockedOutButOwner(t, b, claimAnn(a, pw), pw)
}

// The bots of a match dealt from one seed play the same after a restart
// on the same database (server.Config.Secret: "keep it to have the same
// bots after a restart", which tapis serve could not), and differently on
// another database, whose secret is its own.
func TestBotsAreTheSameAfterRestart(t *testing.T) {
	open := reopener(t)
	st := open()
	before, h := botEvents(t, st)
	h.stop()
	st.Close()
	st = open()
	t.Cleanup(func() { st.Close() })
	after, _ := botEvents(t, st)
	if before != after {
		t.Fatalf("the bot played differently after a restart:\n%s\nthen:\n%s", before, after)
	}
	other := reopener(t)()
	t.Cleanup(func() { other.Close() })
	if elsewhere, _ := botEvents(t, other); elsewhere == before {
		t.Fatalf("a server on another database got the same bot:\n%s", before)
	}
}

// botEvents plays a Cabo table against a random bot, dealt from a fixed
// seed, on a server with st, and returns the bot's first events.
func botEvents(t *testing.T, st store.Store) (string, *harness) {
	cfg := storeSecret(st)
	cfg.Seed = func() uint64 { return 0x5eed5eed5eed5eed }
	h := newHarness(t, cfg)
	ann := h.create("cabo", []string{"", "random"}, "Ann", "")
	c := h.dial(ann.Table, ann.Token)
	c.next("state")
	c.send(`{"type":"move","move":{"type":"peek_initial","slots":[0,1]}}`)
	var events []string
	for len(events) < 8 {
		m := c.next("state")
		if m.Status != "playing" {
			break
		}
		if m.By == 1 {
			for _, e := range m.Events {
				events = append(events, string(e))
			}
		}
		if slices.Contains(m.ToMove, ann.Seat) && len(m.Legal) > 0 {
			c.send(map[string]any{"type": "move", "move": m.Legal[0]})
		}
	}
	return strings.Join(events, "\n"), h
}
