package socket

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"path"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/coder/websocket"
	"github.com/lesismal/nbio/logging"
	"github.com/lesismal/nbio/nbhttp"
	nbws "github.com/lesismal/nbio/nbhttp/websocket"
)

// Poller holds WebSockets on an event loop (github.com/lesismal/nbio)
// rather than a goroutine each (issue 28): an idle socket costs no
// goroutine, no stack and no blocked read, and a message is read by the
// loop in one system call and handed to its Handler there. The HTTP
// handshake stays net/http's; the upgraded connection then leaves Go's
// poller for the Poller's (nbio duplicates its descriptor).
//
// nbio was chosen over gobwas/ws with netpoll because it is the one of
// the two the module proxy serves here, it takes over a connection
// net/http accepted (no second HTTP server, the guards and routes stay
// as they are), and it frames, answers pings and closes by itself.
type Poller struct {
	engine *nbhttp.Engine
	up     *nbws.Upgrader
}

// Handler receives a polled socket's messages, on the event loop: it
// must not block (a handler that would hands the message to a goroutine
// of its own). data is the Poller's until Message returns.
type Handler interface {
	Message(typ websocket.MessageType, data []byte)
	// Closed is called once, when the socket is gone: closed by either
	// end or failed.
	Closed()
}

// maxBuffered is how much a polled socket may hold unwritten for a
// client that does not read, before the socket is closed: the Outbox's
// bound for a goroutine's socket, 256 messages, of 4 KB (a state at
// four seats is 2 to 5 KB). At 256 KB a page on a loaded machine fell
// that far behind a game of bots that play at once, was cut, and came
// back past the round's end it was to show.
const maxBuffered = 1 << 20

var quiet sync.Once

// NewPoller starts an event loop for sockets. Stop ends it.
func NewPoller() (*Poller, error) {
	// nbio logs its start and stop on standard output by default.
	quiet.Do(func() { logging.SetLevel(logging.LevelNone) })
	e := nbhttp.NewEngine(nbhttp.Config{
		Name:    "tapis",
		NPoller: 1,
		// A message is handled on the loop, not by a goroutine pool:
		// a Handler does not block, and a hand-off per message is the
		// cost this replaces.
		ServerExecutor:          func(f func()) { f() },
		ReleaseWebsocketPayload: true,
		ReadBufferSize:          16 << 10,
		MaxWriteBufferSize:      maxBuffered,
	})
	if err := e.Start(); err != nil {
		return nil, fmt.Errorf("socket: %v", err)
	}
	up := nbws.NewUpgrader()
	up.Engine = e
	up.BlockingModTrasferConnToPoller = true
	up.KeepaliveTime = 0 // the table's presence watch does this
	// Accept checks the origin first, with the patterns nbio's own check
	// (the same host only) does not know.
	up.CheckOrigin = func(*http.Request) bool { return true }
	up.OnMessage(func(c *nbws.Conn, typ nbws.MessageType, data []byte) {
		p := session(c)
		if p == nil {
			return
		}
		t := websocket.MessageText
		if typ == nbws.BinaryMessage {
			t = websocket.MessageBinary
		}
		p.h.Message(t, data)
	})
	up.SetPongHandler(func(c *nbws.Conn, _ string) {
		if p := session(c); p != nil {
			select {
			case p.pong <- struct{}{}:
			default:
			}
		}
	})
	up.OnClose(func(c *nbws.Conn, _ error) {
		if p := session(c); p != nil {
			p.closed()
		}
	})
	return &Poller{engine: e, up: up}, nil
}

// Stop closes what sockets are left and ends the loop.
func (p *Poller) Stop() { p.engine.Stop() }

// session returns c's polled socket, waiting for Accept to have set it:
// the loop may read a message the client sent right after the handshake
// before Accept has returned.
func session(c *nbws.Conn) *Polled {
	p, _ := c.SessionWithLock().(*Polled)
	return p
}

// ErrNotPolled is Accept's answer for a request whose connection the
// Poller cannot take (TLS, or a request a cluster relayed): nothing was
// written, and the caller accepts it as before.
var ErrNotPolled = errors.New("socket: this connection cannot be polled")

