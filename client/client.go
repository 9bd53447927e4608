// Package client is a Go client of Tapis's public HTTP and WebSocket API
// (docs/API.md): it creates and joins tables, then plays a seat over the
// table's WebSocket. `tapis loadtest` and the programs under examples/ are
// built on it; bot authors may use it the same way.
//
// A Client speaks HTTP to one server; Create and Join take a seat and
// return its token, which Dial turns into a Conn, the seat's WebSocket.
// A Conn reads the server's messages as typed values (Welcome, State,
// TableUpdate, Error, ...) and sends moves carrying the move count of the
// latest State, so that a move is never played in a position it was not
// chosen for. It keeps its seat present with a heartbeat.
//
// The package depends on nothing else of Tapis but package wire, whose
// message types it reads: it is the protocol as a client sees it.
package client

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/cookiejar"
	"net/url"
	"strconv"
	"strings"
	"time"
)

// Client talks to one Tapis server. It is safe for concurrent use.
type Client struct {
	base      *url.URL
	http      *http.Client
	header    http.Header
	heartbeat time.Duration
}

// Option configures a Client.
type Option func(*Client)

// WithHTTPClient makes the Client send its requests, and open its
// WebSockets, through hc (default: a client of its own, with a 30 s
// timeout per request).
func WithHTTPClient(hc *http.Client) Option { return func(c *Client) { c.http = hc } }

// WithCookies gives the Client a cookie jar, so that the session a server
// sets (Guest, or a sign-in) is sent with every later request and
// WebSocket: the player's seats are then theirs without tokens.
func WithCookies() Option {
	return func(c *Client) {
		jar, _ := cookiejar.New(nil) // fails only with options, which it has none
		hc := *c.http
		hc.Jar = jar
		c.http = &hc
	}
}

// WithHeader adds a header to every request and WebSocket handshake. A
// load test uses it to send X-Forwarded-For, which a server trusts only
// from the proxies it was told of (`tapis serve --trusted-proxy`).
func WithHeader(key, value string) Option {
	return func(c *Client) { c.header.Add(key, value) }
}

// WithHeartbeat makes the Conns ping every d rather than every
// Heartbeat (for a server started with a shorter presence timeout).
func WithHeartbeat(d time.Duration) Option { return func(c *Client) { c.heartbeat = d } }

// New returns a Client of the server at base ("https://tapis.example" or
// "http://127.0.0.1:8080"; a path is kept as a prefix).
func New(base string, opts ...Option) (*Client, error) {
	u, err := url.Parse(base)
	if err != nil {
		return nil, fmt.Errorf("client: server address %q: %v", base, err)
	}
	if u.Scheme != "http" && u.Scheme != "https" || u.Host == "" {
		return nil, fmt.Errorf("client: server address %q: want http://host or https://host", base)
	}
	u.Path = strings.TrimSuffix(u.Path, "/")
	u.RawQuery, u.Fragment = "", ""
	c := &Client{base: u, http: &http.Client{Timeout: 30 * time.Second}, header: http.Header{}, heartbeat: Heartbeat}
	for _, o := range opts {
		o(c)
	}
	return c, nil
}

// ParseInvite splits an invite link (https://host/t/ID, as a seat
// response's Invite) into the server's address and the table's id.
func ParseInvite(link string) (base, table string, err error) {
	u, err := url.Parse(link)
	if err != nil {
		return "", "", fmt.Errorf("client: invite %q: %v", link, err)
	}
	prefix, id, ok := strings.Cut(u.Path, "/t/")
	if !ok || id == "" || strings.Contains(id, "/") || u.Host == "" {
		return "", "", fmt.Errorf("client: invite %q: want https://host/t/ID", link)
	}
	return u.Scheme + "://" + u.Host + prefix, id, nil
}

// NewTable is a table to create (POST /api/tables; docs/API.md).
type NewTable struct {
	Game    string          `json:"game"`
	Players int             `json:"players"`
	Options json.RawMessage `json:"options,omitempty"`
	// Bots has one entry per seat: "" for a person, else a bot level
	// ("random", "easy", "normal", "hard"); nil: every seat a person's.
	// A list of another length is refused.
	Bots []string `json:"bots,omitempty"`
	// Name is the creator's, who takes the first person's seat; without
	// it, the Client needs a session (WithCookies and Guest).
	Name        string `json:"name,omitempty"`
	TurnSeconds int    `json:"turn_seconds,omitempty"`
	MemoryAid   bool   `json:"memory_aid,omitempty"`
	Public      bool   `json:"public,omitempty"`
	Lang        string `json:"lang,omitempty"`
	Rated       bool   `json:"rated,omitempty"`
}

// Seat is a seat taken at a table: its token reaches it again (Dial).
type Seat struct {
	Table string `json:"table"`
	Seat  int    `json:"seat"`
	Token string `json:"token"`
	// URL is the table's page on the server, Invite its absolute link.
	URL    string `json:"url"`
	Invite string `json:"invite"`
}

// Player is who a session is (GET and POST /api/me).
type Player struct {
	ID       string `json:"id"`
	Name     string `json:"name"`
	Username string `json:"username"`
	Guest    bool   `json:"guest"`
}

