package socket

import (
	"bytes"
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/coder/websocket"
)

// echo is a Handler that keeps what it is given.
type echo struct {
	mu     sync.Mutex
	msgs   [][]byte
	got    chan struct{}
	closed chan struct{}
}

func newEcho() *echo { return &echo{got: make(chan struct{}, 1000), closed: make(chan struct{})} }

func (e *echo) Message(_ websocket.MessageType, data []byte) {
	e.mu.Lock()
	e.msgs = append(e.msgs, bytes.Clone(data))
	e.mu.Unlock()
	e.got <- struct{}{}
}

func (e *echo) Closed() { close(e.closed) }

// pollOne serves one socket on a Poller, with h and f, and dials it.
func pollOne(t *testing.T, origins []string, limit int, h Handler, f func(*Polled)) (*websocket.Conn, *http.Response, error) {
	t.Helper()
	p, err := NewPoller()
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		ps, err := p.Accept(w, r, origins, limit, h)
		if err != nil {
			return
		}
		ps.Open()
		f(ps)
	}))
	t.Cleanup(func() { srv.Close(); p.Stop() })
	hdr := http.Header{}
	hdr.Set("Origin", "http://elsewhere.example")
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	c, resp, err := websocket.Dial(ctx, "ws"+strings.TrimPrefix(srv.URL, "http"), &websocket.DialOptions{HTTPHeader: hdr})
	if c != nil {
		c.SetReadLimit(1 << 20)
		t.Cleanup(func() { c.CloseNow() })
	}
	return c, resp, err
}

// A polled socket gives its client's messages to its handler in order,
// writes through an Outbox to the client (at Send, every frame size),
// answers the client's pings, pings it, and tells its handler when the
// client goes.
func TestPolledSocket(t *testing.T) {
	e := newEcho()
	sizes := []int{1, 125, 126, 4000, 65536}
	pinged := make(chan error, 1)
	c, _, err := pollOne(t, []string{"elsewhere.example"}, 1<<20, e, func(ps *Polled) {
		o := NewOutbox(context.Background(), ps, 10)
		if !o.direct() {
			t.Error("a polled socket's outbox does not write at Send")
		}
		o.Start([]byte("first"))
		for _, n := range sizes {
			o.Send(bytes.Repeat([]byte{'x'}, n))
		}
		go func() {
			ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
			defer cancel()
			pinged <- ps.Ping(ctx)
		}()
	})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	// The client reads in a goroutine: coder/websocket answers the
	// server's ping while reading.
	got := make(chan []byte, 10)
	go func() {
		for {
			_, b, err := c.Read(ctx)
			if err != nil {
				close(got)
				return
			}
			got <- b
		}
	}()
	if b := <-got; string(b) != "first" {
		t.Fatalf("first message %q", b)
	}
	for _, n := range sizes {
		if b := <-got; len(b) != n {
			t.Fatalf("a message of %d bytes arrived as %d", n, len(b))
		}
	}
	if err := <-pinged; err != nil {
		t.Fatalf("the server's ping: %v", err)
	}
	for i := range 50 {
		if err := c.Write(ctx, websocket.MessageText, []byte{'a' + byte(i%26)}); err != nil {
			t.Fatal(err)
		}
	}
	for i := range 50 {
		select {
		case <-e.got:
		case <-time.After(time.Minute): // a bound on a failure, not a wait
			t.Fatalf("message %d never reached the handler", i)
		}
	}
	e.mu.Lock()
	for i, m := range e.msgs {
		if string(m) != string(rune('a'+i%26)) {
			t.Fatalf("message %d is %q: out of order", i, m)
		}
	}
	e.mu.Unlock()
	c.Close(websocket.StatusNormalClosure, "")
	select {
	case <-e.closed:
	case <-time.After(10 * time.Second):
		t.Fatal("the handler was not told the client went")
	}
}

