package main

import (
	"context"
	"fmt"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"
)

func init() { attacks["chat"] = chatFlood }

func mkTable(c *C, body map[string]any) (string, string) {
	st, m, _ := c.Post("/api/tables", body)
	if st != 201 {
		fmt.Println("create", st, m)
		return "", ""
	}
	return str(m["table"]), str(m["token"])
}

// chatFlood: args: mode(one|net|nets|guests) seconds workers
func chatFlood(args []string) {
	mode := args[0]
	secs, _ := strconv.Atoi(args[1])
	workers, _ := strconv.Atoi(args[2])
	host := client(ip(40, 0, 1))
	tid, _ := mkTable(host, map[string]any{"game": "cabo", "players": 2, "bots": []string{"", ""}, "name": "Host"})
	fmt.Println("table", tid)
	end := time.Now().Add(time.Duration(secs) * time.Second)
	var slow, conns, other atomic.Int64
	line := strings.Repeat("x", 490)
	var wg sync.WaitGroup
	for w := 0; w < workers; w++ {
		wg.Add(1)
		go func(w int) {
			defer wg.Done()
			k := 0
			for time.Now().Before(end) {
				k++
				var a string
				switch mode {
				case "one":
					a = ip(41, 0, 1)
				case "net":
					a = ip(41, 1, 1+(w*37+k)%254)
				case "nets":
					a = ip(42, (w+k)%8, 1+(w*37+k)%254)
				}
				var c *C
				if mode != "guests" {
					c = client(a)
				}
				if mode == "guests" {
					a = ip(41, 2, 1+(w*37+k)%254)
					c = client(a)
					if st, _, _ := c.Post("/api/me", map[string]any{"name": "gg" + strconv.Itoa(w) + "_" + strconv.Itoa(k)}); st != 200 {
						time.Sleep(200 * time.Millisecond)
						continue
					}
				}
				ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
				conn, err := c.WS(ctx, tid, "")
				if err != nil {
					cancel()
					other.Add(1)
					time.Sleep(100 * time.Millisecond)
					continue
				}
				conns.Add(1)
				if mode != "guests" {
					send(ctx, conn, map[string]any{"type": "hello", "name": "sp" + strconv.Itoa(w) + "x" + strconv.Itoa(k)})
				}
				for i := 0; i < 5; i++ {
					send(ctx, conn, map[string]any{"type": "chat", "text": line, "id": i})
				}
				// read replies for a moment to count
				rctx, rc := context.WithTimeout(ctx, 300*time.Millisecond)
				for {
					m, err := read(rctx, conn)
					if err != nil {
						break
					}
					if str(m["type"]) == "error" {
						if str(m["code"]) == "chat_slow" {
							slow.Add(1)
						} else {
							other.Add(1)
						}
					}
				}
				rc()
				conn.CloseNow()
				cancel()
			}
		}(w)
	}
	wg.Wait()
	fmt.Printf("mode %s %ds: conns %d chat_slow %d other %d\n", mode, secs, conns.Load(), slow.Load(), other.Load())
	fmt.Println("TABLE", tid)
}
