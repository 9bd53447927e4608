package main

// Clusters cut off and handed over: a node fenced out, a partition,
// SIGTERM's hand-over, a rename reaching the table.

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/cookiejar"
	"net/url"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/coder/websocket"

	"tapis/cluster/natstest"
)

// A node paused (SIGSTOP) past its lease, while another node takes its
// table over, cannot write a move when it resumes: a move its own client
// sends it then is refused or dropped, and the store holds nothing new.
func TestClusterFencing(t *testing.T) {
	if testing.Short() {
		t.Skip("starts processes")
	}
	db := postgresDB(t)
	nurl := natstest.Start(t)
	var nodes []*clusterNode
	for i := 0; i < 2; i++ {
		id := fmt.Sprintf("node%d", i)
		cmd, base := startServe(t, db, "--nats", nurl, "--node", id, "--lease-ttl", "1s")
		nodes = append(nodes, &clusterNode{id: id, url: base, pid: cmd.Process.Pid,
			kill: func() { cmd.Process.Kill(); cmd.Wait() }, signal: func(s syscall.Signal) { cmd.Process.Signal(s) }})
	}
	a, b := nodes[0], nodes[1]
	table, tokens := twoSeats(t, a.url, a.url)
	socks := []*seatSocket{dialSeat(t, a.url, table, tokens[0]), dialSeat(t, a.url, table, tokens[1])}
	last := playSeats(t, socks, 6)

	a.signal(syscall.SIGSTOP)
	defer a.signal(syscall.SIGCONT)
	waitFor(t, 30*time.Second, "the paused node's lease to run out", func() bool {
		var expired bool
		pgQueryRow(t, db, `SELECT until < clock_timestamp() FROM tapis_leases WHERE table_id = '`+table+`'`, &expired)
		return expired
	})
	// A request through the other node takes the table over.
	var info struct{ Status string }
	getJSON(t, []*clusterNode{b}, "/api/tables/"+table, &info)
	var holder string
	pgQueryRow(t, db, `SELECT node FROM tapis_leases WHERE table_id = '`+table+`'`, &holder)
	if holder != b.id {
		t.Fatalf("the table's lease is %s's, want %s's", holder, b.id)
	}
	var stored int
	pgQueryRow(t, db, `SELECT count(*) FROM tapis_moves WHERE table_id = '`+table+`'`, &stored)

	a.signal(syscall.SIGCONT)
	// The seat to move sends its move to the resumed node at once. The
	// node refuses it (its write is fenced off) or has already let go of
	// the table (its renewal failed) and closes the socket.
	s := last.ToMove[0]
	socks[s].send(t, last.N, socks[s].last.Legal[0])
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	for {
		_, b, err := socks[s].ws.Read(ctx)
		if err != nil {
			if ctx.Err() != nil {
				t.Fatal("the resumed node neither refused the move nor let the table go")
			}
			break
		}
		var m clusterState
		json.Unmarshal(b, &m)
		if m.Type == "state" && m.N > last.N {
			t.Fatalf("the resumed node applied a move after losing its lease: %s", b)
		}
		if m.Type == "error" {
			break
		}
	}
	var after int
	pgQueryRow(t, db, `SELECT count(*) FROM tapis_moves WHERE table_id = '`+table+`'`, &after)
	if after != stored {
		t.Fatalf("the store went from %d to %d moves after the paused node resumed", stored, after)
	}
	// A table that does not exist is not found, through any node, and
	// asking leaves no lease behind.
	resp, err := http.Get(b.url + "/api/tables/nosuchtable")
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	var leases int
	pgQueryRow(t, db, `SELECT count(*) FROM tapis_leases WHERE table_id = 'nosuchtable'`, &leases)
	if resp.StatusCode != http.StatusNotFound || leases != 0 {
		t.Fatalf("a table that does not exist: %d, %d leases", resp.StatusCode, leases)
	}
	// The table goes on through the node that owns it now, where it was.
	viaB := dialSeat(t, b.url, table, tokens[s])
	if m := viaB.until(t, func(m clusterState) bool { return m.Type == "state" }); m.N != last.N {
		t.Fatalf("through the new owner the table is at move %d, want %d", m.N, last.N)
	}
}

