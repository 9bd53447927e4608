package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"math/rand/v2"
	"net"
	"net/http"
	"net/http/cookiejar"
	"net/url"
	"reflect"
	"slices"
	"sort"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/coder/websocket"

	"tapis/cluster/natstest"
	"tapis/game"
	"tapis/games"
)

// A cluster of tapis serve processes on one PostgreSQL and an in-process
// NATS: players on different nodes play whole games of every game, the
// node owning the most tables is killed with SIGKILL mid-game, and every
// table finishes on the others, with no acknowledged move lost, none
// applied twice, every message each seat received equal to what its seat
// may see (checked against the game replayed once it is over), and each
// client back at its table within 5 s (p99).
func TestClusterSurvivesSIGKILL(t *testing.T) {
	if testing.Short() {
		t.Skip("starts processes")
	}
	db := postgresDB(t)
	nurl := natstest.Start(t)
	nodes := startCluster(t, db, nurl, 3)

	type spec struct {
		game    string
		players int
	}
	specs := []spec{{"cabo", 2}, {"papayoo", 3}, {"limits", 2}, {"dacapo", 2}, {"cabo", 3}, {"limits", 3}}
	var players []*clusterPlayer
	for i, sp := range specs {
		seats := seatTable(t, nodes, i, sp.game, sp.players)
		players = append(players, seats...)
	}
	var wg sync.WaitGroup
	for _, p := range players {
		wg.Add(1)
		go func() {
			defer wg.Done()
			p.play()
		}()
	}
	// Mid-game: once every table has seen a few moves, the node that owns
	// the most tables dies.
	waitFor(t, 60*time.Second, "every table to be under way", func() bool {
		for _, p := range players {
			if p.moved() < 3 {
				return false
			}
		}
		return true
	})
	victim := busiestNode(t, db, nodes)
	t.Logf("killing %s, which owns the most tables", victim.id)
	victim.kill()
	for _, p := range players {
		p.avoid(victim.url)
	}
	done := make(chan struct{})
	go func() { wg.Wait(); close(done) }()
	select {
	case <-done:
	case <-time.After(5 * time.Minute):
		t.Fatal("the games did not finish within 5 minutes of the kill")
	}
	var failovers []time.Duration
	for _, p := range players {
		if p.err != nil {
			t.Fatalf("%s seat %d: %v", p.table, p.seat, p.err)
		}
		failovers = append(failovers, p.failovers...)
	}
	checkTables(t, nodes, players)
	if len(failovers) == 0 {
		t.Fatal("no client was ever cut off: the kill missed")
	}
	sort.Slice(failovers, func(i, j int) bool { return failovers[i] < failovers[j] })
	p99 := failovers[(len(failovers)*99+99)/100-1]
	t.Logf("%d reconnections, failover p50 %v, p99 %v, max %v", len(failovers), failovers[len(failovers)/2], p99, failovers[len(failovers)-1])
	if p99 > 5*time.Second {
		t.Fatalf("failover p99 is %v, over 5 s", p99)
	}
}

// clusterNode is one tapis serve process of a test's cluster.
type clusterNode struct {
	id, url string
	pid     int
	kill    func()
	signal  func(syscall.Signal)
}

func startCluster(t *testing.T, db, nurl string, n int) []*clusterNode {
	t.Helper()
	var nodes []*clusterNode
	for i := 0; i < n; i++ {
		// One at a time: the first brings the schema up to date.
		id := fmt.Sprintf("node%d", i)
		cmd, base := startServe(t, db, "--nats", nurl, "--node", id)
		nodes = append(nodes, &clusterNode{id: id, url: base, pid: cmd.Process.Pid,
			kill:   func() { cmd.Process.Kill(); cmd.Wait() },
			signal: func(s syscall.Signal) { cmd.Process.Signal(s) }})
	}
	return nodes
}

// busiestNode is the node holding the most live leases.
func busiestNode(t *testing.T, db string, nodes []*clusterNode) *clusterNode {
	t.Helper()
	var id string
	pgQueryRow(t, db, `SELECT node FROM tapis_leases WHERE until > clock_timestamp() GROUP BY node ORDER BY count(*) DESC, node LIMIT 1`, &id)
	for _, n := range nodes {
		if n.id == id {
			return n
		}
	}
	t.Fatalf("no node is called %q", id)
	return nil
}

