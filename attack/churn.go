package main

import (
	"context"
	"fmt"
	"math/rand"
	"strconv"
	"sync"
	"sync/atomic"
	"time"
)

func init() { attacks["churn"] = churn }

// churn: args: mode(none|one|nets) premoves spectators seconds
func churn(args []string) {
	mode := args[0]
	pre, _ := strconv.Atoi(args[1])
	nspec, _ := strconv.Atoi(args[2])
	secs, _ := strconv.Atoi(args[3])
	a := 70 + rand.Intn(20)
	n := 3
	host := client(ip(a, 0, 1))
	tid, tok := mkTable(host, map[string]any{"game": "papayoo", "players": n, "bots": make([]string, n), "name": "P0", "options": map[string]any{"rounds": 40}})
	toks := []string{tok}
	cls := []*C{host}
	for i := 1; i < n; i++ {
		c := client(ip(a, i, 1))
		_, m, _ := c.Post("/api/tables/"+tid+"/join", map[string]any{"name": "P" + strconv.Itoa(i)})
		toks = append(toks, str(m["token"]))
		cls = append(cls, c)
	}
	fmt.Println("table", tid)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var total atomic.Int64
	var phase atomic.Int32 // 0 pre, 1 baseline, 2 churn, 3 stop
	var mu sync.Mutex
	rtt := map[int32][]time.Duration{}
	var wg sync.WaitGroup
	for i := 0; i < n; i++ {
		wg.Add(1)
		go func(i int) {
			defer wg.Done()
			conn, err := cls[i].WS(ctx, tid, toks[i])
			if err != nil {
				fmt.Println("ws", err)
				return
			}
			defer conn.CloseNow()
			r := rand.New(rand.NewSource(int64(i)))
			var sentAt time.Time
			sentN := -1
			for phase.Load() < 3 {
				m, err := read(ctx, conn)
				if err != nil {
					return
				}
				if str(m["type"]) != "state" {
					continue
				}
				if str(m["status"]) == "over" {
					fmt.Println("match over at", m["n"])
					phase.Store(3)
					return
				}
				if sentN >= 0 && num(m["n"]) > sentN && num(m["by"]) == i {
					p := phase.Load()
					mu.Lock()
					rtt[p] = append(rtt[p], time.Since(sentAt))
					mu.Unlock()
					sentN = -1
				}
				legal, _ := m["legal"].([]any)
				if len(legal) > 0 {
					if total.Load() >= int64(pre) && phase.Load() == 0 {
						phase.Store(1)
					}
					if phase.Load() >= 1 {
						time.Sleep(20 * time.Millisecond) // pace moves in the measure, before the clock starts
					}
					sentAt = time.Now()
					sentN = num(m["n"])
					send(ctx, conn, map[string]any{"type": "move", "move": legal[r.Intn(len(legal))], "n": m["n"]})
					total.Add(1)
				}
			}
		}(i)
	}
	for phase.Load() == 0 {
		time.Sleep(100 * time.Millisecond)
	}
	fmt.Println("baseline at moves", total.Load())
	time.Sleep(10 * time.Second)
	phase.Store(2)
	var conns, fails atomic.Int64
	var welcomeBytes atomic.Int64
	end := time.Now().Add(time.Duration(secs) * time.Second)
	var sw sync.WaitGroup
	for s := 0; s < nspec && mode != "none"; s++ {
		sw.Add(1)
		go func(s int) {
			defer sw.Done()
			k := 0
			for time.Now().Before(end) && phase.Load() == 2 {
				k++
				addr := ip(110, 0, 1)
				if mode == "nets" {
					addr = ip(110, (s+k)%200, 1+s)
				}
				c := client(addr)
				cctx, cc := context.WithTimeout(ctx, 5*time.Second)
				conn, err := c.WS(cctx, tid, "")
				if err != nil {
					fails.Add(1)
					cc()
					time.Sleep(50 * time.Millisecond)
					continue
				}
				_, b, err := conn.Read(cctx)
				if err == nil {
					welcomeBytes.Store(int64(len(b)))
				}
				conns.Add(1)
				conn.CloseNow()
				cc()
			}
		}(s)
	}
	if mode == "none" {
		time.Sleep(time.Duration(secs) * time.Second)
	}
	sw.Wait()
	phase.Store(3)
	cancel()
	wg.Wait()
	fmt.Printf("mode %s: moves %d, spectator connects %d (refused/failed %d), last welcome %d bytes\n", mode, total.Load(), conns.Load(), fails.Load(), welcomeBytes.Load())
	fmt.Printf("baseline rtt n=%d p50 %v p90 %v p99 %v\n", len(rtt[1]), pct(rtt[1], .5), pct(rtt[1], .9), pct(rtt[1], .99))
	fmt.Printf("churn rtt n=%d p50 %v p90 %v p99 %v\n", len(rtt[2]), pct(rtt[2], .5), pct(rtt[2], .9), pct(rtt[2], .99))
}