// A node cut from NATS but not from PostgreSQL stops acting for its
// tables: their sockets close with "reconnecting", it refuses them, and
// their players go on through another node.
func TestClusterPartition(t *testing.T) {
	if testing.Short() {
		t.Skip("starts processes")
	}
	db := postgresDB(t)
	nurl := natstest.Start(t)
	proxy := newCutProxy(t, strings.TrimPrefix(nurl, "nats://"))
	cmdA, aURL := startServe(t, db, "--nats", "nats://"+proxy.addr(), "--node", "nodeA")
	_ = cmdA
	_, bURL := startServe(t, db, "--nats", nurl, "--node", "nodeB")
	table, tokens := twoSeats(t, aURL, aURL)
	socks := []*seatSocket{dialSeat(t, aURL, table, tokens[0]), dialSeat(t, aURL, table, tokens[1])}
	last := playSeats(t, socks, 4)

	proxy.cut()
	for i, sk := range socks {
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		for {
			_, _, err := sk.ws.Read(ctx)
			if err == nil {
				continue
			}
			if websocket.CloseStatus(err) != websocket.StatusServiceRestart {
				t.Fatalf("seat %d's socket on the cut-off node ended with %v, want a restart close", i, err)
			}
			break
		}
		cancel()
	}
	resp, err := http.Get(aURL + "/api/tables/" + table)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusServiceUnavailable {
		t.Fatalf("the cut-off node answered %d for its old table, want 503", resp.StatusCode)
	}
	viaB := []*seatSocket{dialSeat(t, bURL, table, tokens[0]), dialSeat(t, bURL, table, tokens[1])}
	if m := viaB[0].until(t, func(m clusterState) bool { return m.Type == "state" }); m.N != last.N {
		t.Fatalf("through the other node the table is at move %d, want %d", m.N, last.N)
	}
	viaB[1].until(t, func(m clusterState) bool { return m.Type == "state" })
	playSeats(t, viaB, last.N+4)
}

// twoSeats creates a two-person Cabo table through one node and takes
// its second seat through another; it returns the seats' tokens.
func twoSeats(t *testing.T, create, join string) (string, []string) {
	t.Helper()
	var seat struct{ Table, Token string }
	postJSON(t, create+"/api/tables", `{"game":"cabo","players":2,"bots":["",""],"name":"Ann"}`, &seat)
	var js struct{ Token string }
	postJSON(t, join+"/api/tables/"+seat.Table+"/join", `{"name":"Bob"}`, &js)
	return seat.Table, []string{seat.Token, js.Token}
}

// seatSocket is a seat's WebSocket, read by the test itself.
type seatSocket struct {
	ws   *websocket.Conn
	last clusterState
}

func dialSeat(t *testing.T, base, table, token string) *seatSocket {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	ws, _, err := websocket.Dial(ctx, "ws"+strings.TrimPrefix(base, "http")+"/api/tables/"+table+"/ws?token="+token, nil)
	if err != nil {
		t.Fatal(err)
	}
	ws.SetReadLimit(1 << 22)
	t.Cleanup(func() { ws.CloseNow() })
	return &seatSocket{ws: ws}
}

// until reads messages until ok says yes to one, and returns it.
func (s *seatSocket) until(t *testing.T, ok func(clusterState) bool) clusterState {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	for {
		_, b, err := s.ws.Read(ctx)
		if err != nil {
			t.Fatalf("reading: %v", err)
		}
		var m clusterState
		json.Unmarshal(b, &m)
		if m.Type == "state" {
			s.last = m
		}
		if ok(m) {
			return m
		}
	}
}

func (s *seatSocket) send(t *testing.T, n int, mv json.RawMessage) {
	t.Helper()
	msg := fmt.Sprintf(`{"type":"move","n":%d,"move":%s}`, n, mv)
	if err := s.ws.Write(context.Background(), websocket.MessageText, []byte(msg)); err != nil {
		t.Fatal(err)
	}
}

// playSeats plays first legal moves on the seats' sockets until the table
// has applied n moves, and returns the last state.
func playSeats(t *testing.T, socks []*seatSocket, n int) clusterState {
	t.Helper()
	for i := range socks {
		if socks[i].last.Type == "" {
			socks[i].until(t, func(m clusterState) bool { return m.Type == "state" })
		}
	}
	for {
		st := socks[0].last
		for _, s := range socks[1:] {
			if s.last.N > st.N {
				st = s.last
			}
		}
		if st.N >= n || st.Status == "over" {
			return st
		}
		if len(st.ToMove) == 0 {
			t.Fatalf("nobody to move at %d", st.N)
		}
		mover := st.ToMove[0]
		sk := socks[mover]
		// The mover's own latest state, for its legal moves.
		if sk.last.N != st.N {
			sk.until(t, func(m clusterState) bool { return m.Type == "state" && m.N == st.N })
		}
		sk.send(t, st.N, sk.last.Legal[0])
		for _, s := range socks {
			s.until(t, func(m clusterState) bool {
				if m.Type == "error" {
					t.Fatalf("error: %s %s", m.Code, m.Error)
				}
				return m.Type == "state" && m.N > st.N
			})
		}
	}
}

// cutProxy passes TCP to a target until cut, then refuses everything: a
// network partition between one process and another.
type cutProxy struct {
	ln    net.Listener
	mu    sync.Mutex
	conns []net.Conn
}

