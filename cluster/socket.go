package cluster

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strconv"
	"sync"
	"time"

	"github.com/coder/websocket"
	"github.com/nats-io/nats.go"
)

// Socket is a WebSocket as the table host uses it: the client's own
// (*websocket.Conn) or one relayed from another node.
type Socket interface {
	Read(ctx context.Context) (websocket.MessageType, []byte, error)
	// Reader is Read without a copy: the message is read from r, whole
	// before the next call.
	Reader(ctx context.Context) (websocket.MessageType, io.Reader, error)
	Write(ctx context.Context, typ websocket.MessageType, p []byte) error
	Ping(ctx context.Context) error
	Close(code websocket.StatusCode, reason string) error
	CloseNow() error
	SetReadLimit(n int64)
}

var _ Socket = (*websocket.Conn)(nil)

// A relayed WebSocket message is one NATS message: its data is the
// message's, and two headers say what it is and number it, so that a
// message NATS dropped (a slow consumer) ends the socket rather than
// leaving a gap nobody sees.
const (
	hdrKind = "Tapis-Kind"
	hdrSeq  = "Tapis-Seq"
	hdrCode = "Tapis-Code"

	kindText   = "text"
	kindBinary = "binary"
	kindClose  = "close" // a closing handshake: code and reason
	kindAbort  = "abort" // the other end dropped the socket
)

// queue is how many relayed messages may wait for their reader; NATS
// drops what does not fit, and the sequence numbers notice.
const queue = 512

// errLost ends a relayed socket that missed a message.
var errLost = errors.New("cluster: relayed messages were lost")

// pipe is one direction's numbering and the other's check.
type pipe struct {
	nc      *nats.Conn
	out     string // subject written to
	mu      sync.Mutex
	sent    uint64
	in      chan *nats.Msg
	got     uint64
	closeMu sync.Once
}

// send publishes one message of the given kind.
func (p *pipe) send(kind string, data []byte, code websocket.StatusCode) error {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.sent++
	m := nats.NewMsg(p.out)
	m.Header.Set(hdrKind, kind)
	m.Header.Set(hdrSeq, strconv.FormatUint(p.sent, 10))
	if code != 0 {
		m.Header.Set(hdrCode, strconv.Itoa(int(code)))
	}
	m.Data = data
	return p.nc.PublishMsg(m)
}

// next checks a received message's number.
func (p *pipe) next(m *nats.Msg) error {
	seq, err := strconv.ParseUint(m.Header.Get(hdrSeq), 10, 64)
	if err != nil || seq != p.got+1 {
		return errLost
	}
	p.got = seq
	return nil
}

func closeCode(m *nats.Msg) websocket.StatusCode {
	c, err := strconv.Atoi(m.Header.Get(hdrCode))
	if err != nil {
		return websocket.StatusNoStatusRcvd
	}
	return websocket.StatusCode(c)
}

// remote is the owner's end of a relayed WebSocket.
type remote struct {
	pipe
	id     string
	sub    *nats.Subscription
	limit  int64
	done   chan struct{}
	once   sync.Once
	closed error
}

func openRemote(n *Node, id string) (*remote, error) {
	s := &remote{pipe: pipe{nc: n.nc, out: downSubject(id), in: make(chan *nats.Msg, queue)}, id: id, limit: 32768, done: make(chan struct{})}
	sub, err := n.nc.ChanSubscribe(upSubject(id), s.in)
	if err != nil {
		return nil, fmt.Errorf("cluster: %v", err)
	}
	s.sub = sub
	return s, nil
}

// end stops the socket once, with the error later calls return.
func (s *remote) end(err error) {
	s.once.Do(func() {
		s.closed = err
		s.sub.Unsubscribe()
		close(s.done)
	})
}

// Read implements Socket.
func (s *remote) Read(ctx context.Context) (websocket.MessageType, []byte, error) {
	select {
	case m := <-s.in:
		if err := s.next(m); err != nil {
			s.send(kindAbort, nil, 0)
			s.end(err)
			return 0, nil, err
		}
		switch m.Header.Get(hdrKind) {
		case kindText, kindBinary:
			if int64(len(m.Data)) > s.limit {
				err := fmt.Errorf("cluster: read limited at %d bytes", s.limit)
				s.Close(websocket.StatusMessageTooBig, "message too big")
				return 0, nil, err
			}
			typ := websocket.MessageText
			if m.Header.Get(hdrKind) == kindBinary {
				typ = websocket.MessageBinary
			}
			return typ, m.Data, nil
		case kindClose:
			err := websocket.CloseError{Code: closeCode(m), Reason: string(m.Data)}
			s.end(err)
			return 0, nil, err
		default:
			err := errors.New("cluster: the relay dropped the socket")
			s.end(err)
			return 0, nil, err
		}
	case <-s.done:
		return 0, nil, s.closed
	case <-ctx.Done():
		return 0, nil, ctx.Err()
	}
}

