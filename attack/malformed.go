package main

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/coder/websocket"
)

func init() { attacks["malformed"] = malformed }

func malformed(args []string) {
	c := client(ip(240, 0, 1))
	tid, tok := mkTable(c, map[string]any{"game": "cabo", "players": 2, "bots": []string{"", "easy"}, "name": "M"})
	msgs := []string{`{`, `[]`, `null`, `{"type":"move","move":null,"n":-1}`, `{"type":"move","move":{"kind":"` + strings.Repeat("z", 3000) + `"},"n":0}`,
		`{"type":"move","n":1e400}`, `{"type":"chat","text":"` + strings.Repeat("\u202e", 400) + `"}`, `{"type":"seat_bot","seat":-1,"bot":"hard"}`, `{"type":"seat_bot","seat":99999999999,"bot":"x"}`,
		`{"type":"hello","name":"` + strings.Repeat("é", 1000) + `"}`, `{"type":"mute","spectator":"c:-1"}`, `{"type":"again"}`, strings.Repeat(`{"type":"ping"}`, 100), `{"type":"ping","x":` + strings.Repeat("[", 2000) + strings.Repeat("]", 2000) + `}`}
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	conn, err := c.WS(ctx, tid, tok)
	if err != nil {
		fmt.Println(err)
		return
	}
	go func() {
		for {
			r, err := read(ctx, conn)
			if err != nil {
				fmt.Println("socket closed:", err)
				return
			}
			if str(r["type"]) == "error" {
				e := str(r["error"])
				if len(e) > 80 {
					e = e[:80]
				}
				fmt.Println("  error", r["code"], r["id"], e)
			}
		}
	}()
	for i, m := range msgs {
		fmt.Println("sent", i, len(m), "bytes")
		conn.Write(ctx, websocket.MessageText, []byte(m))
		time.Sleep(300 * time.Millisecond)
	}
	big := strings.Repeat("a", 70<<10)
	fmt.Println("sending 70 KiB")
	conn.Write(ctx, websocket.MessageText, []byte(`{"type":"chat","text":"`+big+`"}`))
	time.Sleep(time.Second)
	_, b := c.Get("/api/tables/" + tid)
	fmt.Println("table still", string(b[:80]))
}
