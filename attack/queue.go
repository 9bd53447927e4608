package main

import (
	"fmt"
	"strconv"
	"time"
)

func init() { attacks["queue"] = queueRate }

func queueRate(args []string) {
	c := client(ip(195, 0, 1))
	c.Post("/api/me", map[string]any{"name": "Quick"})
	codes := map[string]int{}
	t := time.Now()
	for i := 0; time.Since(t) < 20*time.Second; i++ {
		st, m, _ := c.Post("/api/queue", map[string]any{"game": "cabo", "players": 2, "bot": "easy", "wait_seconds": 0})
		codes[strconv.Itoa(st)+" "+str(m["code"])]++
		c.Post("/api/queue/leave", map[string]any{})
		time.Sleep(50 * time.Millisecond)
	}
	fmt.Println("queue entries from one address in 20s:", codes)
	_, b := c.Get("/api/me/tables")
	fmt.Println("tables:", len(b), "bytes")
}
