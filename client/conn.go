package client

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"net/url"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/coder/websocket"
)

// Heartbeat is how often a Conn pings the server. The server takes a
// connection silent for 40 s as gone and its seat as away (a bot then
// plays for it), so a client must say something well within that.
const Heartbeat = 15 * time.Second

// maxMessage bounds a message read: a view with its history and a long
// chat may be large, but not this large.
const maxMessage = 4 << 20

// Conn is a seat's (or a spectator's) WebSocket at one table. Next must be
// called by one goroutine at a time; the senders (Move, Again, Ping, Send)
// may be called from any goroutine.
type Conn struct {
	ws      *websocket.Conn
	welcome Welcome
	ids     atomic.Int64
	stop    context.CancelFunc
	done    chan struct{}

	mu    sync.Mutex
	state *State // the latest, nil before the first
	table Table
}

// Dial opens the WebSocket of table as the seat of token (or, with
// WithCookies, the session's player's seat, or else as a spectator when
// token is ""), and reads the server's welcome. The Conn pings the
// server every Heartbeat (or WithHeartbeat's) until Close.
func (c *Client) Dial(ctx context.Context, table, token string) (*Conn, error) {
	u := *c.base
	switch u.Scheme {
	case "https":
		u.Scheme = "wss"
	default:
		u.Scheme = "ws"
	}
	u.Path += "/api/tables/" + url.PathEscape(table) + "/ws"
	if token != "" {
		u.RawQuery = url.Values{"token": {token}}.Encode()
	}
	ws, _, err := websocket.Dial(ctx, u.String(), &websocket.DialOptions{HTTPClient: c.http, HTTPHeader: c.header.Clone()})
	if err != nil {
		return nil, fmt.Errorf("client: table %s: %w", table, hideToken{err, token})
	}
	ws.SetReadLimit(maxMessage)
	conn := &Conn{ws: ws, done: make(chan struct{})}
	m, err := conn.Next(ctx)
	if err != nil {
		ws.CloseNow()
		return nil, err
	}
	w, ok := m.(*Welcome)
	if !ok {
		ws.CloseNow()
		if e, ok := m.(*Error); ok {
			return nil, e
		}
		return nil, fmt.Errorf("client: table %s: the server said %q before its welcome", table, m.Kind())
	}
	conn.welcome = *w
	hctx, stop := context.WithCancel(context.Background())
	conn.stop = stop
	go conn.heartbeat(hctx, c.heartbeat)
	return conn, nil
}

// hideToken is a dial's error without the seat's token, which the URL in
// it carries: an error is logged, and the token takes the seat.
type hideToken struct {
	err   error
	token string
}

func (e hideToken) Error() string {
	if e.token == "" {
		return e.err.Error()
	}
	return strings.ReplaceAll(e.err.Error(), e.token, "…")
}

func (e hideToken) Unwrap() error { return e.err }

// heartbeat pings until ctx ends or a ping cannot be sent.
func (c *Conn) heartbeat(ctx context.Context, every time.Duration) {
	defer close(c.done)
	tick := time.NewTicker(every)
	defer tick.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-tick.C:
			if c.Ping(ctx) != nil {
				return
			}
		}
	}
}

// Welcome is the server's first message: the connection's seat and the
// table as it was then.
func (c *Conn) Welcome() Welcome { return c.welcome }

// Seat is the connection's seat, -1 for a spectator.
func (c *Conn) Seat() int { return c.welcome.Seat }

// State returns the latest state read (nil before the first).
func (c *Conn) State() *State {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.state
}

// Table returns the table as the latest welcome or table message said.
func (c *Conn) Table() Table {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.table
}

// Next reads the server's next message. An error means the connection is
// over (ctx ended, the server closed it, or a message did not decode).
func (c *Conn) Next(ctx context.Context) (Message, error) {
	_, b, err := c.ws.Read(ctx)
	if err != nil {
		return nil, fmt.Errorf("client: read: %w", err)
	}
	m, err := decode(b)
	if err != nil {
		return nil, err
	}
	c.mu.Lock()
	switch m := m.(type) {
	case *Welcome:
		c.table = m.Table
	case *TableUpdate:
		c.table = m.Table
	case *State:
		c.state = m
	}
	c.mu.Unlock()
	return m, nil
}

// Move sends move (one of the latest State's Legal, or any move of
// docs/replay.md) for the connection's seat, answering the latest state
// read: if the table has moved on since, the server refuses it as
// "stale" rather than play it elsewhere. It returns the message's id,
// which an Error it causes carries.
func (c *Conn) Move(ctx context.Context, move json.RawMessage) (int64, error) {
	st := c.State()
	if st == nil {
		return 0, errors.New("client: move: no state yet: wait for one")
	}
	return c.MoveAt(ctx, st.N, move)
}

// MoveAt sends move as the answer to the state whose move count is n.
func (c *Conn) MoveAt(ctx context.Context, n int, move json.RawMessage) (int64, error) {
	id := c.ids.Add(1)
	return id, c.Send(ctx, map[string]any{"type": "move", "move": move, "n": n, "id": id})
}

// Again starts the next match with the same seats, once the match is
// over. It returns the message's id.
func (c *Conn) Again(ctx context.Context) (int64, error) {
	id := c.ids.Add(1)
	return id, c.Send(ctx, map[string]any{"type": "again", "id": id})
}

// Ping asks the server for a Pong; the heartbeat calls it.
func (c *Conn) Ping(ctx context.Context) error {
	return c.Send(ctx, map[string]string{"type": "ping"})
}

// Send writes any client message of docs/API.md ("chat", "seat_bot",
// ...), marshalled as JSON.
func (c *Conn) Send(ctx context.Context, msg any) error {
	b, err := json.Marshal(msg)
	if err != nil {
		return fmt.Errorf("client: send: %v", err)
	}
	if err := c.ws.Write(ctx, websocket.MessageText, b); err != nil {
		return fmt.Errorf("client: send: %w", err)
	}
	return nil
}

// Close stops the heartbeat and closes the connection; the seat becomes
// away once the server notices.
func (c *Conn) Close() error {
	c.stop()
	<-c.done
	err := c.ws.Close(websocket.StatusNormalClosure, "")
	if err != nil && websocket.CloseStatus(err) == -1 && !errors.Is(err, net.ErrClosed) {
		return fmt.Errorf("client: close: %w", err)
	}
	return nil
}