// Accept upgrades r to a polled WebSocket whose messages go to h, after
// the origin check coder/websocket makes (the request's own host, or one
// matching a pattern). readLimit bounds a message; a larger one closes
// the socket. On an error other than ErrNotPolled the request has been
// answered.
func (p *Poller) Accept(w http.ResponseWriter, r *http.Request, origins []string, readLimit int, h Handler) (*Polled, error) {
	if _, ok := w.(http.Hijacker); !ok || r.TLS != nil {
		return nil, ErrNotPolled
	}
	if err := checkOrigin(r, origins); err != nil {
		http.Error(w, err.Error(), http.StatusForbidden)
		return nil, err
	}
	up := *p.up // the same handlers; this socket's limit
	up.MessageLengthLimit = readLimit
	// nbio takes the connection by duplicating its descriptor, without
	// close-on-exec. A process started meanwhile (a test's browser)
	// would inherit the copy and outlive nbio's close of it: nbio
	// relies on that close to take the descriptor out of its epoll set,
	// so the loop would be woken for the dead socket without end, a
	// core spent (it starved the browser tests' pages). The fork lock
	// keeps any process from starting between the copy and its flag.
	syscall.ForkLock.RLock()
	c, err := up.Upgrade(w, r, nil)
	var nc net.Conn
	if err == nil {
		nc, _ = c.UnderlayerConn().(net.Conn)
		if nc != nil {
			err = closeOnExec(nc)
		}
	}
	syscall.ForkLock.RUnlock()
	if err != nil {
		if c != nil {
			c.Close()
		}
		return nil, err
	}
	if nc == nil {
		c.Close()
		return nil, errors.New("socket: the upgraded connection has no descriptor")
	}
	ps := &Polled{c: c, raw: &raw{conn: nc, nonblocking: true}, h: h, pong: make(chan struct{}, 1), gone: make(chan struct{})}
	c.SetSession(ps)
	return ps, nil
}

// checkOrigin is coder/websocket's rule (AcceptOptions.OriginPatterns):
// a request without an Origin, or from the request's own host, or from a
// host matching one of patterns (path.Match, case-insensitive; a pattern
// with "://" is matched against the whole origin).
func checkOrigin(r *http.Request, patterns []string) error {
	origin := r.Header.Get("Origin")
	if origin == "" {
		return nil
	}
	u, err := url.Parse(origin)
	if err != nil {
		return fmt.Errorf("failed to parse Origin header %q: %w", origin, err)
	}
	if strings.EqualFold(r.Host, u.Host) {
		return nil
	}
	for _, pat := range patterns {
		target := u.Host
		if strings.Contains(pat, "://") {
			target = origin
		}
		ok, err := path.Match(strings.ToLower(pat), strings.ToLower(target))
		if err != nil {
			return fmt.Errorf("failed to parse path pattern %q: %w", pat, err)
		}
		if ok {
			return nil
		}
	}
	if u.Host == "" {
		return fmt.Errorf("request Origin %q is not a valid URL with a host", origin)
	}
	return fmt.Errorf("request Origin %q is not authorized for Host %q", u.Host, r.Host)
}

// Polled is a socket on a Poller. It is a cluster.Socket for what
// writes and watches a socket (Outbox, KeepPinging, Presence); its
// messages go to its Handler, so its Read and Reader fail.
type Polled struct {
	c    *nbws.Conn
	raw  *raw
	h    Handler
	pong chan struct{}
	once sync.Once
	gone chan struct{}
}

func (p *Polled) lean() *raw { return p.raw }

func (p *Polled) closed() {
	p.once.Do(func() {
		close(p.gone)
		p.h.Closed()
	})
}

var errPolled = errors.New("socket: a polled socket's messages go to its handler")

// Read fails: a polled socket's messages go to its Handler.
func (p *Polled) Read(context.Context) (websocket.MessageType, []byte, error) {
	return 0, nil, errPolled
}

// Reader fails: a polled socket's messages go to its Handler.
func (p *Polled) Reader(context.Context) (websocket.MessageType, io.Reader, error) {
	return 0, nil, errPolled
}

// Write writes one message, without blocking: what the client does not
// take at once waits in the Poller, up to its bound.
func (p *Polled) Write(_ context.Context, typ websocket.MessageType, b []byte) error {
	t := nbws.TextMessage
	if typ == websocket.MessageBinary {
		t = nbws.BinaryMessage
	}
	return p.c.WriteMessage(t, b)
}

// Ping pings the client and waits for its pong, or ctx.
func (p *Polled) Ping(ctx context.Context) error {
	select { // a pong that came late for the last ping
	case <-p.pong:
	default:
	}
	if err := p.c.WriteMessage(nbws.PingMessage, nil); err != nil {
		return err
	}
	select {
	case <-p.pong:
		return nil
	case <-p.gone:
		return net.ErrClosed
	case <-ctx.Done():
		return ctx.Err()
	}
}

// closeLinger is how long a socket closed with a code waits for the
// client's answering close before it is cut: the close frame is written
// at once, the connection is not held by a goroutine meanwhile.
const closeLinger = 2 * time.Second

// Close sends a close frame with code and reason and cuts the
// connection once the client answers, or after closeLinger. It does not
// block.
func (p *Polled) Close(code websocket.StatusCode, reason string) error {
	err := p.c.WriteClose(int(code), reason)
	if err != nil {
		p.c.Close()
		return err
	}
	// Closing an already closed connection does nothing.
	time.AfterFunc(closeLinger, func() { p.c.Close() })
	return nil
}

// CloseNow cuts the connection.
func (p *Polled) CloseNow() error { return p.c.Close() }

// SetReadLimit does nothing: Accept set the limit.
func (p *Polled) SetReadLimit(int64) {}
