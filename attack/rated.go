package main

import (
	"context"
	"fmt"
	"math/rand"
	"strconv"
	"sync"
	"syscall"
	"time"
)

func init() { attacks["rated"] = rated }

// rated: args: netbase killpid(0: no kill)
func rated(args []string) {
	nb, _ := strconv.Atoi(args[0])
	pid, _ := strconv.Atoi(args[1])
	stamp := strconv.Itoa(int(time.Now().UnixNano() % 1000000))
	a := mkAccount(ip(nb, 0, 1), "ra"+stamp, "password one")
	b := mkAccount(ip(nb, 1, 1), "rb"+stamp, "password two")
	st, m, _ := a.Post("/api/tables", map[string]any{"game": "dacapo", "players": 2, "bots": []string{"", ""}, "rated": true, "turn_seconds": 0})
	fmt.Println("rated turn_seconds 0:", st, m["code"])
	tid, _ := mkTable(a, map[string]any{"game": "dacapo", "players": 2, "bots": []string{"", ""}, "rated": true})
	st, m, _ = b.Post("/api/tables/"+tid+"/join", map[string]any{})
	fmt.Println("table", tid, "join", st, m["code"])
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	ca, _ := a.WS(ctx, tid, "")
	cb, _ := b.WS(ctx, tid, "")
	// seat_bot on b's seat while b is connected and after b leaves
	send(ctx, ca, map[string]any{"type": "seat_bot", "seat": 1, "bot": "hard", "id": 99})
	var once sync.Once
	var wg sync.WaitGroup
	for i, c := range []*struct{}{nil, nil} {
		_ = c
		conn := ca
		if i == 1 {
			conn = cb
		}
		wg.Add(1)
		go func(i int) {
			defer wg.Done()
			r := rand.New(rand.NewSource(time.Now().UnixNano() + int64(i)))
			for {
				m, err := read(ctx, conn)
				if err != nil {
					return
				}
				if str(m["type"]) == "error" {
					fmt.Println("seat", i, "error", m["code"], m["id"])
				}
				if str(m["type"]) != "state" {
					continue
				}
				if str(m["status"]) == "over" {
					once.Do(func() {
						if pid > 0 {
							syscall.Kill(pid, syscall.SIGKILL)
							fmt.Println("KILLED at over, n", m["n"])
						}
						cancel()
					})
					return
				}
				legal, _ := m["legal"].([]any)
				if len(legal) > 0 {
					send(ctx, conn, map[string]any{"type": "move", "move": legal[r.Intn(len(legal))], "n": m["n"]})
				}
			}
		}(i)
	}
	wg.Wait()
	fmt.Println("TABLE", tid, "A", "ra"+stamp)
}
