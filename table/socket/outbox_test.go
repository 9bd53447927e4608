package socket

import (
	"bytes"
	"context"
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/coder/websocket"

	"tapis/cluster"
)

// serve accepts one socket with Accept and hands it to f.
func serve(t *testing.T, f func(ws *Outbox, lean bool)) *websocket.Conn {
	t.Helper()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		ws, err := Accept(w, r, nil)
		if err != nil {
			t.Error(err)
			return
		}
		o := NewOutbox(context.Background(), ws, 1000)
		_, lean := ws.(*leanConn)
		f(o, lean)
		// Read until the client goes: the reader is what answers pings
		// and closes.
		for {
			if _, _, err := ws.Read(context.Background()); err != nil {
				return
			}
		}
	}))
	t.Cleanup(srv.Close)
	c, _, err := websocket.Dial(context.Background(), "ws"+strings.TrimPrefix(srv.URL, "http"), nil)
	if err != nil {
		t.Fatal(err)
	}
	c.SetReadLimit(1 << 20)
	return c
}

// Every size of frame header (7-bit, 16-bit and 64-bit lengths) reaches
// the client as sent, in order, the messages queued before Start after
// the first; and Close's code reaches it after them.
func TestOutboxFramesReachTheClient(t *testing.T) {
	sizes := []int{0, 1, 125, 126, 127, 4000, 65535, 65536, 200000}
	msg := func(n int) []byte { return bytes.Repeat([]byte{'a' + byte(n%26)}, n) }
	c := serve(t, func(o *Outbox, lean bool) {
		if !lean {
			t.Error("a socket of this node is not lean")
		}
		for _, n := range sizes[1:] {
			o.Send(msg(n))
		}
		o.Start(msg(sizes[0]))
		o.Close(websocket.StatusServiceRestart)
	})
	defer c.CloseNow()
	for _, n := range sizes {
		typ, b, err := c.Read(context.Background())
		if err != nil {
			t.Fatalf("message of %d bytes: %v", n, err)
		}
		if typ != websocket.MessageText || !bytes.Equal(b, msg(n)) {
			t.Fatalf("message of %d bytes: got %v, %d bytes", n, typ, len(b))
		}
	}
	_, _, err := c.Read(context.Background())
	if got := websocket.CloseStatus(err); got != websocket.StatusServiceRestart {
		t.Fatalf("closed with %v (%v), want %v", got, err, websocket.StatusServiceRestart)
	}
}

// Pings written by coder/websocket between the Outbox's frames leave
// both intact: the client answers every ping and reads every message.
func TestOutboxBesidePings(t *testing.T) {
	const n = 300
	pinged := make(chan error, 1)
	c := serve(t, func(o *Outbox, _ bool) {
		o.Start([]byte("0"))
		go func() {
			var err error
			for i := 0; i < 50 && err == nil; i++ {
				err = o.ws.Ping(context.Background())
			}
			pinged <- err
		}()
		for i := 1; i < n; i++ {
			o.Send(bytes.Repeat([]byte("m"), i*7))
		}
	})
	defer c.CloseNow()
	// The client reads in a goroutine of its own: its reader answers
	// the pings.
	got := make(chan error, 1)
	go func() {
		for i := 0; i < n; i++ {
			_, b, err := c.Read(context.Background())
			if err != nil {
				got <- err
				return
			}
			if i > 0 && len(b) != i*7 {
				got <- fmt.Errorf("message %d: %d bytes, want %d", i, len(b), i*7)
				return
			}
		}
		// Keep reading so that pongs are still answered.
		got <- nil
		c.Read(context.Background())
	}()
	if err := <-got; err != nil {
		t.Fatal(err)
	}
	select {
	case err := <-pinged:
		if err != nil {
			t.Fatal("ping:", err)
		}
	case <-time.After(time.Minute): // a bound on a failure, not a wait
		t.Fatal("the pings were not answered")
	}
}

// countConn counts the writes to it.
type countConn struct {
	net.Conn
	writes int
	buf    bytes.Buffer
}

func (c *countConn) Write(p []byte) (int, error) { c.writes++; return c.buf.Write(p) }

// The messages waiting go out in one write, each framed; the sender's
// buffer is its own again once Send returns.
func TestFramesInOneWrite(t *testing.T) {
	cc := &countConn{}
	o := NewOutbox(context.Background(), &leanConn{raw: &raw{conn: cc}}, 10)
	msg := []byte("a")
	o.Send(msg)
	msg[0] = 'x' // sent already: changes nothing
	o.Send(bytes.Repeat([]byte("b"), 300))
	o.Send([]byte("c"))
	o.run()
	if cc.writes != 1 {
		t.Fatalf("%d writes, want 1", cc.writes)
	}
	want := append([]byte{0x81, 1, 'a', 0x81, 126, 1, 44}, bytes.Repeat([]byte("b"), 300)...)
	want = append(want, 0x81, 1, 'c')
	if !bytes.Equal(cc.buf.Bytes(), want) {
		t.Fatalf("wrote % x", cc.buf.Bytes())
	}
}

// writes records the messages written to a relayed socket.
type writes struct {
	cluster.Socket
	msgs []string
}

func (w *writes) Write(_ context.Context, typ websocket.MessageType, p []byte) error {
	w.msgs = append(w.msgs, string(p))
	return nil
}

// A relayed socket (not Accept's) is written a message at a time, each
// as sent.
func TestOutboxRelayed(t *testing.T) {
	w := &writes{}
	o := NewOutbox(context.Background(), w, 10)
	sent := []string{"", "x", strings.Repeat("y", 126), strings.Repeat("z", 70000)}
	for _, m := range sent {
		o.Send([]byte(m))
	}
	o.run()
	if !slices.Equal(w.msgs, sent) {
		t.Fatalf("wrote %d messages, want %d, or not the same", len(w.msgs), len(sent))
	}
}

// A queue full to its bound refuses a message; after Close, a send is
// taken and dropped.
func TestOutboxBound(t *testing.T) {
	o := NewOutbox(context.Background(), nil, 2)
	if !o.Send([]byte("1")) || !o.Send([]byte("2")) {
		t.Fatal("a queue under its bound refused a message")
	}
	if o.Send([]byte("3")) {
		t.Fatal("a full queue took a message")
	}
	o.Close(0)
	if !o.Send([]byte("4")) || o.n != 2 {
		t.Fatalf("a send after Close: %d queued", o.n)
	}
}
