package account

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"net/http/cookiejar"
	"net/http/httptest"
	"net/url"
	"sync/atomic"
	"testing"
	"time"

	"tapis/clocktest"
	"tapis/limit"
	"tapis/store"
)

// harness is a Service over a Memory store, mounted behind SameOrigin on
// a test server that trusts the loopback as a proxy, so that each client
// can say which address it comes from in X-Forwarded-For.
type harness struct {
	t      testing.TB
	svc    *Service
	store  *store.Memory
	clock  *clocktest.Clock
	srv    *httptest.Server
	hashes atomic.Int64 // argon2 computations started, of every kind
	// hold, if set before the requests it concerns, runs as each hash
	// starts, with the network it runs for, holding its slot until it
	// returns.
	hold func(network string)
}

// newHarness starts a harness; edit, if not nil, changes the Config
// before the Service is made.
func newHarness(t testing.TB, edit func(*Config)) *harness {
	t.Helper()
	proxies, err := limit.ParseProxies("127.0.0.1, ::1")
	if err != nil {
		t.Fatal(err)
	}
	h := &harness{t: t, store: store.NewMemory(), clock: clocktest.New(time.Date(2030, 1, 2, 3, 4, 5, 0, time.UTC))}
	hasher := NewHasher(0)
	hasher.holding = func(network string) {
		h.hashes.Add(1)
		if h.hold != nil {
			h.hold(network)
		}
	}
	cfg := Config{Players: h.store, Hasher: hasher, Now: h.clock.Now, Proxies: proxies}
	if edit != nil {
		edit(&cfg)
	}
	h.svc, err = New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	mux := http.NewServeMux()
	h.svc.Routes(mux)
	h.srv = httptest.NewServer(SameOrigin(proxies, mux))
	t.Cleanup(h.srv.Close)
	return h
}

// client is one browser: its own cookie jar, and the address it claims
// through the trusted proxy.
type client struct {
	h    *harness
	http *http.Client
	jar  *cookiejar.Jar
	addr string
}

func (h *harness) client(addr string) *client {
	jar, err := cookiejar.New(nil)
	if err != nil {
		h.t.Fatal(err)
	}
	return &client{h: h, http: &http.Client{Jar: jar}, jar: jar, addr: addr}
}

// answer is a response read whole.
type answer struct {
	status int
	header http.Header
	body   []byte
}

// player returns the "player" of a successful answer, nil for null.
func (a answer) player(t testing.TB) *PlayerView {
	t.Helper()
	var v struct {
		Player *PlayerView `json:"player"`
	}
	if err := json.Unmarshal(a.body, &v); err != nil {
		t.Fatalf("answer %d %s: %v", a.status, a.body, err)
	}
	return v.Player
}

// code returns the "code" of an error answer.
func (a answer) code() string {
	var v struct{ Code string }
	json.Unmarshal(a.body, &v)
	return v.Code
}

// do sends a request with body as JSON (none if nil) and extra headers
// given as name, value pairs.
func (c *client) do(method, path string, body any, headers ...string) answer {
	c.h.t.Helper()
	var rd io.Reader
	if body != nil {
		b, err := json.Marshal(body)
		if err != nil {
			c.h.t.Fatal(err)
		}
		rd = bytes.NewReader(b)
	}
	req, err := http.NewRequest(method, c.h.srv.URL+path, rd)
	if err != nil {
		c.h.t.Fatal(err)
	}
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	req.Header.Set("X-Forwarded-For", c.addr)
	for i := 0; i+1 < len(headers); i += 2 {
		req.Header.Set(headers[i], headers[i+1])
	}
	resp, err := c.http.Do(req)
	if err != nil {
		c.h.t.Fatal(err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		c.h.t.Fatal(err)
	}
	return answer{status: resp.StatusCode, header: resp.Header, body: b}
}

// post sends a POST and fails the test unless it answers want.
func (c *client) post(path string, body any, want int) answer {
	c.h.t.Helper()
	a := c.do("POST", path, body)
	if a.status != want {
		c.h.t.Fatalf("POST %s %v from %s: %d %s, want %d", path, body, c.addr, a.status, a.body, want)
	}
	return a
}

// me returns who the client is (nil for nobody).
func (c *client) me() *PlayerView {
	c.h.t.Helper()
	a := c.do("GET", "/api/me", nil)
	if a.status != http.StatusOK {
		c.h.t.Fatalf("GET /api/me: %d %s", a.status, a.body)
	}
	return a.player(c.h.t)
}

// guest makes the client a guest called name and returns it.
func (c *client) guest(name string) *PlayerView {
	c.h.t.Helper()
	p := c.post("/api/me", map[string]string{"name": name}, http.StatusOK).player(c.h.t)
	if p == nil || !p.Guest {
		c.h.t.Fatalf("POST /api/me made %+v, want a guest", p)
	}
	return p
}

// token returns the session token in the client's jar ("" if none).
func (c *client) token() string {
	u, _ := url.Parse(c.h.srv.URL)
	for _, k := range c.jar.Cookies(u) {
		if k.Name == CookieName {
			return k.Value
		}
	}
	return ""
}

// counted runs f and returns how many hashes it started.
func (h *harness) counted(f func()) int64 {
	before := h.hashes.Load()
	f()
	return h.hashes.Load() - before
}
