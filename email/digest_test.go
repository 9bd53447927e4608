package email_test

import (
	"net/http"
	"strings"
	"testing"
	"time"

	"tapis/clocktest"
	"tapis/email"
	"tapis/notify"
	"tapis/server/servertest"
	"tapis/store"
)

// The daily digest: a player who chose it gets their invitations in one
// mail at the day's digest time, in their language, with an unsubscribe
// that stops the kinds it gathers; a friend request is mailed at once.
func TestDailyDigest(t *testing.T) {
	addr, mails := mailServer(t, "tapis", "s3cret")
	u, err := email.ParseURL("smtp://tapis:s3cret@" + addr)
	if err != nil {
		t.Fatal(err)
	}
	day := time.Date(2026, 3, 2, 10, 0, 0, 0, time.UTC)
	clk := clocktest.New(day)
	cfg := servertest.Unlimited()
	cfg.Mail = email.Config{SMTP: u, From: "Tapis <tapis@example.org>", Site: site}
	cfg.Notify = notify.Config{Now: clk.Now, Every: 20 * time.Millisecond}
	s := servertest.New(t, cfg)
	ann, annID := s.SignUp("Ann", "ann")
	bob, _ := s.SignUp("Bob", "bob")
	cat, _ := s.SignUp("Cat", "cat")
	ann.Must(http.StatusOK, "POST", "/api/me/friends", map[string]string{"username": "bob"}, nil)
	bob.Must(http.StatusOK, "POST", "/api/me/friends/"+annID+"/accept", nil, nil)

	bob.Must(http.StatusOK, "POST", "/api/me/email", map[string]string{"address": "bob@example.org", "lang": "fr"}, nil)
	if st, _ := follow(t, s, "GET", (<-mails).link(t, site+"/api/email/verify?t="), ""); st != 200 {
		t.Fatalf("verifying: %d", st)
	}
	choose(bob, store.KindInvitation, true)
	choose(bob, store.KindFriendRequest, true)
	var ch notify.Choices
	bob.Must(http.StatusOK, "POST", "/api/me/notifications", map[string]any{"kind": "digest", "channel": "email", "on": true}, &ch)
	if !ch.Digest || !on(ch, store.KindInvitation) {
		t.Fatalf("choices %+v, want the digest and invitations on", ch)
	}

	invite := func() string {
		var tab servertest.Seat
		ann.Must(http.StatusCreated, "POST", "/api/tables", map[string]any{"game": "cabo", "players": 2, "bots": []string{"", ""}}, &tab)
		ann.Must(http.StatusOK, "POST", "/api/me/invitations", map[string]string{"table": tab.Table, "username": "bob"}, nil)
		return tab.Table
	}
	t1, t2 := invite(), invite()
	// A friend request is mailed at once: the first mail since the
	// invitations, which wait for the digest.
	cat.Must(http.StatusOK, "POST", "/api/me/friends", map[string]string{"username": "bob"}, nil)
	if m := <-mails; m.Subject != "Cat vous demande en ami sur Tapis" {
		t.Fatalf("the first mail: %q %q", m.Subject, m.Body)
	}

	// The next morning, at 8 UTC: one mail with both.
	clk.Set(time.Date(2026, 3, 3, 8, 0, 0, 0, time.UTC))
	m := <-mails
	if m.Subject != "Votre journée sur Tapis : 2 notifications" || strings.Count(m.Body, "Ann vous invite à jouer à cabo") != 2 ||
		!strings.Contains(m.Body, site+"/t/"+t1) || !strings.Contains(m.Body, site+"/t/"+t2) {
		t.Fatalf("the digest: %q %q", m.Subject, m.Body)
	}
	if id := m.Header.Get("Message-ID"); !strings.HasSuffix(id, ".digest@example.org>") {
		t.Fatalf("the digest's Message-ID %s", id)
	}
	stop := strings.Trim(m.Header.Get("List-Unsubscribe"), "<>")
	if m.Header.Get("List-Unsubscribe-Post") != "List-Unsubscribe=One-Click" || !strings.Contains(m.Body, stop) {
		t.Fatalf("the digest's unsubscribe: %q in %q", stop, m.Body)
	}

	// A third invitation goes in the next day's digest, alone: the first
	// two are not sent again.
	t3 := invite()
	clk.Set(time.Date(2026, 3, 4, 8, 0, 0, 0, time.UTC))
	if m := <-mails; m.Subject != "Votre journée sur Tapis : 1 notification" || !strings.Contains(m.Body, "/t/"+t3) || strings.Contains(m.Body, "/t/"+t1) {
		t.Fatalf("the second digest: %q %q", m.Subject, m.Body)
	}

	// Its one click stops the invitations' mails, not the digest (which
	// would mail them one by one).
	if st, _ := follow(t, s, "POST", stop, "List-Unsubscribe=One-Click"); st != 200 {
		t.Fatalf("one click: %d", st)
	}
	bob.Must(http.StatusOK, "GET", "/api/me/notifications", nil, &ch)
	if on(ch, store.KindInvitation) || !on(ch, store.KindFriendRequest) || !ch.Digest {
		t.Fatalf("after the digest's unsubscribe: %+v", ch)
	}
}
