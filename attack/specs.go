package main

import (
	"context"
	"fmt"
	"strconv"
	"sync"
	"sync/atomic"
	"time"
)

func init() { attacks["specs"] = specs }

// specs: args: table spectators seconds — the churning spectators alone,
// so that they run in another process than the measured players.
func specs(args []string) {
	tid := args[0]
	nspec, _ := strconv.Atoi(args[1])
	secs, _ := strconv.Atoi(args[2])
	ctx := context.Background()
	var conns, fails atomic.Int64
	end := time.Now().Add(time.Duration(secs) * time.Second)
	var sw sync.WaitGroup
	for s := 0; s < nspec; s++ {
		sw.Add(1)
		go func(s int) {
			defer sw.Done()
			c := client(ip(110, 0, 1))
			for time.Now().Before(end) {
				cctx, cc := context.WithTimeout(ctx, 5*time.Second)
				conn, err := c.WS(cctx, tid, "")
				if err != nil {
					fails.Add(1)
					cc()
					time.Sleep(50 * time.Millisecond)
					continue
				}
				conn.Read(cctx)
				conns.Add(1)
				conn.CloseNow()
				cc()
			}
		}(s)
	}
	sw.Wait()
	fmt.Printf("spectator connects %d, refused %d\n", conns.Load(), fails.Load())
}
