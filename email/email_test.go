package email_test

import (
	"io"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"tapis/email"
	"tapis/notify"
	"tapis/server/servertest"
	"tapis/store"
)

// site is the site's URL the mails' links start with; the tests follow
// them on the test's server.
const site = "https://tapis.test"

// mailed starts a server whose notifications go by e-mail to a mail
// server of the test's.
func mailed(t *testing.T) (*servertest.Server, <-chan Mail) {
	t.Helper()
	addr, mails := mailServer(t, "tapis", "s3cret")
	u, err := email.ParseURL("smtp://tapis:s3cret@" + addr)
	if err != nil {
		t.Fatal(err)
	}
	cfg := servertest.Unlimited()
	cfg.Mail = email.Config{SMTP: u, From: "Tapis <tapis@example.org>", Site: site}
	return servertest.New(t, cfg), mails
}

// follow sends a link of a mail to the test's server, as method, with no
// cookie (a mail service, or a browser that never signed in), and
// returns the status and the page.
func follow(t *testing.T, s *servertest.Server, method, link, body string) (int, string) {
	t.Helper()
	if !strings.HasPrefix(link, site+"/") {
		t.Fatalf("a link off the site: %s", link)
	}
	req, err := http.NewRequest(method, s.URL+strings.TrimPrefix(link, site), strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	if body != "" {
		req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(b)
}

// choose turns kind on or off by e-mail for p.
func choose(p *servertest.Person, kind string, on bool) {
	p.Must(http.StatusOK, "POST", "/api/me/notifications", map[string]any{"kind": kind, "channel": "email", "on": on}, nil)
}

// An address verified by its link; a friend request mailed in the
// player's language, with a one-click unsubscribe that works without a
// session and is not set off by opening the link.
func TestMailedFriendRequest(t *testing.T) {
	s, mails := mailed(t)
	ann, annID := s.SignUp("Ann", "ann")
	bob, _ := s.SignUp("Bob", "bob")
	cat, _ := s.SignUp("Cat", "cat")
	dan, _ := s.SignUp("Dan", "dan")

	var a email.Address
	bob.Must(http.StatusOK, "POST", "/api/me/email", map[string]string{"address": "bob@example.org", "lang": "fr"}, &a)
	if a.Verified || a.Address != "bob@example.org" {
		t.Fatalf("address %+v", a)
	}
	v := <-mails
	if v.To != "bob@example.org" || v.From != "tapis@example.org" || !strings.Contains(v.Subject, "Confirmez") ||
		v.Header.Get("Content-Transfer-Encoding") != "quoted-printable" {
		t.Fatalf("verification mail %+v", v)
	}
	// Chosen before it is verified: nothing goes to the address.
	choose(bob, store.KindFriendRequest, true)
	ann.Must(http.StatusOK, "POST", "/api/me/friends", map[string]string{"username": "bob"}, nil)

	if st, _ := follow(t, s, "GET", site+"/api/email/verify?t=forged", ""); st != 404 {
		t.Fatalf("a forged link: %d", st)
	}
	st, pg := follow(t, s, "GET", v.link(t, site+"/api/email/verify?t="), "")
	if st != 200 || !strings.Contains(pg, "confirmée") {
		t.Fatalf("verifying: %d %s", st, pg)
	}
	bob.Must(http.StatusOK, "GET", "/api/me/email", nil, &a)
	if !a.Verified || a.Lang != "fr" {
		t.Fatalf("after its link, address %+v", a)
	}

	// Cat asks: the first mail to Bob's address since it was verified is
	// hers (Ann's, before, was never written to the outbox).
	cat.Must(http.StatusOK, "POST", "/api/me/friends", map[string]string{"username": "bob"}, nil)
	m := <-mails
	if m.To != "bob@example.org" || m.Subject != "Cat vous demande en ami sur Tapis" || !strings.Contains(m.Body, "Cat vous a demandé en ami") {
		t.Fatalf("mail %q: %q", m.Subject, m.Body)
	}
	var in notify.Inbox
	bob.Must(http.StatusOK, "GET", "/api/me/inbox", nil, &in)
	if len(in.Items) != 2 || m.Header.Get("Message-ID") != "<"+in.Items[0].ID+".email@example.org>" {
		t.Fatalf("Message-ID %s, inbox %+v", m.Header.Get("Message-ID"), in)
	}
	stop := m.Header.Get("List-Unsubscribe")
	if m.Header.Get("List-Unsubscribe-Post") != "List-Unsubscribe=One-Click" || !strings.HasPrefix(stop, "<"+site+"/api/unsubscribe?t=") ||
		!strings.Contains(m.Body, strings.Trim(stop, "<>")) {
		t.Fatalf("unsubscribe headers %q %q, body %q", stop, m.Header.Get("List-Unsubscribe-Post"), m.Body)
	}
	stop = strings.Trim(stop, "<>")

	// Opening the link changes nothing (mail scanners open links); the
	// one click, RFC 8058's POST, from no session, turns the kind off.
	if st, pg := follow(t, s, "GET", stop, ""); st != 200 || !strings.Contains(pg, `method="post"`) {
		t.Fatalf("the unsubscribe page: %d %s", st, pg)
	}
	var ch notify.Choices
	bob.Must(http.StatusOK, "GET", "/api/me/notifications", nil, &ch)
	if !on(ch, store.KindFriendRequest) {
		t.Fatal("opening the unsubscribe link unsubscribed")
	}
	if st, _ := follow(t, s, "POST", site+"/api/unsubscribe?t=x."+url.QueryEscape("forged"), "List-Unsubscribe=One-Click"); st != 404 {
		t.Fatalf("a forged unsubscribe: %d", st)
	}
	if st, pg := follow(t, s, "POST", stop, "List-Unsubscribe=One-Click"); st != 200 || !strings.Contains(pg, "est fait : vous ne recevrez plus") {
		t.Fatalf("one click: %d %s", st, pg)
	}
	bob.Must(http.StatusOK, "GET", "/api/me/notifications", nil, &ch)
	if on(ch, store.KindFriendRequest) {
		t.Fatal("still subscribed after the one click")
	}
	// Dan asks while it is off, then Bob turns it on again and Ann asks
	// (again, having been declined): the next mail is Ann's.
	dan.Must(http.StatusOK, "POST", "/api/me/friends", map[string]string{"username": "bob"}, nil)
	choose(bob, store.KindFriendRequest, true)
	bob.Must(http.StatusOK, "POST", "/api/me/email", map[string]string{"address": "bob@example.org", "lang": "en"}, &a)
	if !a.Verified {
		t.Fatal("the same address in another language is no longer verified")
	}
	bob.Must(http.StatusOK, "DELETE", "/api/me/friends/"+annID, nil, nil)
	ann.Must(http.StatusOK, "POST", "/api/me/friends", map[string]string{"username": "bob"}, nil)
	if m := <-mails; m.Subject != "Ann wants to be your friend on Tapis" {
		t.Fatalf("the next mail: %q", m.Subject)
	}
}

// on reports whether kind is on by e-mail in ch.
func on(ch notify.Choices, kind string) bool {
	for _, p := range ch.Prefs {
		if p.Kind == kind && p.Channel == store.ChannelEmail {
			return p.On
		}
	}
	return false
}

// The verification mail's unsubscribe forgets the address (somebody else
// gave it); addresses that are not one are refused.
func TestAddress(t *testing.T) {
	s, mails := mailed(t)
	bob, _ := s.SignUp("Bob", "bob")
	guest, _ := s.SignUp("Gus", "")
	var e struct{ Code string }
	for _, c := range []struct {
		p      *servertest.Person
		body   map[string]string
		status int
		code   string
	}{
		{bob, map[string]string{"address": "not an address", "lang": "en"}, 400, "bad_address"},
		{bob, map[string]string{"address": "Bob <bob@example.org>", "lang": "en"}, 400, "bad_address"},
		{bob, map[string]string{"address": "bob@example.org", "lang": "de"}, 400, "bad_lang"},
		{bob, map[string]string{"address": "bob@refused.test", "lang": "en"}, 503, "mail_failed"},
		{guest, map[string]string{"address": "gus@example.org", "lang": "en"}, 403, "needs_account"},
	} {
		if st := c.p.Do("POST", "/api/me/email", c.body, &e); st != c.status || e.Code != c.code {
			t.Errorf("%v: %d %s, want %d %s", c.body, st, e.Code, c.status, c.code)
		}
	}
	bob.Must(http.StatusOK, "POST", "/api/me/email", map[string]string{"address": "bob@example.org", "lang": "en"}, nil)
	v := <-mails
	if v.Header.Get("List-Unsubscribe-Post") != "List-Unsubscribe=One-Click" {
		t.Fatalf("the verification mail's headers %v", v.Header)
	}
	if st, _ := follow(t, s, "POST", strings.Trim(v.Header.Get("List-Unsubscribe"), "<>"), "List-Unsubscribe=One-Click"); st != 200 {
		t.Fatalf("forgetting: %d", st)
	}
	var a email.Address
	bob.Must(http.StatusOK, "GET", "/api/me/email", nil, &a)
	if a.Address != "" {
		t.Fatalf("the address is still there: %+v", a)
	}
	// Its verification link no longer works.
	if st, _ := follow(t, s, "GET", v.link(t, site+"/api/email/verify?t="), ""); st != 404 {
		t.Fatalf("verifying a forgotten address: %d", st)
	}
}

func TestParseURL(t *testing.T) {
	for _, c := range []struct {
		in string
		ok bool
	}{
		{"smtp://u:p@mail.example.org:587", true},
		{"smtps://mail.example.org:465", true},
		{"http://mail.example.org:25", false},
		{"smtp://mail.example.org", false},
		{"smtp://u:se%zzcret@host:25", false},
	} {
		_, err := email.ParseURL(c.in)
		if (err == nil) != c.ok {
			t.Errorf("%s: %v", c.in, err)
		}
		if err != nil && strings.Contains(err.Error(), "cret") {
			t.Errorf("%s: the error quotes the password: %v", c.in, err)
		}
	}
}