// A page from another site is refused, as coder/websocket refuses it.
func TestPolledOriginRefused(t *testing.T) {
	_, resp, err := pollOne(t, []string{"tapis.example"}, 1<<20, newEcho(), func(*Polled) {})
	if err == nil || resp == nil || resp.StatusCode != http.StatusForbidden {
		t.Fatalf("a foreign origin was not refused: %v %v", resp, err)
	}
}

// A message over the limit closes the socket; Close sends its code.
func TestPolledLimitAndClose(t *testing.T) {
	e := newEcho()
	c, _, err := pollOne(t, []string{"*"}, 100, e, func(*Polled) {})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	c.Write(ctx, websocket.MessageText, bytes.Repeat([]byte{'a'}, 1000))
	select {
	case <-e.closed:
	case <-ctx.Done():
		t.Fatal("a message over the limit did not close the socket")
	}

	closing := make(chan *Polled, 1)
	c2, _, err := pollOne(t, []string{"*"}, 100, newEcho(), func(ps *Polled) { closing <- ps })
	if err != nil {
		t.Fatal(err)
	}
	var ps *Polled
	select {
	case ps = <-closing:
	case <-ctx.Done():
		t.Fatal("the socket was never accepted")
	}
	ps.Close(websocket.StatusTryAgainLater, "reconnecting")
	_, _, err = c2.Read(ctx)
	if websocket.CloseStatus(err) != websocket.StatusTryAgainLater {
		t.Fatalf("the client read %v, not the close code", err)
	}
	var ce websocket.CloseError
	if !errors.As(err, &ce) || ce.Reason != "reconnecting" {
		t.Fatalf("close reason: %v", err)
	}
}

// A client may speak and hang up as soon as it has the handshake's
// answer, which nbio writes before Upgrade returns: the loop may read
// both before Accept has the socket. What it said reaches the Handler,
// then its close (both were dropped, and the close's loss left the
// connection's reader counted for ever: the server's stop waited on it).
// The test holds Accept until the loop has read them.
func TestPolledSocketKeepsWhatCameBeforeAccept(t *testing.T) {
	upgraded = func(p *Poller) {
		deadline := time.Now().Add(10 * time.Second)
		for time.Now().Before(deadline) {
			p.mu.Lock()
			n := 0
			for _, ps := range p.early {
				ps.mu.Lock()
				if ps.closedEarly && len(ps.early) == 1 {
					n++
				}
				ps.mu.Unlock()
			}
			p.mu.Unlock()
			if n > 0 {
				return
			}
			runtime.Gosched()
		}
		t.Error("the loop never read the client's message and close")
	}
	defer func() { upgraded = nil }()
	e := newEcho()
	c, _, err := pollOne(t, []string{"elsewhere.example"}, 1<<10, e, func(*Polled) {})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if err := c.Write(ctx, websocket.MessageText, []byte("hello")); err != nil {
		t.Fatal(err)
	}
	c.CloseNow()
	select {
	case <-e.closed:
	case <-ctx.Done():
		t.Fatal("the client's close never reached the handler")
	}
	e.mu.Lock()
	defer e.mu.Unlock()
	if len(e.msgs) != 1 || string(e.msgs[0]) != "hello" {
		t.Fatalf("the handler got %q, want [hello]", e.msgs)
	}
}

// A Poller stopped as soon as it is made stops: nbio's loop, started
// after the Stop, forgot it and spun for ever (one goroutine is enough
// to see it: the loop's first turn comes after the Stop).
func TestPollerStoppedAtOnce(t *testing.T) {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(1))
	for i := range 20 {
		p, err := NewPoller()
		if err != nil {
			t.Fatal(err)
		}
		stopped := make(chan struct{})
		go func() { p.Stop(); close(stopped) }()
		select {
		case <-stopped:
		case <-time.After(time.Minute): // a bound on a failure, not a wait
			t.Fatalf("Poller %d never stopped", i)
		}
	}
}
