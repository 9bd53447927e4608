package servertest

import (
	"bytes"
	"context"
	"encoding/json"
	"net/http"
	"net/http/cookiejar"
	"testing"
	"time"

	"github.com/coder/websocket"
)

// Person is a browser as the server sees it: its own cookie jar, so its
// own session.
type Person struct {
	// Server is the server the person talks to.
	Server *Server
	// HTTP is the person's client, with their cookies.
	HTTP *http.Client
}

// Person returns a person with no cookies yet.
func (s *Server) Person() *Person {
	jar, _ := cookiejar.New(nil)
	return &Person{Server: s, HTTP: &http.Client{Jar: jar, Timeout: 30 * time.Second}}
}

// SignUp makes a person with a guest session named name and, unless
// username is "", a claimed username (password "correct-horse-" +
// username). It returns the person and their player id.
func (s *Server) SignUp(name, username string) (*Person, string) {
	p := s.Person()
	var me struct {
		Player *struct {
			ID string `json:"id"`
		} `json:"player"`
	}
	p.Must(http.StatusOK, "POST", "/api/me", map[string]string{"name": name}, &me)
	if username != "" {
		p.Must(http.StatusOK, "POST", "/api/account/claim", map[string]string{"username": username, "password": "correct-horse-" + username}, nil)
	}
	return p, me.Player.ID
}

// Do sends a request (JSON body if body is not nil) with headers (name,
// value, name, value...), decodes the answer into out and returns the
// status.
func (p *Person) Do(method, path string, body, out any, headers ...string) int {
	p.Server.t.Helper()
	var rd *bytes.Reader
	if body != nil {
		b, _ := json.Marshal(body)
		rd = bytes.NewReader(b)
	} else {
		rd = bytes.NewReader(nil)
	}
	req, _ := http.NewRequest(method, p.Server.URL+path, rd)
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	for i := 0; i+1 < len(headers); i += 2 {
		req.Header.Set(headers[i], headers[i+1])
	}
	resp, err := p.HTTP.Do(req)
	if err != nil {
		p.Server.t.Fatal(err)
	}
	defer resp.Body.Close()
	if out != nil {
		json.NewDecoder(resp.Body).Decode(out)
	}
	return resp.StatusCode
}

// Must is Do that fails the test unless the answer has status want.
func (p *Person) Must(want int, method, path string, body, out any) {
	p.Server.t.Helper()
	var raw json.RawMessage
	if code := p.Do(method, path, body, &raw); code != want {
		p.Server.t.Fatalf("%s %s: status %d, want %d: %s", method, path, code, want, raw)
	}
	if out != nil {
		if err := json.Unmarshal(raw, out); err != nil {
			p.Server.t.Fatalf("%s %s: %v in %s", method, path, err, raw)
		}
	}
}

// Dial opens the table's WebSocket with the person's cookies and no token.
func (p *Person) Dial(table string) *Client {
	p.Server.t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	ws, _, err := websocket.Dial(ctx, p.Server.WS(table), &websocket.DialOptions{HTTPClient: p.HTTP})
	if err != nil {
		p.Server.t.Fatal(err)
	}
	return p.Server.Wrap(ws)
}

// PlayRated has p create a rated Cabo table against a random bot and play
// it to its end; it returns the table.
func PlayRated(t testing.TB, p *Person) string {
	t.Helper()
	var tab Seat
	p.Must(http.StatusCreated, "POST", "/api/tables", map[string]any{"game": "cabo", "players": 2, "bots": []string{"", "random"}, "rated": true}, &tab)
	c := p.Dial(tab.Table)
	if m, err := PlayRandom(c, tab.Seat, 3, 1<<30); err != nil || m.Status != "over" {
		t.Fatalf("playing: %v, %+v", err, m.Status)
	}
	c.Conn.CloseNow()
	return tab.Table
}

// Eventually waits for cond, within a generous ceiling (30 s), failing
// the test with what was awaited if it does not come.
func Eventually(t testing.TB, what string, cond func() bool) {
	t.Helper()
	for deadline := time.Now().Add(30 * time.Second); !cond(); time.Sleep(10 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("after 30 s, still not %s", what)
		}
	}
}

// Info reads a table through the API as p.
func (p *Person) Info(table string) TableInfo {
	p.Server.t.Helper()
	var in TableInfo
	p.Must(http.StatusOK, "GET", "/api/tables/"+table, nil, &in)
	return in
}
