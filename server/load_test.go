package server_test

import (
	"context"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"runtime"
	"runtime/pprof"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/coder/websocket"

	"tapis/game"
	"tapis/server"
	"tapis/store"
	"tapis/store/sqlite"
)

// BenchmarkLoad plays Cabo at 100 and 1,000 tables at once, every seat a
// bot client on its own WebSocket over loopback, the server writing every
// move to SQLite. It reports moves per second, the p50 and p99 round trip
// of a move (sent by a client until the state that follows it comes back),
// and the memory each table costs (both ends of its two connections: the
// clients live in the same process).
//
// Clients wait a think time before each move (TAPIS_BENCH_THINK, default
// 500ms, at random between 250 and 750: several times faster than people) so that the load is many tables
// playing at once, not a queue of clients that never pause.
//
//	go test ./server -run XXX -bench Load -benchtime 20000x
func BenchmarkLoad(b *testing.B) {
	think := 500 * time.Millisecond
	if s := os.Getenv("TAPIS_BENCH_THINK"); s != "" {
		d, err := time.ParseDuration(s)
		if err != nil {
			b.Fatal(err)
		}
		think = d
	}
	for _, n := range []int{100, 1000} {
		b.Run(fmt.Sprintf("tables=%d", n), func(b *testing.B) { benchLoad(b, n, think) })
	}
}

func benchLoad(b *testing.B, tables int, think time.Duration) {
	st, err := sqlite.Open(filepath.Join(b.TempDir(), "load.db"))
	if err != nil {
		b.Fatal(err)
	}
	defer st.Close()
	r := loadRun(b, st, tables, think, nil)
	all := r.lat
	slices.Sort(all)
	pct := func(p float64) float64 {
		return float64(all[min(len(all)-1, int(p*float64(len(all))))]) / float64(time.Millisecond)
	}
	b.ReportMetric(float64(r.moves)/r.elapsed.Seconds(), "moves/s")
	b.ReportMetric(pct(0.50), "p50-ms")
	b.ReportMetric(pct(0.99), "p99-ms")
	b.ReportMetric(r.heapPerTable, "heap-B/table")
	b.ReportMetric(0, "ns/op")
}

// loadResult is what one loadRun measured.
type loadResult struct {
	moves        int64
	elapsed      time.Duration
	lat          []time.Duration // every round trip, unsorted
	heapPerTable float64         // bytes in use per table once its clients are connected
}

// loadRun serves st, sets up tables of two Cabo clients each and plays
// until b.N moves are confirmed. measure, when not nil, is called with
// true just before play starts (after the timer is reset) and with false
// just after it ends, so that a caller can read counters around the play
// alone. The clients run under the pprof label side=client, so that a CPU
// profile of the benchmark tells their share from the server's
// (go tool pprof -tags).
func loadRun(b *testing.B, st store.Store, tables int, think time.Duration, measure func(start bool)) loadResult {
	cfg := server.Config{Store: st, Rate: -1, MaxTables: tables + 10,
		Limits: server.Limits{CreateEvery: -1, JoinEvery: -1, Waiting: -1, Conns: -1}}
	h := newHarness(b, cfg)
	wsURL := "ws" + strings.TrimPrefix(h.hs.URL, "http")
	clientLabels := pprof.Labels("side", "client")

	runtime.GC()
	var m0 runtime.MemStats
	runtime.ReadMemStats(&m0)

	// Set up every table: two human seats, each with its own client.
	type seatConn struct {
		ws   *websocket.Conn
		seat game.Seat
	}
	conns := make([]seatConn, 0, 2*tables)
	var mu sync.Mutex
	var wg sync.WaitGroup
	sem := make(chan struct{}, 16)
	for i := 0; i < tables; i++ {
		wg.Add(1)
		sem <- struct{}{}
		go pprof.Do(context.Background(), clientLabels, func(context.Context) {
			defer wg.Done()
			defer func() { <-sem }()
			a := h.create("cabo", []string{"", ""}, "A", "")
			bb := h.join(a.Table, "B")
			for _, s := range []seatResp{a, bb} {
				ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
				ws, _, err := websocket.Dial(ctx, wsURL+"/api/tables/"+s.Table+"/ws?token="+s.Token, nil)
				cancel()
				if err != nil {
					b.Error(err)
					return
				}
				ws.SetReadLimit(1 << 20)
				mu.Lock()
				conns = append(conns, seatConn{ws, s.Seat})
				mu.Unlock()
			}
		})
	}
	wg.Wait()
	if b.Failed() {
		b.FailNow()
	}
	runtime.GC()
	var m1 runtime.MemStats
	runtime.ReadMemStats(&m1)

	// Play until b.N moves are confirmed (or a time bound passes).
	var moves, refused atomic.Int64
	target := int64(b.N)
	// Bounded in time as well as in moves.
	ctx, stop := context.WithTimeout(context.Background(), 3*time.Minute)
	defer stop()
	lat := make([][]time.Duration, len(conns))
	b.ResetTimer()
	if measure != nil {
		measure(true)
	}
	start := time.Now()
	for i, c := range conns {
		wg.Add(1)
		go pprof.Do(context.Background(), clientLabels, func(context.Context) {
			defer wg.Done()
			lat[i] = playBench(ctx, stop, &refused, c.ws, c.seat, uint64(i), think, &moves, target)
		})
	}
	wg.Wait()
	elapsed := time.Since(start)
	if measure != nil {
		measure(false)
	}
	b.StopTimer()
	for _, c := range conns {
		c.ws.CloseNow()
	}
	r := loadResult{moves: moves.Load(), elapsed: elapsed,
		heapPerTable: float64(m1.HeapInuse-min(m0.HeapInuse, m1.HeapInuse)) / float64(tables)}
	for _, l := range lat {
		r.lat = append(r.lat, l...)
	}
	if len(r.lat) == 0 {
		b.Fatal("no move was played")
	}
	if n := refused.Load(); n > r.moves/1000 {
		b.Errorf("%d moves refused", n)
	}
	return r
}

