package main

import (
	"context"
	"fmt"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/coder/websocket"
)

func init() { attacks["flood"] = flood }

// flood: args: addrs seconds pid — from addrs addresses (each its own
// /24), one seated socket each at a table of its own, writing pings
// and 3 KB chat lines as fast as the socket takes them, never reading
// but to see how the server answers (issue 28's event loop: a socket's
// queue is bounded, then the socket is cut with "too many messages").
// Meanwhile one player at another table plays; its move round trips
// and the server's memory are printed.
func flood(args []string) {
	na, _ := strconv.Atoi(args[0])
	secs, _ := strconv.Atoi(args[1])
	pid := args[2]
	fmt.Println("rss before", rss(pid))
	ctx, cancel := context.WithTimeout(context.Background(), time.Duration(secs)*time.Second)
	defer cancel()
	var sent, cut, failed atomic.Int64
	codes := map[string]int{}
	var mu sync.Mutex
	var wg sync.WaitGroup
	big := `{"type":"chat","text":"` + strings.Repeat("x", 3000) + `"}`
	for a := 0; a < na; a++ {
		wg.Add(1)
		go func(a int) {
			defer wg.Done()
			c := client(ip(232, a/250, a%250+1))
			tid, tok := mkTable(c, map[string]any{"game": "cabo", "players": 2, "bots": []string{"", "random"}, "name": "F"})
			if tid == "" {
				failed.Add(1)
				return
			}
			conn, err := c.WS(ctx, tid, tok)
			if err != nil {
				failed.Add(1)
				return
			}
			defer conn.CloseNow()
			go func() { // read only to see the close
				for {
					if _, _, err := conn.Read(ctx); err != nil {
						mu.Lock()
						codes[websocket.CloseStatus(err).String()]++
						mu.Unlock()
						return
					}
				}
			}()
			for i := 0; ctx.Err() == nil; i++ {
				msg := `{"type":"ping"}`
				if i%2 == 1 {
					msg = big
				}
				if err := conn.Write(ctx, websocket.MessageText, []byte(msg)); err != nil {
					cut.Add(1)
					return
				}
				sent.Add(1)
			}
		}(a)
	}
	// A player elsewhere, measured.
	p := client(ip(233, 0, 1))
	tid, tok := mkTable(p, map[string]any{"game": "cabo", "players": 2, "bots": []string{"", "random"}, "name": "P"})
	var rtts []time.Duration
	if conn, err := p.WS(ctx, tid, tok); err == nil {
		rtts = playMeasured(ctx, conn)
	}
	mid := rss(pid)
	wg.Wait()
	fmt.Printf("flood: %d addresses, %d messages sent, %d sockets cut, %d could not start; closes seen %v\n", na, sent.Load(), cut.Load(), failed.Load(), codes)
	fmt.Printf("player elsewhere: %d moves, p50 %v, p99 %v; rss during %s, after %s\n", len(rtts), pct(rtts, .5), pct(rtts, .99), mid, rss(pid))
}

// playMeasured plays the first legal move whenever it is the seat's
// turn until the match ends or ctx does, timing each move from its
// sending to the next state.
func playMeasured(ctx context.Context, conn *websocket.Conn) []time.Duration {
	var rtts []time.Duration
	var sentAt time.Time
	for {
		m, err := read(ctx, conn)
		if err != nil {
			return rtts
		}
		if str(m["type"]) != "state" {
			continue
		}
		if !sentAt.IsZero() {
			rtts = append(rtts, time.Since(sentAt))
			sentAt = time.Time{}
		}
		if str(m["status"]) == "over" {
			return rtts
		}
		if legal, _ := m["legal"].([]any); len(legal) > 0 {
			time.Sleep(100 * time.Millisecond) // a person's pace, within the server's
			sentAt = time.Now()
			send(ctx, conn, map[string]any{"type": "move", "move": legal[0], "n": m["n"]})
		}
	}
}
