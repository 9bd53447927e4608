package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"net/http"
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