// playBench is one bot client: after a think time it plays a random legal
// move and times until the state that follows it comes back; it starts
// the next game when one ends. It returns the round trips it measured.
// It stops when ctx ends; it cancels ctx (stop) when target moves are in.
func playBench(ctx context.Context, stop context.CancelFunc, refused *atomic.Int64, ws *websocket.Conn, seat game.Seat, seed uint64, think time.Duration, moves *atomic.Int64, target int64) []time.Duration {
	rng := rand.New(rand.NewPCG(seed, 11))
	var lat []time.Duration
	var sentAt atomic.Int64 // UnixNano of the move waiting for its state; 0: none
	// seen is (match, n) of the state that confirmed the last move: a state
	// older than it, read late, must not be acted on.
	var seen atomic.Int64
	type stateMsg struct {
		Type   string            `json:"type"`
		Match  int64             `json:"match"`
		N      int64             `json:"n"`
		By     game.Seat         `json:"by"`
		Status string            `json:"status"`
		Legal  []json.RawMessage `json:"legal"`
		ToMove []game.Seat       `json:"to_move"`
	}
	act := make(chan stateMsg, 1)
	// The reader times the round trips and keeps the latest state for the
	// player, so the socket is drained while the player thinks.
	var mu sync.Mutex
	go func() {
		defer close(act)
		for {
			_, b, err := ws.Read(ctx)
			if err != nil {
				return
			}
			var m stateMsg
			if json.Unmarshal(b, &m) != nil {
				continue
			}
			if m.Type == "error" {
				// A refused move (it crossed another seat's on the wire)
				// frees the player to choose again.
				refused.Add(1)
				sentAt.Store(0)
				continue
			}
			if m.Type != "state" {
				continue
			}
			if m.By == seat {
				seen.Store(m.Match<<32 | m.N)
				if t0 := sentAt.Swap(0); t0 != 0 {
					mu.Lock()
					lat = append(lat, time.Duration(time.Now().UnixNano()-t0))
					mu.Unlock()
					if moves.Add(1) >= target {
						stop()
					}
				}
			}
			select {
			case <-act:
			default:
			}
			act <- m
		}
	}()
	for {
		var m stateMsg
		var ok bool
		select {
		case m, ok = <-act:
		case <-ctx.Done():
		}
		if !ok {
			break
		}
		if m.Status == "over" {
			if seat == 0 {
				ws.Write(ctx, websocket.MessageText, []byte(`{"type":"again"}`))
			}
			continue
		}
		if sentAt.Load() != 0 || m.Match<<32|m.N < seen.Load() || !slices.Contains(m.ToMove, seat) || len(m.Legal) == 0 {
			continue
		}
		if think > 0 {
			select {
			case <-time.After(time.Duration(rng.Int64N(int64(think))) + think/2):
			case <-ctx.Done():
			}
		}
		msg, _ := json.Marshal(map[string]any{"type": "move", "move": m.Legal[rng.IntN(len(m.Legal))]})
		sentAt.Store(time.Now().UnixNano())
		if ws.Write(ctx, websocket.MessageText, msg) != nil {
			break
		}
	}
	ws.CloseNow()
	for range act {
	}
	mu.Lock()
	defer mu.Unlock()
	return lat
}
