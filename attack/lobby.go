package main

import (
	"context"
	"encoding/json"
	"fmt"
	"time"
)

func init() { attacks["lobby"] = lobbySpam }

func lobbyHas(id string) (bool, int) {
	c := client(ip(251, 0, 1))
	_, b := c.Get("/api/lobby?game=cabo")
	var l struct {
		Tables []struct{ ID string } `json:"tables"`
	}
	json.Unmarshal(b, &l)
	for _, t := range l.Tables {
		if t.ID == id {
			return true, len(l.Tables)
		}
	}
	return false, len(l.Tables)
}

// lobbySpam: a real host waits connected at a public table; a flood from
// a few /24s creates public tables it never opens, every 10 s for 70 s.
func lobbySpam(args []string) {
	host := client(ip(252, 0, 1))
	tid, tok := mkTable(host, map[string]any{"game": "cabo", "players": 2, "bots": []string{"", ""}, "name": "Real", "public": true})
	ctx, cancel := context.WithTimeout(context.Background(), 120*time.Second)
	defer cancel()
	conn, err := host.WS(ctx, tid, tok)
	if err != nil {
		fmt.Println(err)
		return
	}
	defer conn.CloseNow()
	go func() {
		for {
			if _, _, err := conn.Read(ctx); err != nil {
				return
			}
		}
	}()
	go func() {
		for ctx.Err() == nil {
			send(ctx, conn, map[string]any{"type": "ping"})
			time.Sleep(10 * time.Second)
		}
	}()
	h, n := lobbyHas(tid)
	fmt.Println("before flood: real table listed", h, "of", n)
	made := 0
	k := 0
	for r := 0; r < 8; r++ {
		for i := 0; i < 120; i++ {
			k++
			c := client(ip(200+k%6, 1, 1+k%250))
			st, _, _ := c.Post("/api/tables", map[string]any{"game": "cabo", "players": 2, "bots": []string{"", ""}, "name": "Bait", "public": true})
			if st == 201 {
				made++
			}
		}
		h, n := lobbyHas(tid)
		fmt.Printf("t=%ds flood tables made %d: real table listed %v, lobby %d\n", r*10, made, h, n)
		time.Sleep(10 * time.Second)
	}
}