// Reader implements Socket: a relayed message has arrived whole already.
func (s *remote) Reader(ctx context.Context) (websocket.MessageType, io.Reader, error) {
	typ, b, err := s.Read(ctx)
	if err != nil {
		return 0, nil, err
	}
	return typ, bytes.NewReader(b), nil
}

// Write implements Socket.
func (s *remote) Write(ctx context.Context, typ websocket.MessageType, p []byte) error {
	select {
	case <-s.done:
		return s.closed
	default:
	}
	kind := kindText
	if typ == websocket.MessageBinary {
		kind = kindBinary
	}
	return s.send(kind, p, 0)
}

// Ping implements Socket: the relay answers once its client has answered
// its own ping, so that a dead client, relay or relay node all fail it.
func (s *remote) Ping(ctx context.Context) error {
	_, err := s.nc.RequestWithContext(ctx, pingSubject(s.id), nil)
	return err
}

// Close implements Socket.
func (s *remote) Close(code websocket.StatusCode, reason string) error {
	s.send(kindClose, []byte(reason), code)
	s.end(errors.New("cluster: the socket is closed"))
	return nil
}

// CloseNow implements Socket.
func (s *remote) CloseNow() error {
	s.send(kindAbort, nil, 0)
	s.end(errors.New("cluster: the socket is closed"))
	return nil
}

// SetReadLimit implements Socket.
func (s *remote) SetReadLimit(n int64) { s.limit = n }

// tunnel is the relay's end: the client's socket on one side, the owner's
// subjects on the other.
type tunnel struct {
	pipe
	node        *Node
	id, owner   string
	down, pings *nats.Subscription
	gone        <-chan struct{}
	unwatch     func()
	wsMu        sync.Mutex
	ws          *websocket.Conn // the client's socket, once accepted
}

func (n *Node) newTunnel(owner string) (*tunnel, error) {
	t := &tunnel{pipe: pipe{nc: n.nc, in: make(chan *nats.Msg, queue)}, node: n, id: NewID(), owner: owner}
	t.out = upSubject(t.id)
	var err error
	if t.down, err = n.nc.ChanSubscribe(downSubject(t.id), t.in); err != nil {
		return nil, fmt.Errorf("cluster: %v", err)
	}
	// The owner's ping is answered once the client answers ours.
	t.pings, err = n.nc.Subscribe(pingSubject(t.id), func(m *nats.Msg) {
		go func() {
			t.wsMu.Lock()
			ws := t.ws
			t.wsMu.Unlock()
			if ws == nil {
				return
			}
			ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
			defer cancel()
			if ws.Ping(ctx) == nil {
				m.Respond(nil)
			}
		}()
	})
	if err != nil {
		t.down.Unsubscribe()
		return nil, fmt.Errorf("cluster: %v", err)
	}
	t.gone, t.unwatch = n.watchOwner(owner)
	return t, nil
}

func (t *tunnel) close() {
	t.closeMu.Do(func() {
		t.down.Unsubscribe()
		t.pings.Unsubscribe()
		t.unwatch()
	})
}

// relay accepts the client's socket and carries messages both ways until
// one end closes or the owner is gone; then the other end is told.
func (t *tunnel) relay(w http.ResponseWriter, r *http.Request, opts *websocket.AcceptOptions) {
	defer t.close()
	ws, err := websocket.Accept(w, r, opts)
	if err != nil {
		t.send(kindAbort, nil, 0)
		return
	}
	ws.SetReadLimit(maxBody)
	t.wsMu.Lock()
	t.ws = ws
	t.wsMu.Unlock()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	// Client → owner.
	go func() {
		defer cancel()
		for {
			typ, data, err := ws.Read(ctx)
			if err != nil {
				if code := websocket.CloseStatus(err); code != -1 {
					t.send(kindClose, nil, code)
				} else {
					t.send(kindAbort, nil, 0)
				}
				return
			}
			kind := kindText
			if typ == websocket.MessageBinary {
				kind = kindBinary
			}
			if t.send(kind, data, 0) != nil {
				ws.Close(websocket.StatusTryAgainLater, "reconnecting")
				return
			}
		}
	}()
	// Owner → client.
	for {
		select {
		case m := <-t.in:
			if t.next(m) != nil {
				t.send(kindAbort, nil, 0)
				ws.Close(websocket.StatusTryAgainLater, "reconnecting")
				return
			}
			switch m.Header.Get(hdrKind) {
			case kindText, kindBinary:
				typ := websocket.MessageText
				if m.Header.Get(hdrKind) == kindBinary {
					typ = websocket.MessageBinary
				}
				wctx, wcancel := context.WithTimeout(ctx, 10*time.Second)
				err := ws.Write(wctx, typ, m.Data)
				wcancel()
				if err != nil {
					t.send(kindAbort, nil, 0)
					ws.CloseNow()
					return
				}
			case kindClose:
				ws.Close(closeCode(m), string(m.Data))
				return
			default:
				ws.CloseNow()
				return
			}
		case <-t.gone:
			// The owner died: the client reconnects, to whichever
			// node takes the table over.
			ws.Close(websocket.StatusServiceRestart, "reconnecting")
			return
		case <-ctx.Done():
			return
		}
	}
}
