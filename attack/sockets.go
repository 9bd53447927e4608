package main

import (
	"context"
	"fmt"
	"strconv"
	"sync"
	"sync/atomic"
	"time"
)

func init() { attacks["sockets"] = manySockets }

// manySockets: args: tables addrs perAddr pid — holds spectator sockets
// from one /24 for 10 s, then closes them all.
func manySockets(args []string) {
	nt, _ := strconv.Atoi(args[0])
	na, _ := strconv.Atoi(args[1])
	pa, _ := strconv.Atoi(args[2])
	var tids []string
	for i := 0; i < nt; i++ {
		t, _ := mkTable(client(ip(230, i, 1)), map[string]any{"game": "cabo", "players": 2, "bots": []string{"", ""}, "name": "H"})
		tids = append(tids, t)
	}
	fmt.Println("rss before", rss(args[3]))
	ctx, cancel := context.WithTimeout(context.Background(), 40*time.Second)
	defer cancel()
	var okn, fail atomic.Int64
	errs := map[string]int{}
	var mu sync.Mutex
	var wg sync.WaitGroup
	for a := 1; a <= na; a++ {
		wg.Add(1)
		go func(a int) {
			defer wg.Done()
			c := client(ip(231, 0, a))
			for k := 0; k < pa; k++ {
				conn, err := c.WS(ctx, tids[(a*pa+k)%len(tids)], "")
				if err != nil {
					fail.Add(1)
					mu.Lock()
					e := err.Error()
					if len(e) > 90 {
						e = e[len(e)-90:]
					}
					errs[e]++
					mu.Unlock()
					continue
				}
				okn.Add(1)
				go func() {
					for {
						if _, _, err := conn.Read(ctx); err != nil {
							return
						}
					}
				}()
			}
		}(a)
	}
	wg.Wait()
	fmt.Println("open", okn.Load(), "refused", fail.Load(), "rss", rss(args[3]))
	for e, n := range errs {
		fmt.Println(n, e)
	}
	time.Sleep(5 * time.Second)
	cancel()
}
