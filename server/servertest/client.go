package servertest

import (
	"context"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/coder/websocket"

	"tapis/game"
)

// Client is a WebSocket client of a table that keeps every message it
// receives: a goroutine reads them in order until the socket closes.
type Client struct {
	// Conn is the socket, for a test that writes to it or closes it.
	Conn *websocket.Conn

	t    testing.TB
	msgs chan []byte
	all  [][]byte // every message, in order
	mu   sync.Mutex
	done chan struct{}
}

// Dial opens table's WebSocket with a seat's token, or as a spectator
// when token is "".
func (s *Server) Dial(table, token string) *Client {
	s.t.Helper()
	c, err := s.TryDial(table, token)
	if err != nil {
		s.t.Fatal(err)
	}
	return c
}

// TryDial is Dial that returns the error of a refused connection.
func (s *Server) TryDial(table, token string) (*Client, error) {
	url := s.WS(table)
	if token != "" {
		url += "?token=" + token
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	ws, _, err := websocket.Dial(ctx, url, nil)
	if err != nil {
		return nil, err
	}
	return s.Wrap(ws), nil
}

// WS is the address of table's WebSocket.
func (s *Server) WS(table string) string {
	return "ws" + strings.TrimPrefix(s.URL, "http") + "/api/tables/" + table + "/ws"
}

// Wrap makes a Client of a WebSocket the test opened itself (from another
// address, with cookies...); it is closed when the test ends.
func (s *Server) Wrap(ws *websocket.Conn) *Client {
	ws.SetReadLimit(1 << 22)
	c := &Client{t: s.t, Conn: ws, msgs: make(chan []byte, 100000), done: make(chan struct{})}
	go func() {
		defer close(c.done)
		defer close(c.msgs)
		for {
			_, b, err := ws.Read(context.Background())
			if err != nil {
				return
			}
			c.mu.Lock()
			c.all = append(c.all, b)
			c.mu.Unlock()
			c.msgs <- b
		}
	}()
	s.t.Cleanup(func() { ws.CloseNow() })
	return c
}

// Msgs is the messages not yet taken by Next and the like, as sent;
// it is closed once the socket is.
func (c *Client) Msgs() <-chan []byte { return c.msgs }

// Done is closed once the socket is closed and every message read.
func (c *Client) Done() <-chan struct{} { return c.done }

// Send sends v: a string or []byte as it is, anything else as JSON.
func (c *Client) Send(v any) {
	c.t.Helper()
	var b []byte
	switch x := v.(type) {
	case string:
		b = []byte(x)
	case []byte:
		b = x
	default:
		b, _ = json.Marshal(v)
	}
	if err := c.Conn.Write(context.Background(), websocket.MessageText, b); err != nil {
		c.t.Fatalf("send: %v", err)
	}
}

// SendE is Send of JSON for other goroutines than the test's.
func (c *Client) SendE(v any) error {
	b, _ := json.Marshal(v)
	return c.Conn.Write(context.Background(), websocket.MessageText, b)
}

// Msg is any server message, decoded loosely.
type Msg struct {
	Type   string            `json:"type"`
	Seat   game.Seat         `json:"seat"`
	Code   string            `json:"code"`
	Error  string            `json:"error"`
	N      int               `json:"n"`
	Match  int               `json:"match"`
	By     game.Seat         `json:"by"`
	Status string            `json:"status"`
	Legal  []json.RawMessage `json:"legal"`
	ToMove []game.Seat       `json:"to_move"`
	View   json.RawMessage   `json:"view"`
	Events []json.RawMessage `json:"events"`
	Result game.Result       `json:"result"`
	Table  struct {
		Status string `json:"status"`
	} `json:"table"`
	History []json.RawMessage `json:"history"`
	Count   int               `json:"count"` // "watchers"
}

// Next returns the next message of one of the types (any type if none),
// skipping others; it fails the test after 20 s.
func (c *Client) Next(types ...string) Msg {
	c.t.Helper()
	m, err := c.NextE(types...)
	if err != nil {
		c.t.Fatal(err)
	}
	return m
}

// NextE is Next for other goroutines than the test's: it returns errors.
func (c *Client) NextE(types ...string) (Msg, error) {
	return nextOf(c, func(m Msg) string { return m.Type }, types)
}

// nextOf returns the next message whose type (kind) is one of types (any
// type if none), decoded as an M, skipping others; it gives up after 20 s.
func nextOf[M any](c *Client, kind func(M) string, types []string) (M, error) {
	var none M
	timeout := time.After(20 * time.Second)
	for {
		select {
		case b, ok := <-c.msgs:
			if !ok {
				return none, fmt.Errorf("connection closed while waiting for %v", types)
			}
			var m M
			if err := json.Unmarshal(b, &m); err != nil {
				return none, fmt.Errorf("bad message %s: %v", b, err)
			}
			if len(types) == 0 || slices.Contains(types, kind(m)) {
				return m, nil
			}
		case <-timeout:
			return none, fmt.Errorf("no %v message in 20s", types)
		}
	}
}

// Messages returns a copy of every message received so far, taken or not.
func (c *Client) Messages() [][]byte {
	c.mu.Lock()
	defer c.mu.Unlock()
	return append([][]byte(nil), c.all...)
}

func (c *Client) String() string { return fmt.Sprintf("client %p", c) }

// PlayRandom plays seat's moves at random (from seed) among the legal
// moves the server sends c, until the match is over or stopAt moves have
// been applied. It returns the last state seen. It may run on any
// goroutine.
func PlayRandom(c *Client, seat game.Seat, seed uint64, stopAt int) (Msg, error) {
	rng := rand.New(rand.NewPCG(seed, 7))
	// pending: a move is sent and its state (by == seat) not yet back;
	// states that cross it on the wire still show the seat to move.
	pending := false
	for {
		m, err := c.NextE("state", "error")
		if err != nil {
			return m, err
		}
		if m.Type == "error" {
			return m, fmt.Errorf("seat %d: error %s: %s", seat, m.Code, m.Error)
		}
		if m.By == seat {
			pending = false
		}
		// Not while a move of the seat's is on its way: a caller that
		// hangs up at stopAt and dials again would otherwise see the seat
		// to move once more, and its next move refused, when that move
		// lands.
		if m.Status == "over" || m.N >= stopAt && !pending {
			return m, nil
		}
		if !pending && slices.Contains(m.ToMove, seat) && len(m.Legal) > 0 {
			pending = true
			mv := m.Legal[rng.IntN(len(m.Legal))]
			if err := c.SendE(map[string]any{"type": "move", "move": mv}); err != nil {
				return m, err
			}
		}
	}
}
