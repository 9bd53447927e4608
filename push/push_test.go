package push_test

import (
	"crypto/ecdsa"
	"crypto/elliptic"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"sync"
	"testing"

	"github.com/golang-jwt/jwt/v5"

	"tapis/notify"
	"tapis/push"
	"tapis/push/pushtest"
	"tapis/server/servertest"
)

// browser is a browser's side of a subscription.
type browser = pushtest.Browser

func newBrowser(t *testing.T) browser { return pushtest.NewBrowser(t) }

// pushed is one push the test's push service took, decrypted.
type pushed struct {
	endpoint string
	topic    string
	msg      map[string]string
}

// pushService is a push service run by the test over TLS: an endpoint
// per browser, each decrypting with its browser's keys and checking the
// VAPID signature against the server's key; gone endpoints answer 410.
type pushService struct {
	*httptest.Server
	mu       sync.Mutex
	browsers map[string]browser
	gone     map[string]bool
	vapid    string
	pushes   chan pushed
	errs     chan error
}

func newPushService(t *testing.T) *pushService {
	ps := &pushService{browsers: map[string]browser{}, gone: map[string]bool{}, pushes: make(chan pushed, 16), errs: make(chan error, 16)}
	ps.Server = httptest.NewTLSServer(http.HandlerFunc(ps.serve))
	t.Cleanup(ps.Close)
	return ps
}

// endpoint makes a browser's subscription at the service.
func (ps *pushService) endpoint(t *testing.T, name string) (string, browser) {
	b := newBrowser(t)
	ps.mu.Lock()
	defer ps.mu.Unlock()
	ps.browsers["/"+name] = b
	return ps.URL + "/" + name, b
}

func (ps *pushService) serve(w http.ResponseWriter, r *http.Request) {
	ps.mu.Lock()
	b, ok := ps.browsers[r.URL.Path]
	gone, vapid := ps.gone[r.URL.Path], ps.vapid
	ps.mu.Unlock()
	if !ok || gone {
		w.WriteHeader(http.StatusGone)
		return
	}
	if err := ps.check(r, vapid); err != nil {
		ps.errs <- err
		w.WriteHeader(http.StatusUnauthorized)
		return
	}
	body, _ := io.ReadAll(r.Body)
	plain, err := b.Decrypt(body)
	var msg map[string]string
	if err == nil {
		err = json.Unmarshal(plain, &msg)
	}
	if err != nil {
		ps.errs <- fmt.Errorf("decrypting: %v", err)
		w.WriteHeader(http.StatusBadRequest)
		return
	}
	w.WriteHeader(http.StatusCreated)
	ps.pushes <- pushed{endpoint: ps.URL + r.URL.Path, topic: r.Header.Get("Topic"), msg: msg}
}

// check verifies a push's headers: aes128gcm, a TTL, and a VAPID JWT for
// this origin signed by the server's key vapid.
func (ps *pushService) check(r *http.Request, vapid string) error {
	if r.Header.Get("Content-Encoding") != "aes128gcm" || r.Header.Get("TTL") == "" {
		return fmt.Errorf("headers %v", r.Header)
	}
	a := r.Header.Get("Authorization")
	tok, k, ok := strings.Cut(strings.TrimPrefix(a, "vapid t="), ", k=")
	if !ok || k != vapid {
		return fmt.Errorf("authorization %q, want the key %s", a, vapid)
	}
	raw, err := base64.RawURLEncoding.DecodeString(k)
	if err != nil {
		return err
	}
	pub, err := ecdsa.ParseUncompressedPublicKey(elliptic.P256(), raw)
	if err != nil {
		return err
	}
	claims := jwt.MapClaims{}
	if _, err := jwt.ParseWithClaims(tok, claims, func(*jwt.Token) (any, error) { return pub, nil },
		jwt.WithValidMethods([]string{"ES256"})); err != nil {
		return fmt.Errorf("VAPID: %v", err)
	}
	if claims["aud"] != ps.URL || claims["sub"] != "https://tapis.test" {
		return fmt.Errorf("VAPID claims %v", claims)
	}
	return nil
}

