package cluster

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/coder/websocket"
	"github.com/nats-io/nats.go"

	"tapis/cluster/natstest"
)

func connect(t *testing.T, url string) *nats.Conn {
	t.Helper()
	nc, err := nats.Connect(url)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(nc.Close)
	return nc
}

// owner is a table host's handler: /plain answers with what it saw of the
// request, /ws greets, then echoes every message, and reports how its
// socket ended on ended.
type owner struct {
	ended chan error
	pings chan error
}

func (o *owner) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	switch r.URL.Path {
	case "/plain":
		body, _ := io.ReadAll(r.Body)
		w.Header().Set("X-Seen", r.RemoteAddr)
		w.WriteHeader(http.StatusTeapot)
		fmt.Fprintf(w, "%s %s %s %s", r.Method, r.URL.RequestURI(), r.Header.Get("Cookie"), body)
	case "/ws":
		s, err := Upgrade(w, r, nil)
		if err != nil {
			return
		}
		ctx := context.Background()
		s.Write(ctx, websocket.MessageText, []byte("hello "+r.URL.Query().Get("who")))
		for {
			_, b, err := s.Read(ctx)
			if err != nil {
				o.ended <- err
				return
			}
			if string(b) == "ping" {
				pctx, cancel := context.WithTimeout(ctx, 5*time.Second)
				o.pings <- s.Ping(pctx)
				cancel()
				continue
			}
			s.Write(ctx, websocket.MessageText, append([]byte("echo "), b...))
		}
	default:
		http.NotFound(w, r)
	}
}

// pair starts an owner node A and a relay node B whose HTTP server
// forwards everything to A.
func pair(t *testing.T) (a, b *Node, o *owner, relay *httptest.Server) {
	url := natstest.Start(t)
	a, b = New(connect(t, url), "a"+NewID()), New(connect(t, url), "b"+NewID())
	t.Cleanup(a.Close)
	t.Cleanup(b.Close)
	o = &owner{ended: make(chan error, 8), pings: make(chan error, 8)}
	if err := a.Serve(o); err != nil {
		t.Fatal(err)
	}
	relay = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if err := b.Forward(w, r, a.ID(), nil); errors.Is(err, ErrGone) {
			http.Error(w, "gone", http.StatusBadGateway)
		}
	}))
	t.Cleanup(relay.Close)
	return a, b, o, relay
}

func TestPlainRequestIsRelayed(t *testing.T) {
	_, _, _, relay := pair(t)
	req, _ := http.NewRequest(http.MethodPost, relay.URL+"/plain?x=1", strings.NewReader("body"))
	req.Header.Set("Cookie", "s=abc")
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	got, _ := io.ReadAll(res.Body)
	if res.StatusCode != http.StatusTeapot || string(got) != "POST /plain?x=1 s=abc body" {
		t.Fatalf("relayed answer: %d %q", res.StatusCode, got)
	}
	// The owner sees the client as the relay's server saw it.
	if seen := res.Header.Get("X-Seen"); !strings.HasPrefix(seen, "127.0.0.1:") {
		t.Fatalf("the owner saw the client at %q", seen)
	}
}

func dial(t *testing.T, relay *httptest.Server, who string) *websocket.Conn {
	t.Helper()
	ws, _, err := websocket.Dial(context.Background(), "ws"+strings.TrimPrefix(relay.URL, "http")+"/ws?who="+who, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ws.CloseNow() })
	return ws
}