func newCutProxy(t *testing.T, target string) *cutProxy {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	p := &cutProxy{ln: ln}
	t.Cleanup(p.cut)
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			up, err := net.Dial("tcp", target)
			if err != nil {
				c.Close()
				continue
			}
			p.mu.Lock()
			p.conns = append(p.conns, c, up)
			p.mu.Unlock()
			go func() { io.Copy(up, c); up.Close() }()
			go func() { io.Copy(c, up); c.Close() }()
		}
	}()
	return p
}

func (p *cutProxy) addr() string { return p.ln.Addr().String() }

func (p *cutProxy) cut() {
	p.ln.Close()
	p.mu.Lock()
	defer p.mu.Unlock()
	for _, c := range p.conns {
		c.Close()
	}
	p.conns = nil
}

// A node stopped with SIGTERM hands its tables over at once: it gives
// their leases back once their last moves are saved, and their players
// go on through another node without waiting for the leases to run out.
func TestClusterHandsOverOnSIGTERM(t *testing.T) {
	if testing.Short() {
		t.Skip("starts processes")
	}
	db := postgresDB(t)
	nurl := natstest.Start(t)
	cmdA, aURL := startServe(t, db, "--nats", nurl, "--node", "nodeA", "--lease-ttl", "1m")
	_, bURL := startServe(t, db, "--nats", nurl, "--node", "nodeB", "--lease-ttl", "1m")
	table, tokens := twoSeats(t, aURL, aURL)
	var holder string
	pgQueryRow(t, db, `SELECT node FROM tapis_leases WHERE table_id = '`+table+`'`, &holder)
	if holder != "nodeA" {
		t.Fatalf("the table made through nodeA is %s's", holder)
	}
	socks := []*seatSocket{dialSeat(t, aURL, table, tokens[0]), dialSeat(t, aURL, table, tokens[1])}
	last := playSeats(t, socks, 4)

	stopped := time.Now()
	cmdA.Process.Signal(syscall.SIGTERM)
	cmdA.Wait()
	// Its players come back through nodeB, which takes the table: far
	// sooner than the minute its lease would last.
	back := dialSeat(t, bURL, table, tokens[0])
	m := back.until(t, func(m clusterState) bool { return m.Type == "state" })
	if m.N != last.N {
		t.Fatalf("through nodeB the table is at move %d, want %d", m.N, last.N)
	}
	d := time.Since(stopped)
	t.Logf("nodeA stopped and the table went on through nodeB %v after SIGTERM", d)
	if d > 5*time.Second {
		t.Fatalf("the hand-over took %v", d)
	}
	pgQueryRow(t, db, `SELECT node FROM tapis_leases WHERE table_id = '`+table+`'`, &holder)
	if holder != "nodeB" {
		t.Fatalf("after the hand-over the table is %s's", holder)
	}
}

// A player renamed through one node shows under the new name at their
// table on another: the nodes tell each other over NATS.
func TestClusterRenameReachesTheTable(t *testing.T) {
	if testing.Short() {
		t.Skip("starts processes")
	}
	db := postgresDB(t)
	nurl := natstest.Start(t)
	_, aURL := startServe(t, db, "--nats", nurl, "--node", "nodeA")
	_, bURL := startServe(t, db, "--nats", nurl, "--node", "nodeB")
	jar, _ := cookiejar.New(nil)
	hc := &http.Client{Jar: jar}
	post := func(url, body string) {
		t.Helper()
		resp, err := hc.Post(url, "application/json", strings.NewReader(body))
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode/100 != 2 {
			t.Fatalf("POST %s: %d", url, resp.StatusCode)
		}
	}
	post(aURL+"/api/me", `{"name":"Ada"}`)
	// The session is the store's: the other node knows it too.
	for _, u := range []string{aURL, bURL} {
		jar.SetCookies(mustURL(t, u), jar.Cookies(mustURL(t, aURL)))
	}
	var seat struct{ Table string }
	resp, err := hc.Post(aURL+"/api/tables", "application/json", strings.NewReader(`{"game":"cabo","players":2,"bots":["",""]}`))
	if err != nil {
		t.Fatal(err)
	}
	json.NewDecoder(resp.Body).Decode(&seat)
	resp.Body.Close()
	watcher := dialSeat(t, aURL, seat.Table, "")
	post(bURL+"/api/me", `{"name":"Ada L."}`)
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	for {
		_, b, err := watcher.ws.Read(ctx)
		if err != nil {
			t.Fatalf("the table on nodeA never showed the name given through nodeB: %v", err)
		}
		var m struct {
			Type  string
			Table struct{ Seats []struct{ Name string } }
		}
		json.Unmarshal(b, &m)
		if m.Type == "table" && len(m.Table.Seats) > 0 && m.Table.Seats[0].Name == "Ada L." {
			return
		}
	}
}

func mustURL(t *testing.T, s string) *url.URL {
	u, err := url.Parse(s)
	if err != nil {
		t.Fatal(err)
	}
	return u
}
