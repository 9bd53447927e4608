package main

import (
	"context"
	"fmt"
	"time"
)

func init() { attacks["leave"] = leaveRated }

// leaveRated: a player makes 3 moves at a rated table against a bot and
// leaves; after the wait, is the match rated?
func leaveRated(args []string) {
	stamp := fmt.Sprint(time.Now().UnixNano() % 1000000)
	a := mkAccount(ip(245, 0, 1), "lv"+stamp, "password one")
	_, me := a.Get("/api/me")
	tid, tok := mkTable(a, map[string]any{"game": "cabo", "players": 2, "bots": []string{"", "easy"}, "rated": true})
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	conn, _ := a.WS(ctx, tid, tok)
	moves := 0
	playUntil(ctx, conn, func(m map[string]any) bool {
		if str(m["type"]) == "state" {
			if l, _ := m["legal"].([]any); len(l) > 0 {
				moves++
			}
		}
		return moves > 3
	})
	conn.CloseNow()
	cancel()
	fmt.Println("left table", tid, "after", moves-1, "moves; me", string(me))
	time.Sleep(90 * time.Second)
	_, b := a.Get("/api/tables/" + tid)
	fmt.Println("table:", string(b)[:300])
}