func read(t *testing.T, ws *websocket.Conn) string {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	_, b, err := ws.Read(ctx)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// Messages go both ways in order, none lost, the owner's first one
// (sent the moment it upgrades) included; each client hears only its own
// socket; a client's close reaches the owner with its code.
func TestSocketIsRelayed(t *testing.T) {
	_, _, o, relay := pair(t)
	one, two := dial(t, relay, "one"), dial(t, relay, "two")
	if got := read(t, one); got != "hello one" {
		t.Fatalf("first message: %q", got)
	}
	if got := read(t, two); got != "hello two" {
		t.Fatalf("first message: %q", got)
	}
	ctx := context.Background()
	for i := 0; i < 500; i++ {
		if err := one.Write(ctx, websocket.MessageText, []byte(fmt.Sprint(i))); err != nil {
			t.Fatal(err)
		}
	}
	for i := 0; i < 500; i++ {
		if got, want := read(t, one), fmt.Sprintf("echo %d", i); got != want {
			t.Fatalf("message %d: got %q, want %q", i, got, want)
		}
	}
	two.Write(ctx, websocket.MessageText, []byte("two's"))
	if got := read(t, two); got != "echo two's" {
		t.Fatalf("two heard %q", got)
	}
	// The owner's ping is answered by the client itself.
	one.Write(ctx, websocket.MessageText, []byte("ping"))
	go one.Read(ctx) // answers pings while it waits
	if err := <-o.pings; err != nil {
		t.Fatalf("ping through the relay: %v", err)
	}
	two.Close(websocket.StatusNormalClosure, "bye")
	select {
	case err := <-o.ended:
		if websocket.CloseStatus(err) != websocket.StatusNormalClosure {
			t.Fatalf("the owner's socket ended with %v", err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("the owner never heard the client leave")
	}
}

// When the owner goes, a new request fails at once with ErrGone (so a
// node can take the table over), and a relayed socket is closed with
// "reconnecting" within a few heartbeats.
func TestOwnerGone(t *testing.T) {
	a, b, _, relay := pair(t)
	ws := dial(t, relay, "x")
	read(t, ws)
	a.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	_, _, err := ws.Read(ctx)
	if websocket.CloseStatus(err) != websocket.StatusServiceRestart {
		t.Fatalf("the relayed socket ended with %v, want a restart close", err)
	}
	req := httptest.NewRequest(http.MethodGet, "/plain", nil)
	rec := httptest.NewRecorder()
	if err := b.Forward(rec, req, a.ID(), nil); !errors.Is(err, ErrGone) {
		t.Fatalf("forward to a gone owner: %v", err)
	}
	if rec.Code != http.StatusOK || rec.Body.Len() != 0 {
		t.Fatalf("forward wrote %d %q before saying gone", rec.Code, rec.Body)
	}
}

// Nodes hear each other's load; Least picks the least loaded one heard
// lately when it runs clearly fewer tables, this one otherwise, and
// counts a table sent to another node until that node speaks again.
func TestLeast(t *testing.T) {
	url := natstest.Start(t)
	a, b, c := New(connect(t, url), "a"), New(connect(t, url), "b"), New(connect(t, url), "c")
	for _, n := range []*Node{a, b, c} {
		t.Cleanup(n.Close)
	}
	loads := map[*Node]int{a: 5, b: 2, c: 3}
	for n, l := range loads {
		l := l
		if err := n.Announce(func() int { return l }); err != nil {
			t.Fatal(err)
		}
	}
	deadline := time.Now().Add(10 * time.Second)
	for a.Least(5) != "b" {
		if time.Now().After(deadline) {
			t.Fatalf("a picks %s, want b (the least loaded)", a.Least(5))
		}
		time.Sleep(10 * time.Millisecond)
	}
	if got := b.Least(2); got != "b" {
		t.Fatalf("b, the least loaded, picks %s", got)
	}
	if got := c.Least(2); got != "c" {
		t.Fatalf("c at b's load picks %s, want itself", got)
	}
	// Tables sent away count against their node at once, so a burst is
	// not all sent to the node that was idle: with b at 3 and c at 3
	// (threshold 4), two more go out, then a keeps the next.
	var picks []string
	for range 4 {
		picks = append(picks, a.Least(5))
	}
	if !slices.Contains(picks, "a") {
		t.Fatalf("a sent a burst of four tables away: %v", picks)
	}
	// b stops speaking: after a while it is no longer picked.
	b.Close()
	for a.Least(5) != "c" {
		if time.Now().After(deadline.Add(loadFresh)) {
			t.Fatalf("a still picks %s after b went quiet", a.Least(5))
		}
		time.Sleep(20 * time.Millisecond)
	}
}
