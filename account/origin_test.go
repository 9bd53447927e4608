package account

import (
	"crypto/tls"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"tapis/limit"
	"tapis/store"
)

func TestSameOrigin(t *testing.T) {
	proxies, err := limit.ParseProxies("10.0.0.0/8")
	if err != nil {
		t.Fatal(err)
	}
	const direct, proxy = "203.0.113.5:4000", "10.0.0.1:80"
	for _, c := range []struct {
		name    string
		method  string
		host    string
		remote  string
		tls     bool
		headers []string
		ok      bool
	}{
		{"same origin", "POST", "tapis.example", direct, false, []string{"Origin", "http://tapis.example"}, true},
		{"same origin, case and port", "POST", "Tapis.Example:443", direct, true, []string{"Origin", "https://tapis.example"}, true},
		{"same origin with a port", "POST", "localhost:8080", direct, false, []string{"Origin", "http://localhost:8080"}, true},
		{"another site", "POST", "tapis.example", direct, false, []string{"Origin", "https://evil.example"}, false},
		{"another port", "POST", "localhost:8080", direct, false, []string{"Origin", "http://localhost:9090"}, false},
		// The standard library compares hosts, not schemes: the site's own
		// https page posting to its http side is the same site.
		{"https page, http request", "POST", "tapis.example", direct, false, []string{"Origin", "https://tapis.example"}, true},
		{"a subdomain", "POST", "tapis.example", direct, false, []string{"Origin", "http://evil.tapis.example"}, false},
		{"null origin", "POST", "tapis.example", direct, false, []string{"Origin", "null"}, false},
		{"a sibling subdomain's fetch", "POST", "tapis.example", direct, false, []string{"Origin", "https://evil.tapis.example", "Sec-Fetch-Site", "same-site"}, false},
		{"the browser's word over a matching Origin", "POST", "tapis.example", direct, false, []string{"Origin", "http://tapis.example", "Sec-Fetch-Site", "cross-site"}, false},
		{"cross-site fetch without Origin", "POST", "tapis.example", direct, false, []string{"Sec-Fetch-Site", "cross-site"}, false},
		{"same-origin fetch without Origin", "POST", "tapis.example", direct, false, []string{"Sec-Fetch-Site", "same-origin"}, true},
		{"a program: no Origin, no Sec-Fetch-Site", "POST", "tapis.example", direct, false, nil, true},
		{"cross-site GET is not state-changing", "GET", "tapis.example", direct, false, []string{"Origin", "https://evil.example", "Sec-Fetch-Site", "cross-site"}, true},
		{"cross-site DELETE", "DELETE", "tapis.example", direct, false, []string{"Origin", "https://evil.example"}, false},
		{"behind a trusted proxy", "POST", "10.0.0.2:8080", proxy, false,
			[]string{"Origin", "https://tapis.example", "X-Forwarded-Host", "tapis.example", "X-Forwarded-Proto", "https"}, true},
		{"behind a trusted proxy, another site", "POST", "10.0.0.2:8080", proxy, false,
			[]string{"Origin", "https://evil.example", "X-Forwarded-Host", "tapis.example", "X-Forwarded-Proto", "https"}, false},
		{"forwarded headers from an untrusted peer", "POST", "tapis.example", direct, false,
			[]string{"Origin", "https://evil.example", "X-Forwarded-Host", "evil.example", "X-Forwarded-Proto", "https"}, false},
	} {
		t.Run(c.name, func(t *testing.T) {
			reached := false
			h := SameOrigin(proxies, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { reached = true }))
			r := httptest.NewRequest(c.method, "/api/me", nil)
			r.Host, r.RemoteAddr = c.host, c.remote
			if c.tls {
				r.TLS = &tls.ConnectionState{}
			}
			for i := 0; i+1 < len(c.headers); i += 2 {
				r.Header.Set(c.headers[i], c.headers[i+1])
			}
			w := httptest.NewRecorder()
			h.ServeHTTP(w, r)
			if reached != c.ok {
				t.Fatalf("passed = %v, want %v", reached, c.ok)
			}
			if !c.ok && (w.Code != http.StatusForbidden || !strings.Contains(w.Body.String(), `"code":"cross_site"`)) {
				t.Fatalf("refusal: %d %s", w.Code, w.Body)
			}
		})
	}
}

