package socket

import (
	"bytes"
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

	// early holds the sockets the loop had something for (a message, a
	// close) before Accept made them Polled: nbio adds a connection to
	// its loop and answers the handshake before Upgrade returns, and a
	// client may speak or hang up at once. Accept takes its socket out.
	mu    sync.Mutex
	early map[*nbws.Conn]*Polled
}

// earlyFor is how long the loop keeps what it got for a socket that
// Accept never takes (its handshake's answer failed): then it is
// forgotten.
const earlyFor = time.Minute

// maxEarly bounds the bytes a socket's messages may hold before its
// Handler takes them (Open): a client cannot say much between the
// handshake and Open, and one that does is cut.
const maxEarly = 64 << 10

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
	if err := awaitLoop(e); err != nil {
		go e.Stop() // it may never return: see awaitLoop
		return nil, err
	}
	up := nbws.NewUpgrader()
	up.Engine = e
	up.BlockingModTrasferConnToPoller = true
	up.KeepaliveTime = 0 // the table's presence watch does this
	// Accept checks the origin first, with the patterns nbio's own check
	// (the same host only) does not know.
	up.CheckOrigin = func(*http.Request) bool { return true }
	pl := &Poller{engine: e, up: up, early: map[*nbws.Conn]*Polled{}}
	up.OnMessage(func(c *nbws.Conn, typ nbws.MessageType, data []byte) {
		t := websocket.MessageText
		if typ == nbws.BinaryMessage {
			t = websocket.MessageBinary
		}
		pl.socket(c).message(t, data)
	})
	up.SetPongHandler(func(c *nbws.Conn, _ string) {
		if p := session(c); p != nil {
			select {
			case p.pong <- struct{}{}:
			default:
			}
		}
	})
	up.OnClose(func(c *nbws.Conn, _ error) { pl.socket(c).lost() })
	return pl, nil
}

// Stop closes what sockets are left and ends the loop.
func (p *Poller) Stop() { p.engine.Stop() }

// session returns c's polled socket once Accept has set it, else nil.
func session(c *nbws.Conn) *Polled {
	p, _ := c.SessionWithLock().(*Polled)
	return p
}

// socket returns c's polled socket: Accept's, or, before Accept has
// set it, the one that keeps what the loop gets for c meanwhile.
func (pl *Poller) socket(c *nbws.Conn) *Polled {
	if p := session(c); p != nil {
		return p
	}
	pl.mu.Lock()
	defer pl.mu.Unlock()
	if p := session(c); p != nil { // Accept set it meanwhile
		return p
	}
	p := pl.early[c]
	if p == nil {
		p = newPolled(c)
		pl.early[c] = p
		time.AfterFunc(earlyFor, func() {
			pl.mu.Lock()
			if pl.early[c] == p {
				delete(pl.early, c)
			}
			pl.mu.Unlock()
		})
	}
	return p
}

// take returns c's polled socket for Accept, with what the loop got for
// it so far, and sets it as c's session: the loop finds it there from
// now on.
func (pl *Poller) take(c *nbws.Conn) *Polled {
	pl.mu.Lock()
	defer pl.mu.Unlock()
	p := pl.early[c]
	if p == nil {
		p = newPolled(c)
	}
	delete(pl.early, c)
	c.SetSession(p)
	return p
}

// upgraded, when set (by a test), runs in Accept between the upgrade and
// the taking of the socket: where a client may already have spoken.
var upgraded func(*Poller)

// ErrNotPolled is Accept's answer for a request whose connection the
// Poller cannot take (TLS, or a request a cluster relayed): nothing was
// written, and the caller accepts it as before.
var ErrNotPolled = errors.New("socket: this connection cannot be polled")

// Accept upgrades r to a polled WebSocket whose messages go to h, after
// the origin check coder/websocket makes (the request's own host, or one
// matching a pattern). readLimit bounds a message; a larger one closes
// the socket. h gets nothing until Open. On an error other than
// ErrNotPolled the request has been answered.
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
	if upgraded != nil {
		upgraded(p)
	}
	ps := p.take(c)
	ps.raw, ps.h = &raw{conn: nc, nonblocking: true}, h
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

	// Until Open, what the loop gets waits here, in order: mu guards
	// open, early (copies of the messages, held bytes in all) and
	// closedEarly (the socket closed meanwhile).
	mu          sync.Mutex
	open        bool
	early       []earlyMsg
	held        int
	closedEarly bool
}

type earlyMsg struct {
	typ  websocket.MessageType
	data []byte
}

func newPolled(c *nbws.Conn) *Polled {
	return &Polled{c: c, pong: make(chan struct{}, 1), gone: make(chan struct{})}
}

func (p *Polled) lean() *raw { return p.raw }

// Open hands the Handler what the client sent since the handshake, then
// every message as the loop reads it, and the socket's close: once the
// caller is ready for them (Accept returns before).
func (p *Polled) Open() {
	for {
		p.mu.Lock()
		if len(p.early) == 0 {
			p.open = true
			lost := p.closedEarly
			p.mu.Unlock()
			if lost {
				p.closed()
			}
			return
		}
		batch := p.early
		p.early, p.held = nil, 0
		p.mu.Unlock()
		// In order, and alone: the loop only adds to early until open.
		for _, m := range batch {
			p.h.Message(m.typ, m.data)
		}
	}
}

// message is the loop's: a message for the Handler, or to keep until
// Open.
func (p *Polled) message(typ websocket.MessageType, data []byte) {
	p.mu.Lock()
	if p.open {
		p.mu.Unlock()
		p.h.Message(typ, data)
		return
	}
	if p.held+len(data) > maxEarly {
		p.mu.Unlock()
		p.c.Close() // not under p.mu: the close comes back to lost
		return
	}
	p.early = append(p.early, earlyMsg{typ, bytes.Clone(data)})
	p.held += len(data)
	p.mu.Unlock()
}

// lost is the loop's: the socket closed, told to the Handler at once
// or at Open.
func (p *Polled) lost() {
	p.mu.Lock()
	if !p.open {
		p.closedEarly = true
		p.mu.Unlock()
		return
	}
	p.mu.Unlock()
	p.closed()
}

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
