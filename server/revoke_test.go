package server_test

import (
	"encoding/json"
	"net/http"
	"net/http/cookiejar"
	neturl "net/url"
	"strings"
	"testing"
	"time"

	"github.com/nats-io/nats.go"

	"tapis/cluster"
	"tapis/cluster/natstest"
	"tapis/game"
	"tapis/store"
)

// closes waits for the server to close c, failing the test if it does not.
func (c *client) closes(what string) {
	c.t.Helper()
	timeout := time.After(20 * time.Second)
	for {
		select {
		case _, ok := <-c.msgs:
			if !ok {
				return
			}
		case <-timeout:
			c.t.Fatalf("%s: the socket is still open", what)
		}
	}
}

// Finding 9 of issue 24: after a password change, a sign-out everywhere
// or an account deletion, a socket opened earlier kept moving for the
// seat and receiving its private peeks. Now every socket of the player
// closes at once: one opened under a session that ended connects again
// as a spectator; the seat's token is void (a thief joining a table under
// the stolen session was given one), and the owner's browser, signed in,
// gets the seat back, unless the account was deleted: then nobody does
// and the stand-in plays it.
func TestRevokedSessionsSocketsClose(t *testing.T) {
	const pw = "lovelace-1815"
	for _, end := range []struct {
		name, path string
		body       any
	}{
		{"password changed", "/api/account/password", map[string]string{"old": pw, "new": "babbage-1822"}},
		{"signed out everywhere", "/api/account/signout", map[string]bool{"everywhere": true}},
		{"account deleted", "/api/account/delete", map[string]string{"password": pw}},
	} {
		t.Run(end.name, func(t *testing.T) {
			h := newHarness(t, testConfig())
			ada := h.person()
			ada.must(http.StatusOK, "POST", "/api/me", map[string]string{"name": "Ada"}, nil)
			var tab seatResp
			ada.must(http.StatusCreated, "POST", "/api/tables", map[string]any{"game": "cabo", "players": 2, "bots": []string{"", ""}}, &tab)
			ada.must(http.StatusOK, "POST", "/api/account/claim", map[string]string{"username": "ada", "password": pw}, nil)
			bob := h.dial(tab.Table, h.join(tab.Table, "Bob").Token)
			bob.next("welcome")

			// Ada's own page, by its seat token, and a thief's, by a
			// session signed in with her password.
			own := h.dial(tab.Table, tab.Token)
			if w := own.next("welcome"); w.Seat != 0 {
				t.Fatalf("the token's socket is seat %d", w.Seat)
			}
			thief := h.person()
			thief.must(http.StatusOK, "POST", "/api/account/signin", map[string]string{"username": "ada", "password": pw}, nil)
			stolen := thief.dial(tab.Table)
			if w := stolen.next("welcome"); w.Seat != 0 {
				t.Fatalf("the thief's session socket is seat %d", w.Seat)
			}

			ada.must(http.StatusOK, "POST", end.path, end.body, nil)
			stolen.closes("the socket of a session ended")
			own.closes("the socket of the player's seat")
			if w := thief.dial(tab.Table).next("welcome"); w.Seat != game.Spectator {
				t.Fatalf("the thief connects again as seat %d, want a spectator", w.Seat)
			}
			back, err := h.tryDial(tab.Table, tab.Token)
			if end.path == "/api/account/delete" {
				if err == nil {
					t.Fatalf("a deleted player's seat token still connects (%v)", back.next("welcome").Seat)
				}
				// The seat is nobody's to take, shows no name, and the
				// stand-in plays it without waiting for a return.
				bob.within(10*time.Second, "the stand-in at the deleted player's seat", func(m infoMsg) bool {
					s, ok := m.seat(0)
					return ok && s.Name == "" && !s.Free && s.Standin
				})
				return
			}
			// The seat's token may have been given to a session now
			// ended (a thief joining a table gets one): it is void, and
			// the owner, signed in, takes the seat by her session.
			if err == nil {
				t.Fatalf("the seat's token still connects after all her sessions ended (seat %d)", back.next("welcome").Seat)
			}
			if end.path == "/api/account/signout" {
				ada.must(http.StatusOK, "POST", "/api/account/signin", map[string]string{"username": "ada", "password": pw}, nil)
			}
			if w := ada.dial(tab.Table).next("welcome"); w.Seat != 0 {
				t.Fatalf("the owner, signed in, connects as seat %d", w.Seat)
			}
		})
	}
}