// TestCrossSiteThroughTheAPI: a page of another site cannot make a guest
// (or anything else) with the visitor's browser; the same page's can.
func TestCrossSiteThroughTheAPI(t *testing.T) {
	h := newHarness(t, nil)
	a := h.client("203.0.113.1")
	r := a.do("POST", "/api/me", map[string]string{"name": "Ann"}, "Origin", "https://evil.example")
	if r.status != http.StatusForbidden || r.code() != "cross_site" || a.token() != "" {
		t.Fatalf("cross-site POST: %d %s", r.status, r.body)
	}
	r = a.do("POST", "/api/me", map[string]string{"name": "Ann"}, "Sec-Fetch-Site", "cross-site")
	if r.status != http.StatusForbidden || r.code() != "cross_site" {
		t.Fatalf("cross-site POST without Origin: %d %s", r.status, r.body)
	}
	r = a.do("POST", "/api/me", map[string]string{"name": "Ann"}, "Origin", h.srv.URL, "Sec-Fetch-Site", "same-origin")
	if r.status != http.StatusOK || r.player(t) == nil {
		t.Fatalf("same-origin POST: %d %s", r.status, r.body)
	}
}

// TestCookie: the session cookie is out of scripts' reach, stays home on
// cross-site requests, lasts the session's lifetime, and is Secure when
// the browser reached the server over TLS, directly or through a trusted
// proxy, and only then (a Secure cookie sent over plain http is lost).
func TestCookie(t *testing.T) {
	proxies, err := limit.ParseProxies("10.0.0.0/8")
	if err != nil {
		t.Fatal(err)
	}
	now := time.Date(2030, 1, 2, 3, 4, 5, 0, time.UTC)
	svc, err := New(Config{Players: store.NewMemory(), Proxies: proxies, Now: func() time.Time { return now }})
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name   string
		remote string
		tls    bool
		proto  string
		secure bool
	}{
		{"plain http", "203.0.113.1:4000", false, "", false},
		{"direct TLS", "203.0.113.2:4000", true, "", true},
		{"trusted proxy says https", "10.0.0.1:80", false, "https", true},
		{"trusted proxy says http", "10.0.0.1:80", false, "http", false},
		{"untrusted peer says https", "203.0.113.3:4000", false, "https", false},
	} {
		t.Run(c.name, func(t *testing.T) {
			r := httptest.NewRequest("POST", "/api/me", strings.NewReader(`{"name":"Ann"}`))
			r.Header.Set("Content-Type", "application/json")
			r.RemoteAddr = c.remote
			if c.tls {
				r.TLS = &tls.ConnectionState{}
			}
			if c.proto != "" {
				r.Header.Set("X-Forwarded-Proto", c.proto)
			}
			w := httptest.NewRecorder()
			svc.SetMe(w, r)
			cookies := w.Result().Cookies()
			if w.Code != http.StatusOK || len(cookies) != 1 {
				t.Fatalf("%d %s, cookies %v", w.Code, w.Body, cookies)
			}
			k := cookies[0]
			if k.Name != CookieName || !k.HttpOnly || k.SameSite != http.SameSiteLaxMode || k.Path != "/" || k.Secure != c.secure {
				t.Fatalf("cookie %s: want HttpOnly, SameSite=Lax, Path=/, Secure=%v", w.Header().Get("Set-Cookie"), c.secure)
			}
			if k.MaxAge != int(DefaultLifetime/time.Second) || !k.Expires.Equal(now.Add(DefaultLifetime)) {
				t.Fatalf("cookie %s: want Max-Age %d and Expires %v", w.Header().Get("Set-Cookie"), int(DefaultLifetime/time.Second), now.Add(DefaultLifetime))
			}
			// The cookie holds the token, the store only its hash.
			sess, err := svc.players.Session(r.Context(), HashToken(k.Value), now)
			if err != nil || sess.Hash == k.Value {
				t.Fatalf("session of the cookie: %+v, %v", sess, err)
			}
		})
	}
}