// A friend request pushed to each browser of the player who chose it,
// in its language, decrypted at the push service with the browser's
// keys; a browser gone (410) is forgotten.
func TestPushed(t *testing.T) {
	ps := newPushService(t)
	cfg := servertest.Unlimited()
	cfg.Push = push.Config{Subscriber: "https://tapis.test", Site: "https://tapis.test", Client: ps.Client(),
		Endpoint: func(u *url.URL) bool { return u.Scheme == "https" }}
	s := servertest.New(t, cfg)
	ann, _ := s.SignUp("Ann", "ann")
	bob, bobID := s.SignUp("Bob", "bob")
	var key map[string]string
	bob.Must(http.StatusOK, "GET", "/api/push/key", nil, &key)
	ps.mu.Lock()
	ps.vapid = key["key"]
	ps.mu.Unlock()
	phone, pb := ps.endpoint(t, "phone")
	laptop, _ := ps.endpoint(t, "laptop")
	bob.Must(http.StatusOK, "POST", "/api/me/push", map[string]any{"endpoint": phone, "keys": pb.Keys(), "lang": "fr", "expirationTime": nil}, nil)
	lb := newBrowser(t)
	bob.Must(http.StatusOK, "POST", "/api/me/push", map[string]any{"endpoint": laptop, "keys": lb.Keys(), "lang": "en"}, nil)
	ps.mu.Lock()
	ps.browsers["/laptop"] = lb
	ps.gone["/laptop"] = true
	ps.mu.Unlock()
	bob.Must(http.StatusOK, "POST", "/api/me/notifications", map[string]any{"kind": "friend_request", "channel": "push", "on": true}, nil)

	ann.Must(http.StatusOK, "POST", "/api/me/friends", map[string]string{"username": "bob"}, nil)
	var p pushed
	select {
	case p = <-ps.pushes:
	case err := <-ps.errs:
		t.Fatal(err)
	}
	var in notify.Inbox
	bob.Must(http.StatusOK, "GET", "/api/me/inbox", nil, &in)
	if p.endpoint != phone || p.msg["title"] != "Tapis: Demande d'ami" || p.msg["body"] != "Ann vous demande en ami" ||
		p.msg["tag"] != in.Items[0].ID || p.topic != in.Items[0].ID || p.msg["url"] != "https://tapis.test/" {
		t.Fatalf("pushed %+v (inbox %+v)", p, in)
	}
	// The laptop's service answered 410: its subscription is gone.
	servertest.Eventually(t, "the gone subscription removed", func() bool {
		subs, err := s.Store.PushSubs(t.Context(), bobID)
		return err == nil && len(subs) == 1 && subs[0].Endpoint == phone
	})

	var e struct{ Code string }
	for _, c := range []struct {
		body map[string]any
		code string
	}{
		{map[string]any{"endpoint": "http://push.test/x", "keys": pb.Keys(), "lang": "en"}, "bad_subscription"},
		{map[string]any{"endpoint": phone, "keys": map[string]string{"p256dh": "AAAA", "auth": pb.Keys()["auth"]}, "lang": "en"}, "bad_subscription"},
		{map[string]any{"endpoint": phone, "keys": pb.Keys(), "lang": "de"}, "bad_lang"},
	} {
		if st := bob.Do("POST", "/api/me/push", c.body, &e); st != 400 || e.Code != c.code {
			t.Errorf("%v: %d %s, want 400 %s", c.body, st, e.Code, c.code)
		}
	}
	// Only one's own subscription is removed.
	ann.Must(http.StatusOK, "POST", "/api/me/push/remove", map[string]string{"endpoint": phone}, nil)
	if subs, _ := s.Store.PushSubs(t.Context(), bobID); len(subs) != 1 {
		t.Fatal("ann removed bob's subscription")
	}
	bob.Must(http.StatusOK, "POST", "/api/me/push/remove", map[string]string{"endpoint": phone}, nil)
	if subs, _ := s.Store.PushSubs(t.Context(), bobID); len(subs) != 0 {
		t.Fatal("bob's subscription is still there")
	}
}
