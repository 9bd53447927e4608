package main

import (
	"context"
	"fmt"
	"strconv"
	"sync"
	"time"
)

func init() { attacks["cap"] = tableCap; attacks["newcomer"] = newcomerCmd }

func newcomer(addr string) (time.Duration, string) {
	t := time.Now()
	c := client(addr)
	for time.Since(t) < 90*time.Second {
		st, m, _ := c.Post("/api/tables", map[string]any{"game": "cabo", "players": 2, "bots": []string{"", "easy"}, "name": "New"})
		if st != 201 {
			fmt.Println("newcomer create", st, m["code"], m["error"])
			time.Sleep(2 * time.Second)
			continue
		}
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		defer cancel()
		conn, err := c.WS(ctx, str(m["table"]), str(m["token"]))
		if err != nil {
			return time.Since(t), "ws " + err.Error()
		}
		defer conn.CloseNow()
		sent := -1
		for {
			mm, err := read(ctx, conn)
			if err != nil {
				return time.Since(t), "read " + err.Error()
			}
			if str(mm["type"]) != "state" {
				continue
			}
			if sent >= 0 && num(mm["by"]) == 0 && num(mm["n"]) > sent {
				return time.Since(t), "moved"
			}
			legal, _ := mm["legal"].([]any)
			if len(legal) > 0 && sent < 0 {
				sent = num(mm["n"])
				send(ctx, conn, map[string]any{"type": "move", "move": legal[0], "n": mm["n"]})
			}
		}
	}
	return time.Since(t), "gave up"
}

func newcomerCmd(args []string) {
	d, r := newcomer(args[0])
	fmt.Println("newcomer", args[0], d, r)
}

// tableCap: args: nets addrsPerNet tablesPerAddr firstNet
func tableCap(args []string) {
	nets, _ := strconv.Atoi(args[0])
	per, _ := strconv.Atoi(args[1])
	tpa, _ := strconv.Atoi(args[2])
	first, _ := strconv.Atoi(args[3])
	codes := map[string]int{}
	var mu sync.Mutex
	jobs := make(chan string)
	var wg sync.WaitGroup
	t0 := time.Now()
	for w := 0; w < 64; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for a := range jobs {
				c := client(a)
				for i := 0; i < tpa; i++ {
					st, m, _ := c.Post("/api/tables", map[string]any{"game": "cabo", "players": 2, "bots": []string{"", ""}, "name": "F", "public": true})
					mu.Lock()
					codes[strconv.Itoa(st)+" "+str(m["code"])]++
					mu.Unlock()
				}
			}
		}()
	}
	for n := 0; n < nets; n++ {
		for h := 1; h <= per; h++ {
			jobs <- ip(first+n, 0, h)
		}
	}
	close(jobs)
	wg.Wait()
	fmt.Println("flood took", time.Since(t0), codes)
	d, r := newcomer(ip(250, 0, 1))
	fmt.Println("newcomer from another /24:", d, r)
}
