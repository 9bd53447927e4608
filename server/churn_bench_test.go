package server_test

import (
	"context"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"net/http"
	"os"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/coder/websocket"

	"tapis/games/papayoo"
)

// BenchmarkWelcomeChurn measures finding 4 of issue 24: on a table with a
// long history (the 20,700 moves, as far as Papayoo's rounds
// allow), a player's move round trip (sending a move to receiving the
// state after it), with nobody else connecting ("quiet") and with 48
// spectator sockets reconnecting in a loop from one address ("churn48").
// It reports the round trip's p50 and p99 and the connects made and
// refused. TAPIS_CHURN_PACE=off turns off the pacing of connects, to see
// what the bounded welcome alone does. Run it with
//
//	go test ./server -run '^$' -bench WelcomeChurn -benchtime 400x
func BenchmarkWelcomeChurn(b *testing.B) {
	cfg := testConfig()
	cfg.Limits.ConnectEvery, cfg.Limits.ConnectBurst = 0, 0 // the defaults
	if os.Getenv("TAPIS_CHURN_PACE") == "off" {
		cfg.Limits.ConnectEvery = -1
	}
	cfg.BotDelay, cfg.AwayAfter = time.Millisecond, time.Millisecond
	h := newHarness(b, cfg)
	rounds := min(400, papayoo.MaxRounds)
	ann := h.create("papayoo", []string{"", "random", "random"}, "Ann", fmt.Sprintf(`{"rounds":%d}`, rounds))
	// Ann's stand-in plays the history while a spectator attends.
	spec := h.dial(ann.Table, "")
	want := 20700
	if rounds < 400 {
		want = rounds * 60
	}
	if n, err := strconv.Atoi(os.Getenv("TAPIS_CHURN_MOVES")); err == nil {
		want = n
	}
	var reached msg
	began := time.Now()
	for reached.N < want {
		reached = spec.next("state")
		if reached.Status == "over" {
			b.Fatalf("the match ended at move %d", reached.N)
		}
		if reached.N%2000 == 0 {
			b.Logf("move %d after %v", reached.N, time.Since(began))
		}
	}
	spec.ws.CloseNow()
	url := "ws" + strings.TrimPrefix(h.hs.URL, "http") + "/api/tables/" + ann.Table + "/ws"
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	ws, _, err := websocket.Dial(ctx, url+"?token="+ann.Token, nil)
	if err != nil {
		b.Fatal(err)
	}
	defer ws.CloseNow()
	ws.SetReadLimit(1 << 24)
	// The welcome's size, on this table.
	_, welcome, err := ws.Read(ctx)
	if err != nil {
		b.Fatal(err)
	}
	b.Logf("history: %d moves; a seat's welcome: %d bytes", reached.N, len(welcome))
	rng := rand.New(rand.NewPCG(1, 2))
	// play makes n moves of Ann's, each when it is her turn, and returns
	// their round trips.
	play := func(n int) []time.Duration {
		var rtts []time.Duration
		var sent time.Time
		var last msg // the latest state
		waiting := -1
		for len(rtts) < n {
			_, data, err := ws.Read(ctx)
			if err != nil {
				b.Fatal(err)
			}
			var m msg
			if json.Unmarshal(data, &m) != nil {
				continue
			}
			switch m.Type {
			case "error":
				// A move overtaken by the bots' (stale): again, on
				// the latest state.
				waiting = -1
			case "state":
				last = m
				if m.Status == "over" {
					b.Fatalf("the match ended at move %d", m.N)
				}
				if waiting >= 0 && m.By == ann.Seat && m.N > waiting {
					rtts = append(rtts, time.Since(sent))
					waiting = -1
				}
			default:
				continue
			}
			if waiting < 0 && slices.Contains(last.ToMove, ann.Seat) && len(last.Legal) > 0 {
				mv := last.Legal[rng.IntN(len(last.Legal))]
				b, _ := json.Marshal(map[string]any{"type": "move", "move": mv, "n": last.N})
				sent, waiting = time.Now(), last.N
				if err := ws.Write(ctx, websocket.MessageText, b); err != nil {
					panic(err)
				}
			}
		}
		return rtts
	}
	report := func(b *testing.B, rtts []time.Duration) {
		slices.Sort(rtts)
		q := func(p float64) float64 { return float64(rtts[int(p*float64(len(rtts)-1))].Microseconds()) / 1000 }
		b.ReportMetric(q(0.5), "p50_ms")
		b.ReportMetric(q(0.99), "p99_ms")
		b.ReportMetric(0, "ns/op")
	}
	b.Run("quiet", func(b *testing.B) { report(b, play(b.N)) })
	b.Run("churn48", func(b *testing.B) {
		var made, refused atomic.Int64
		stop := make(chan struct{})
		var wg sync.WaitGroup
		client := from("127.0.0.2") // one address, as in the issue
		for range 48 {
			wg.Add(1)
			go func() {
				defer wg.Done()
				for {
					select {
					case <-stop:
						return
					default:
					}
					dctx, dcancel := context.WithTimeout(ctx, 10*time.Second)
					c, resp, err := websocket.Dial(dctx, url, &websocket.DialOptions{HTTPClient: client})
					if err == nil {
						c.SetReadLimit(1 << 24)
						c.Read(dctx) // the welcome
						made.Add(1)
						c.CloseNow()
					} else if resp != nil && resp.StatusCode == http.StatusTooManyRequests {
						refused.Add(1)
					}
					dcancel()
				}
			}()
		}
		report(b, play(b.N))
		close(stop)
		wg.Wait()
		b.ReportMetric(float64(made.Load()), "connects")
		b.ReportMetric(float64(refused.Load()), "refused")
	})
}