// Finding 10 of issue 24: joining as "ALICE" beside a seated "Alice" is
// refused, but a seated player could rename to "alice", "Ａｌｉｃｅ" or
// "Alice\u200b"; 3,674 renames in 5 s were all accepted, each broadcast to
// the table. A rename now obeys the join's rule at every table where the
// player sits, refused with words naming the clash, and is paced.
func TestRenameObeysTheJoinsNameRuleAndIsPaced(t *testing.T) {
	h := newHarness(t, testConfig())
	alice := h.person()
	alice.must(http.StatusOK, "POST", "/api/me", map[string]string{"name": "Alice"}, nil)
	var tab seatResp
	alice.must(http.StatusCreated, "POST", "/api/tables", map[string]any{"game": "cabo", "players": 3, "bots": []string{"", "", ""}}, &tab)
	bob := h.person()
	bob.must(http.StatusOK, "POST", "/api/me", map[string]string{"name": "Bob"}, nil)
	bob.must(http.StatusOK, "POST", "/api/tables/"+tab.Table+"/join", map[string]string{}, nil)

	for _, name := range []string{"alice", "Ａｌｉｃｅ", "Alice\u200b", "A\u3164lice"} {
		var e struct{ Code, Error string }
		if code := bob.do("POST", "/api/me", map[string]string{"name": name}, &e); code != http.StatusConflict || e.Code != "name_taken" || !strings.Contains(e.Error, "Alice") {
			t.Fatalf("Bob renamed to %q beside Alice: %d %+v, want 409 name_taken naming Alice", name, code, e)
		}
	}
	// A name of one's own, spelt otherwise, is no clash.
	alice.must(http.StatusOK, "POST", "/api/me", map[string]string{"name": "ALICE"}, nil)
	var me meResp
	bob.must(http.StatusOK, "POST", "/api/me", map[string]string{"name": "Bobby"}, &me)
	if me.Player == nil || me.Player.Name != "Bobby" {
		t.Fatalf("Bob renamed to %+v", me.Player)
	}
	// And the flood of renames stops after a few.
	for i := range 20 {
		req := map[string]string{"name": "Bob " + strings.Repeat("I", i+1)}
		var raw json.RawMessage
		code := bob.do("POST", "/api/me", req, &raw)
		if code == http.StatusTooManyRequests {
			return
		}
		if code != http.StatusOK {
			t.Fatalf("rename %d: %d %s", i, code, raw)
		}
	}
	t.Fatal("20 renames in a row were all accepted")
}

// Finding 9 of issue 24, in a cluster: a table and its sockets live on the
// node that holds its lease, and the password is changed through another;
// the revocation reaches every node, as a rename does.
func TestRevokedSessionsSocketsCloseOnEveryNode(t *testing.T) {
	const pw = "lovelace-1815"
	st := store.NewMemory()
	url := natstest.Start(t)
	node := func(name string) *harness {
		nc, err := nats.Connect(url)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(nc.Close)
		cfg := withStore(testConfig(), st)
		cfg.Cluster, cfg.Leases = cluster.New(nc, name), st
		return newHarness(t, cfg)
	}
	a, b := node("nodeA"), node("nodeB")
	ada := a.person()
	ada.must(http.StatusOK, "POST", "/api/me", map[string]string{"name": "Ada"}, nil)
	var tab seatResp
	ada.must(http.StatusCreated, "POST", "/api/tables", map[string]any{"game": "cabo", "players": 2, "bots": []string{"", ""}}, &tab)
	ada.must(http.StatusOK, "POST", "/api/account/claim", map[string]string{"username": "ada", "password": pw}, nil)
	thief := a.person()
	thief.must(http.StatusOK, "POST", "/api/account/signin", map[string]string{"username": "ada", "password": pw}, nil)
	stolen := thief.dial(tab.Table)
	if w := stolen.next("welcome"); w.Seat != 0 {
		t.Fatalf("the thief's session socket is seat %d", w.Seat)
	}
	// Ada's browser, the same cookies, through node B.
	onB := &person{h: b, c: ada.c}
	onB.must(http.StatusOK, "POST", "/api/account/password", map[string]string{"old": pw, "new": "babbage-1822"}, nil)
	stolen.closes("the socket on node A of a session ended through node B")
}

// Finding 12 of issue 24, at the table: a claim kept the guest's session,
// so whoever had learnt it played on as the account. The claim replaces
// the session, and a socket opened under the old one closes.
func TestClaimClosesTheGuestSessionsSockets(t *testing.T) {
	h := newHarness(t, testConfig())
	ada := h.person()
	ada.must(http.StatusOK, "POST", "/api/me", map[string]string{"name": "Ada"}, nil)
	var tab seatResp
	ada.must(http.StatusCreated, "POST", "/api/tables", map[string]any{"game": "cabo", "players": 2, "bots": []string{"", ""}}, &tab)
	// A copy of the guest's cookie, as a fixed or stolen session id.
	jar, _ := cookiejar.New(nil)
	u, _ := neturl.Parse(h.hs.URL)
	jar.SetCookies(u, ada.c.Jar.Cookies(u))
	thief := &person{h: h, c: &http.Client{Jar: jar}}
	stolen := thief.dial(tab.Table)
	if w := stolen.next("welcome"); w.Seat != 0 {
		t.Fatalf("the copied session's socket is seat %d", w.Seat)
	}
	ada.must(http.StatusOK, "POST", "/api/account/claim", map[string]string{"username": "ada", "password": "lovelace-1815"}, nil)
	stolen.closes("the socket of the guest session the claim replaced")
	if w := thief.dial(tab.Table).next("welcome"); w.Seat != game.Spectator {
		t.Fatalf("the old session connects again as seat %d, want a spectator", w.Seat)
	}
	if w := ada.dial(tab.Table).next("welcome"); w.Seat != 0 {
		t.Fatalf("the claimer's new session connects as seat %d", w.Seat)
	}
}