func waitFor(t *testing.T, d time.Duration, what string, ok func() bool) {
	t.Helper()
	deadline := time.Now().Add(d)
	for !ok() {
		if time.Now().After(deadline) {
			t.Fatalf("waited %v for %s", d, what)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// seatTable creates a table of g through node i, then seats a person at
// every other seat through the next nodes, so that each seat plays
// through a node of its own.
func seatTable(t *testing.T, nodes []*clusterNode, i int, g string, players int) []*clusterPlayer {
	t.Helper()
	bots := make([]string, players)
	body, _ := json.Marshal(map[string]any{"game": g, "players": players, "bots": bots, "name": "P0"})
	var seat struct {
		Table, Token string
		Seat         int
	}
	postJSON(t, nodes[i%len(nodes)].url+"/api/tables", string(body), &seat)
	ps := []*clusterPlayer{newClusterPlayer(nodes, i%len(nodes), g, seat.Table, seat.Token, 0, uint64(i))}
	for k := 1; k < players; k++ {
		var js struct {
			Token string
			Seat  int
		}
		at := (i + k) % len(nodes)
		postJSON(t, nodes[at].url+"/api/tables/"+seat.Table+"/join", fmt.Sprintf(`{"name":"P%d"}`, k), &js)
		ps = append(ps, newClusterPlayer(nodes, at, g, seat.Table, js.Token, js.Seat, uint64(i*10+k)))
	}
	return ps
}

func postJSON(t *testing.T, url, body string, out any) {
	t.Helper()
	resp, err := http.Post(url, "application/json", strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var buf bytes.Buffer
	buf.ReadFrom(resp.Body)
	if resp.StatusCode/100 != 2 {
		t.Fatalf("POST %s: %d %s", url, resp.StatusCode, buf.Bytes())
	}
	if err := json.Unmarshal(buf.Bytes(), out); err != nil {
		t.Fatalf("POST %s: %v: %s", url, err, buf.Bytes())
	}
}

// clusterPlayer plays one seat with random legal moves through a node,
// and through the next live one when its socket drops. It keeps every
// state it was sent, the moves the table acknowledged (a state following
// its move), every move it sent, and how long each reconnection took.
type clusterPlayer struct {
	game, table, token string
	seat               int
	rng                *rand.Rand

	mu        sync.Mutex
	urls      []string
	at        int
	avoided   map[string]bool
	states    []clusterState
	welcomes  []clusterState
	sent      map[int]json.RawMessage // by move number: the move sent then
	acked     map[int]json.RawMessage
	failovers []time.Duration
	err       error
	n         int
}

type clusterState struct {
	Type   string            `json:"type"`
	Match  int               `json:"match"`
	N      int               `json:"n"`
	By     int               `json:"by"`
	Status string            `json:"status"`
	View   json.RawMessage   `json:"view"`
	Events []json.RawMessage `json:"events"`
	Legal  []json.RawMessage `json:"legal"`
	ToMove []int             `json:"to_move"`
	Code   string            `json:"code"`
	Error  string            `json:"error"`
	// History is a welcome's: the events of the match so far that the
	// seat may see, private cards left out unless the table's memory aid
	// is on.
	History []json.RawMessage `json:"history"`
}

func newClusterPlayer(nodes []*clusterNode, at int, g, table, token string, seat int, seed uint64) *clusterPlayer {
	p := &clusterPlayer{game: g, table: table, token: token, seat: seat, rng: rand.New(rand.NewPCG(seed, 7)),
		at: at, avoided: map[string]bool{}, sent: map[int]json.RawMessage{}, acked: map[int]json.RawMessage{}}
	for _, n := range nodes {
		p.urls = append(p.urls, n.url)
	}
	return p
}

func (p *clusterPlayer) moved() int {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.n
}

// avoid stops the player from dialling a dead node again.
func (p *clusterPlayer) avoid(url string) {
	p.mu.Lock()
	p.avoided[url] = true
	p.mu.Unlock()
}

func (p *clusterPlayer) next() string {
	p.mu.Lock()
	defer p.mu.Unlock()
	for i := 0; i < len(p.urls); i++ {
		u := p.urls[p.at%len(p.urls)]
		if !p.avoided[u] {
			return u
		}
		p.at++
	}
	return p.urls[0]
}

// play plays until the game is over; p.err says why not.
func (p *clusterPlayer) play() {
	deadline := time.Now().Add(6 * time.Minute)
	var dropped time.Time
	for time.Now().Before(deadline) {
		over, got, err := p.session(dropped)
		if over {
			return
		}
		if got {
			dropped = time.Now()
		} else if dropped.IsZero() {
			dropped = time.Now()
		}
		_ = err
		p.mu.Lock()
		p.at++
		p.mu.Unlock()
		time.Sleep(100 * time.Millisecond)
	}
	p.err = fmt.Errorf("the game did not end (at move %d)", p.moved())
}

// session plays on one socket until it drops; over says the game ended,
// got that the socket carried a state.
func (p *clusterPlayer) session(dropped time.Time) (over, got bool, err error) {
	base := p.next()
	ctx, cancel := context.WithTimeout(context.Background(), 6*time.Minute)
	defer cancel()
	ws, _, err := websocket.Dial(ctx, "ws"+strings.TrimPrefix(base, "http")+"/api/tables/"+p.table+"/ws?token="+p.token, nil)
	if err != nil {
		return false, false, err
	}
	defer ws.CloseNow()
	ws.SetReadLimit(1 << 22)
	pending := -1
	for {
		_, b, err := ws.Read(ctx)
		if err != nil {
			return false, got, err
		}
		var m clusterState
		if err := json.Unmarshal(b, &m); err != nil {
			return false, got, err
		}
		if m.Type == "welcome" {
			p.mu.Lock()
			p.welcomes = append(p.welcomes, m)
			p.mu.Unlock()
		}
		if m.Type != "state" {
			continue
		}
		p.mu.Lock()
		if !got && !dropped.IsZero() {
			p.failovers = append(p.failovers, time.Since(dropped))
		}
		got = true
		p.states = append(p.states, m)
		p.n = m.N
		if m.By == p.seat && pending >= 0 && m.N == pending+1 {
			p.acked[pending] = p.sent[pending]
		}
		p.mu.Unlock()
		if m.Status == "over" {
			return true, got, nil
		}
		if m.N != pending {
			pending = -1
		}
		if pending < 0 && slices.Contains(m.ToMove, p.seat) && len(m.Legal) > 0 {
			mv := m.Legal[p.rng.IntN(len(m.Legal))]
			p.mu.Lock()
			p.sent[m.N] = mv
			p.mu.Unlock()
			pending = m.N
			msg := fmt.Sprintf(`{"type":"move","n":%d,"move":%s}`, m.N, mv)
			if err := ws.Write(ctx, websocket.MessageText, []byte(msg)); err != nil {
				return false, got, err
			}
		}
	}
}

// checkTables replays every finished table from its export and checks
// what each player was told and what the store kept.
func checkTables(t *testing.T, nodes []*clusterNode, players []*clusterPlayer) {
	t.Helper()
	byTable := map[string][]*clusterPlayer{}
	for _, p := range players {
		byTable[p.table] = append(byTable[p.table], p)
	}
	for id, ps := range byTable {
		var sc struct {
			Game    string          `json:"game"`
			Players int             `json:"players"`
			Options json.RawMessage `json:"options"`
			Seed    uint64          `json:"seed"`
			Moves   []struct {
				Seat int             `json:"seat"`
				Move json.RawMessage `json:"move"`
			} `json:"moves"`
		}
		getJSON(t, nodes, "/api/tables/"+id+"/replay", &sc)
		g := games.Named(sc.Game)
		var opening game.Log
		st, err := g.New(game.Config{Players: sc.Players, Options: sc.Options, Seed: sc.Seed, Log: &opening})
		if err != nil {
			t.Fatal(err)
		}
		// all[s] is every event of the match seat s may see, in order.
		all := map[int][]any{}
		hear := func(l *game.Log) {
			for s := 0; s < sc.Players; s++ {
				for _, e := range l.Events {
					if e.To.Has(game.Seat(s)) {
						all[s] = append(all[s], roundTrip(t, e.Data))
					}
				}
			}
		}
		hear(&opening)
		// views[n][seat] is what seat may see after n moves.
		views := []map[int]any{viewsOf(st, sc.Players)}
		var log game.Log
		events := []map[int][]any{nil}
		for i, mv := range sc.Moves {
			m, err := g.UnmarshalMove(mv.Move)
			if err != nil {
				t.Fatalf("%s move %d: %v", id, i, err)
			}
			log.Reset()
			if err := st.Apply(game.Seat(mv.Seat), m, &log); err != nil {
				t.Fatalf("%s: stored move %d (%s by %d) does not apply: %v", id, i, mv.Move, mv.Seat, err)
			}
			views = append(views, viewsOf(st, sc.Players))
			hear(&log)
			told := map[int][]any{}
			for s := 0; s < sc.Players; s++ {
				told[s] = []any{}
				for _, e := range log.Events {
					if e.To.Has(game.Seat(s)) {
						told[s] = append(told[s], roundTrip(t, e.Data))
					}
				}
			}
			events = append(events, told)
		}
		if !st.Over() {
			t.Fatalf("%s: the stored game is not over after %d moves", id, len(sc.Moves))
		}
		for _, p := range ps {
			// No acknowledged move lost: each is stored at its number.
			for n, mv := range p.acked {
				if n >= len(sc.Moves) || sc.Moves[n].Seat != p.seat || !sameJSON(t, sc.Moves[n].Move, mv) {
					t.Fatalf("%s: seat %d's move %d (%s) was acknowledged but is not stored", id, p.seat, n, mv)
				}
			}
			// None applied twice, none made up: each stored move of the
			// seat is the one it sent at that number, once.
			for n, mv := range sc.Moves {
				if mv.Seat != p.seat {
					continue
				}
				if sent, ok := p.sent[n]; !ok || !sameJSON(t, sent, mv.Move) {
					t.Fatalf("%s: stored move %d (%s) is not what seat %d sent then (%s)", id, n, mv.Move, p.seat, sent)
				}
			}
			// A welcome's history holds only events the seat may see, in
			// their order, each whole or with fields left out.
			for _, w := range p.welcomes {
				i := 0
				for _, e := range w.History {
					ev := roundTrip(t, e)
					for i < len(all[p.seat]) && !within(ev, all[p.seat][i]) {
						i++
					}
					if i == len(all[p.seat]) {
						t.Fatalf("%s: seat %d was welcomed with an event it may not see, or out of order: %s", id, p.seat, e)
					}
					i++
				}
			}
			// Every state message equals the seat's view of the game at
			// its move, and a move's events are those of its audience.
			for _, m := range p.states {
				if m.N >= len(views) {
					t.Fatalf("%s: seat %d was told of move %d, the store has %d", id, p.seat, m.N, len(sc.Moves))
				}
				if got := roundTrip(t, m.View); !reflect.DeepEqual(got, views[m.N][p.seat]) {
					t.Fatalf("%s: seat %d's view at move %d differs from its seat's:\n got %s", id, p.seat, m.N, m.View)
				}
				if m.By >= 0 && m.N > 0 {
					got := []any{}
					for _, e := range m.Events {
						got = append(got, roundTrip(t, e))
					}
					if !reflect.DeepEqual(got, events[m.N][p.seat]) {
						t.Fatalf("%s: seat %d was told other events at move %d: %v", id, p.seat, m.N, got)
					}
				}
			}
		}
	}
}

// within reports whether event e is told, each of its fields equal to
// told's: the event itself, or it with fields left out.
func within(e, told any) bool {
	em, ok1 := e.(map[string]any)
	tm, ok2 := told.(map[string]any)
	if !ok1 || !ok2 {
		return reflect.DeepEqual(e, told)
	}
	for k, v := range em {
		if tv, ok := tm[k]; !ok || !reflect.DeepEqual(v, tv) {
			return false
		}
	}
	return true
}

func viewsOf(st game.State, players int) map[int]any {
	v := map[int]any{}
	for s := 0; s < players; s++ {
		b, _ := json.Marshal(st.View(game.Seat(s)))
		var x any
		json.Unmarshal(b, &x)
		v[s] = x
	}
	return v
}

func roundTrip(t *testing.T, v any) any {
	t.Helper()
	var b []byte
	switch x := v.(type) {
	case json.RawMessage:
		b = x
	default:
		var err error
		if b, err = json.Marshal(v); err != nil {
			t.Fatal(err)
		}
	}
	var out any
	if err := json.Unmarshal(b, &out); err != nil {
		t.Fatal(err)
	}
	return out
}

func sameJSON(t *testing.T, a, b json.RawMessage) bool {
	return reflect.DeepEqual(roundTrip(t, a), roundTrip(t, b))
}

// getJSON asks each live node in turn.
func getJSON(t *testing.T, nodes []*clusterNode, path string, out any) {
	t.Helper()
	var last string
	for _, n := range nodes {
		resp, err := http.Get(n.url + path)
		if err != nil {
			last = err.Error()
			continue
		}
		var buf bytes.Buffer
		buf.ReadFrom(resp.Body)
		resp.Body.Close()
		if resp.StatusCode != http.StatusOK {
			last = fmt.Sprintf("%d %s", resp.StatusCode, buf.Bytes())
			continue
		}
		if err := json.Unmarshal(buf.Bytes(), out); err != nil {
			t.Fatal(err)
		}
		return
	}
	t.Fatalf("GET %s: %s", path, last)
}

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
