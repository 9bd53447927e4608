package main

import (
	"context"
	"fmt"
	"strconv"
	"time"

	"github.com/coder/websocket"
)

func init() { attacks["revoke"] = revoke; attacks["rename"] = rename }

// waitClose reads until the socket closes or 5 s pass.
func waitClose(conn *websocket.Conn) string {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	t := time.Now()
	for {
		_, _, err := conn.Read(ctx)
		if err != nil {
			if ctx.Err() != nil {
				return "STILL OPEN after 5s"
			}
			return fmt.Sprintf("closed after %v: %v (status %d)", time.Since(t).Round(time.Millisecond), err, websocket.CloseStatus(err))
		}
	}
}

func revoke(args []string) {
	stamp := strconv.Itoa(int(time.Now().Unix() % 100000))
	for k, what := range []string{"password", "everywhere", "delete", "delete-token"} {
		user := "rv" + stamp + strconv.Itoa(k)
		a := mkAccount(ip(150, k, 1), user, "first password")
		tid, tok := mkTable(a, map[string]any{"game": "cabo", "players": 2, "bots": []string{"", ""}})
		ctx := context.Background()
		useTok := ""
		if what == "delete-token" {
			useTok = tok
		}
		conn, err := a.WS(ctx, tid, useTok)
		if err != nil {
			fmt.Println(err)
			continue
		}
		m, _ := read(ctx, conn)
		fmt.Println(what, "socket seat", m["seat"])
		b := client(ip(151, k, 1))
		st, _, _ := b.Post("/api/account/signin", map[string]any{"username": user, "password": "first password"})
		switch what {
		case "password":
			st, _, _ = b.Post("/api/account/password", map[string]any{"old": "first password", "new": "second password"})
		case "everywhere":
			st, _, _ = b.Post("/api/account/signout", map[string]any{"everywhere": true})
		default:
			st, _, _ = b.Post("/api/account/delete", map[string]any{"password": "first password"})
		}
		fmt.Println(what, "status", st, "->", waitClose(conn))
		// token still works?
		c2 := client(ip(152, k, 1))
		conn2, err := c2.WS(ctx, tid, tok)
		if err != nil {
			fmt.Println(what, "token reconnect:", err)
			continue
		}
		m, _ = read(ctx, conn2)
		fmt.Println(what, "token reconnect seat", m["seat"])
		conn2.CloseNow()
	}
}

func rename(args []string) {
	alice := client(ip(160, 0, 1))
	alice.Post("/api/me", map[string]any{"name": "Alice"})
	tid, _ := mkTable(alice, map[string]any{"game": "cabo", "players": 3, "bots": []string{"", "", ""}})
	bob := client(ip(160, 1, 1))
	bob.Post("/api/me", map[string]any{"name": "Bob"})
	st, m, _ := bob.Post("/api/tables/"+tid+"/join", map[string]any{})
	fmt.Println("bob join", st, m["code"])
	for _, n := range []string{"alice", "Ａｌｉｃｅ", "Alice\u200b", "A l i c e", "ALİCE", "Alıce", "Аlice" /*cyrillic A*/, "Alice\u0301", "\u202eecilA", "Alice\u00ad", "Alice\u3000", "ᴬlice", "Alice\ufe0f"} {
		for {
			st, m, h := bob.Post("/api/me", map[string]any{"name": n})
			if st == 429 {
				ra, _ := strconv.Atoi(h.Get("Retry-After"))
				time.Sleep(time.Duration(ra)*time.Second + 100*time.Millisecond)
				continue
			}
			pl, _ := m["player"].(map[string]any)
			fmt.Printf("rename %q: %d %v %q\n", n, st, m["code"], pl["name"])
			break
		}
	}
	ok, codes := 0, map[string]int{}
	t := time.Now()
	for i := 0; time.Since(t) < 5*time.Second; i++ {
		st, m, _ := bob.Post("/api/me", map[string]any{"name": "Bob" + strconv.Itoa(i)})
		if st == 200 {
			ok++
		} else {
			codes[str(m["code"])]++
		}
	}
	fmt.Println("rename flood 5s: accepted", ok, "refused", codes)
}
