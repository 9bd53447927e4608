package main

import (
	"context"
	"encoding/json"
	"fmt"
	"math/rand"
	"strconv"
	"sync"
	"sync/atomic"
	"time"
)

func init() { attacks["playall"] = playAllCmd }

// playAll creates a table of n persons from net 127.a.*, joins every seat,
// plays random legal moves on all seats until the first match is over.
// Returns table id and moves made.
func playAll(a int, game string, n int, options map[string]any, extra map[string]any, maxDur time.Duration) (string, int64) {
	bots := make([]string, n)
	host := client(ip(a, 0, 1))
	body := map[string]any{"game": game, "players": n, "bots": bots, "name": "P0", "options": options}
	for k, v := range extra {
		body[k] = v
	}
	tid, tok := mkTable(host, body)
	if tid == "" {
		return "", 0
	}
	toks := []string{tok}
	cls := []*C{host}
	for i := 1; i < n; i++ {
		c := client(ip(a, i, 1))
		st, m, _ := c.Post("/api/tables/"+tid+"/join", map[string]any{"name": "P" + strconv.Itoa(i)})
		if st != 200 && st != 201 {
			fmt.Println("join", st, m)
			return tid, 0
		}
		toks = append(toks, str(m["token"]))
		cls = append(cls, c)
	}
	ctx, cancel := context.WithTimeout(context.Background(), maxDur)
	defer cancel()
	var moves atomic.Int64
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
			for {
				m, err := read(ctx, conn)
				if err != nil {
					return
				}
				if str(m["type"]) == "state" {
					if str(m["status"]) == "over" {
						cancel()
						return
					}
					legal, _ := m["legal"].([]any)
					if len(legal) > 0 {
						send(ctx, conn, map[string]any{"type": "move", "move": legal[r.Intn(len(legal))], "n": m["n"]})
						moves.Add(1)
					}
				}
			}
		}(i)
	}
	wg.Wait()
	return tid, moves.Load()
}

// playAllCmd: args: net game n optionsJSON maxSeconds
func playAllCmd(args []string) {
	a, _ := strconv.Atoi(args[0])
	n, _ := strconv.Atoi(args[2])
	var opt map[string]any
	json.Unmarshal([]byte(args[3]), &opt)
	secs, _ := strconv.Atoi(args[4])
	t := time.Now()
	tid, moves := playAll(a, args[1], n, opt, nil, time.Duration(secs)*time.Second)
	fmt.Printf("TABLE %s game %s moves sent %d in %v\n", tid, args[1], moves, time.Since(t))
}
