// Command attack holds the red team's attacks of issue 24 ("Fair play"),
// kept so that each can be run again against a running `tapis serve`
// after a change: they speak only the public HTTP and WebSocket API, from
// loopback addresses (127.a.b.c), so that one machine can play many
// addresses and networks. Run the server on one core and the attack on
// the other, e.g.
//
//	taskset -c 0 tapis serve -addr 127.0.0.1:18400 -db /tmp/a.db &
//	taskset -c 1 go run ./attack churn none 1000 0 30   # players alone, measured
//	taskset -c 1 go run ./attack specs TABLE 48 30     # 48 churning spectators, another process
//
// TAPIS_ATTACK_URL overrides the server's address. Each attack's
// arguments are in the comment above its function; they print figures,
// they assert nothing: the tests in server/ and account/ are the checks.
package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/cookiejar"
	"os"
	"sort"
	"strings"
	"time"

	"github.com/coder/websocket"
)

var base = func() string {
	if u := os.Getenv("TAPIS_ATTACK_URL"); u != "" {
		return u
	}
	return "http://127.0.0.1:18400"
}()

// C is one client: a source address and a cookie jar.
type C struct {
	IP string
	H  *http.Client
}

func client(ip string) *C {
	if !strings.HasPrefix(ip, "127.") {
		panic("loopback only")
	}
	d := &net.Dialer{LocalAddr: &net.TCPAddr{IP: net.ParseIP(ip)}, Timeout: 5 * time.Second}
	jar, _ := cookiejar.New(nil)
	return &C{IP: ip, H: &http.Client{Jar: jar, Transport: &http.Transport{DialContext: d.DialContext, MaxIdleConnsPerHost: 4}, Timeout: 60 * time.Second}}
}

// Post sends JSON and decodes the answer into a map.
func (c *C) Post(path string, body any) (int, map[string]any, http.Header) {
	b, _ := json.Marshal(body)
	resp, err := c.H.Post(base+path, "application/json", bytes.NewReader(b))
	if err != nil {
		return -1, map[string]any{"err": err.Error()}, nil
	}
	defer resp.Body.Close()
	var m map[string]any
	raw, _ := io.ReadAll(resp.Body)
	json.Unmarshal(raw, &m)
	if m == nil {
		m = map[string]any{"raw": string(raw)}
	}
	return resp.StatusCode, m, resp.Header
}

// Get fetches a path; returns status and body bytes.
func (c *C) Get(path string) (int, []byte) {
	resp, err := c.H.Get(base + path)
	if err != nil {
		return -1, []byte(err.Error())
	}
	defer resp.Body.Close()
	raw, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, raw
}

// WS opens a table's socket from the client's address with its cookies.
func (c *C) WS(ctx context.Context, table, token string) (*websocket.Conn, error) {
	u := base + "/api/tables/" + table + "/ws"
	if token != "" {
		u += "?token=" + token
	}
	conn, _, err := websocket.Dial(ctx, strings.Replace(u, "http", "ws", 1), &websocket.DialOptions{HTTPClient: c.H})
	if err == nil {
		conn.SetReadLimit(64 << 20)
	}
	return conn, err
}

func send(ctx context.Context, conn *websocket.Conn, v any) error {
	b, _ := json.Marshal(v)
	return conn.Write(ctx, websocket.MessageText, b)
}

func read(ctx context.Context, conn *websocket.Conn) (map[string]any, error) {
	_, b, err := conn.Read(ctx)
	if err != nil {
		return nil, err
	}
	var m map[string]any
	json.Unmarshal(b, &m)
	return m, nil
}

// ip builds 127.a.b.c.
func ip(a, b, c int) string { return fmt.Sprintf("127.%d.%d.%d", a, b, c) }

func pct(d []time.Duration, p float64) time.Duration {
	if len(d) == 0 {
		return 0
	}
	s := append([]time.Duration(nil), d...)
	sort.Slice(s, func(i, j int) bool { return s[i] < s[j] })
	i := int(float64(len(s)-1) * p)
	return s[i]
}

func rss(pid string) string {
	b, _ := os.ReadFile("/proc/" + pid + "/status")
	for _, l := range strings.Split(string(b), "\n") {
		if strings.HasPrefix(l, "VmRSS") {
			return strings.TrimSpace(strings.TrimPrefix(l, "VmRSS:"))
		}
	}
	return "?"
}

func str(v any) string { s, _ := v.(string); return s }
func num(v any) int    { f, _ := v.(float64); return int(f) }

// Seat plays a seat: reads states and sends the first legal move when it
// is the seat's turn, until over or ctx ends. It returns moves sent.
type Seat struct {
	Conn *websocket.Conn
	Seat int
}

// playUntil plays legal[0] whenever asked until status over or deadline
func playUntil(ctx context.Context, conn *websocket.Conn, stop func(m map[string]any) bool) (int, error) {
	moves := 0
	for {
		m, err := read(ctx, conn)
		if err != nil {
			return moves, err
		}
		if stop != nil && stop(m) {
			return moves, nil
		}
		if str(m["type"]) == "state" {
			if str(m["status"]) == "over" {
				return moves, nil
			}
			legal, _ := m["legal"].([]any)
			if len(legal) > 0 {
				send(ctx, conn, map[string]any{"type": "move", "move": legal[0], "n": m["n"]})
				moves++
			}
		}
	}
}

func main() {
	if len(os.Args) < 2 {
		fmt.Println("usage: attack <name> ...")
		os.Exit(2)
	}
	f, ok := attacks[os.Args[1]]
	if !ok {
		fmt.Println("no such attack")
		os.Exit(2)
	}
	f(os.Args[2:])
}

var attacks = map[string]func([]string){}