// APIError is a refusal from the HTTP API: its status, its stable code
// ("too_fast", "bad_players", ...), for a refusal by a game's rules or the
// server's checks a stable reason and its args ("bad_option",
// {"option":"hand_size"}), its words, and for 429 how long to wait before
// trying again.
type APIError struct {
	Status     int
	Code       string
	Reason     string
	Args       map[string]any
	Message    string
	RetryAfter time.Duration
}

func (e *APIError) Error() string {
	return fmt.Sprintf("client: %d %s: %s", e.Status, e.Code, e.Message)
}

// Create creates a table; the seat is the creator's.
func (c *Client) Create(ctx context.Context, t NewTable) (Seat, error) {
	var s Seat
	err := c.do(ctx, http.MethodPost, "/api/tables", t, &s)
	return s, err
}

// Join takes the first free seat of table under name (or the session's
// player, with WithCookies after Guest).
func (c *Client) Join(ctx context.Context, table, name string) (Seat, error) {
	var s Seat
	err := c.do(ctx, http.MethodPost, "/api/tables/"+url.PathEscape(table)+"/join", map[string]string{"name": name}, &s)
	return s, err
}

// Guest makes a guest player called name and keeps its session (it needs
// WithCookies to be of use), or renames the session's player.
func (c *Client) Guest(ctx context.Context, name string) (Player, error) {
	var out struct {
		Player Player `json:"player"`
	}
	err := c.do(ctx, http.MethodPost, "/api/me", map[string]string{"name": name}, &out)
	return out.Player, err
}

// Table returns the table as everyone sees it (GET /api/tables/{id}).
func (c *Client) Table(ctx context.Context, table string) (Table, error) {
	var t Table
	err := c.do(ctx, http.MethodGet, "/api/tables/"+url.PathEscape(table), nil, &t)
	return t, err
}

// Get fetches path of the server's (such as "/metrics" or
// "/api/games") and returns its body, for what this package does not
// wrap. A status other than 200 is an *APIError.
func (c *Client) Get(ctx context.Context, path string) ([]byte, error) {
	req, err := c.request(ctx, http.MethodGet, path, nil)
	if err != nil {
		return nil, err
	}
	resp, err := c.http.Do(req)
	if err != nil {
		return nil, fmt.Errorf("client: GET %s: %w", path, err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(io.LimitReader(resp.Body, 64<<20))
	if err != nil {
		return nil, fmt.Errorf("client: GET %s: %w", path, err)
	}
	if resp.StatusCode != http.StatusOK {
		return nil, apiError(resp, b)
	}
	return b, nil
}

func (c *Client) request(ctx context.Context, method, path string, body any) (*http.Request, error) {
	var rd io.Reader
	if body != nil {
		b, err := json.Marshal(body)
		if err != nil {
			return nil, fmt.Errorf("client: %s %s: %v", method, path, err)
		}
		rd = bytes.NewReader(b)
	}
	req, err := http.NewRequestWithContext(ctx, method, c.base.String()+path, rd)
	if err != nil {
		return nil, fmt.Errorf("client: %s %s: %v", method, path, err)
	}
	for k, v := range c.header {
		req.Header[k] = append([]string(nil), v...)
	}
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	return req, nil
}

// do sends body as JSON and decodes a 2xx answer into out.
func (c *Client) do(ctx context.Context, method, path string, body, out any) error {
	req, err := c.request(ctx, method, path, body)
	if err != nil {
		return err
	}
	resp, err := c.http.Do(req)
	if err != nil {
		return fmt.Errorf("client: %s %s: %w", method, path, err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(io.LimitReader(resp.Body, 16<<20))
	if err != nil {
		return fmt.Errorf("client: %s %s: %w", method, path, err)
	}
	if resp.StatusCode/100 != 2 {
		return apiError(resp, b)
	}
	if err := json.Unmarshal(b, out); err != nil {
		return fmt.Errorf("client: %s %s: the answer is not what the API says: %v", method, path, err)
	}
	return nil
}

// apiError reads the API's {"code","reason","args","error"} out of a
// refusal.
func apiError(resp *http.Response, body []byte) error {
	e := &APIError{Status: resp.StatusCode}
	var msg struct {
		Code   string         `json:"code"`
		Reason string         `json:"reason"`
		Args   map[string]any `json:"args"`
		Error  string         `json:"error"`
	}
	if json.Unmarshal(body, &msg) == nil && msg.Code != "" {
		e.Code, e.Reason, e.Args, e.Message = msg.Code, msg.Reason, msg.Args, msg.Error
	} else {
		e.Code, e.Message = "http", strings.TrimSpace(string(body))
	}
	if s, err := strconv.Atoi(resp.Header.Get("Retry-After")); err == nil && s >= 0 {
		e.RetryAfter = time.Duration(s) * time.Second
	}
	return e
}

// IsTooFast reports whether err is the server's refusal for going too
// fast (429), and how long it asks to wait.
func IsTooFast(err error) (time.Duration, bool) {
	var e *APIError
	if errors.As(err, &e) && e.Status == http.StatusTooManyRequests {
		return e.RetryAfter, true
	}
	return 0, false
}
