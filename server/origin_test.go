package server_test

import (
	"context"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/coder/websocket"
)

// A page of another site may not open a table's WebSocket (it would play
// with the seat's token the browser gives it); the server's own pages
// may, and so may the origins the configuration allows.
func TestWebSocketOrigins(t *testing.T) {
	for _, noPoll := range []bool{false, true} {
		cfg := testConfig()
		cfg.OriginPatterns = []string{"friends.example"}
		cfg.NoPoll = noPoll
		checkOrigins(t, newHarness(t, cfg))
	}
}

func checkOrigins(t *testing.T, h *harness) {
	a := h.create("cabo", []string{"", "random"}, "Ann", "")
	url := "ws" + strings.TrimPrefix(h.hs.URL, "http") + "/api/tables/" + a.Table + "/ws?token=" + a.Token
	for _, c := range []struct {
		origin string
		ok     bool
	}{
		{"https://evil.example", false},
		{"http://friends.example.evil", false},
		{"", true},
		{h.hs.URL, true},
		{"https://friends.example", true},
	} {
		hdr := http.Header{}
		if c.origin != "" {
			hdr.Set("Origin", c.origin)
		}
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		ws, resp, err := websocket.Dial(ctx, url, &websocket.DialOptions{HTTPHeader: hdr})
		cancel()
		switch {
		case c.ok && err != nil:
			t.Errorf("origin %q refused: %v", c.origin, err)
		case !c.ok && (err == nil || resp == nil || resp.StatusCode != http.StatusForbidden):
			t.Errorf("origin %q: want 403, got %v %v", c.origin, resp, err)
		}
		if ws != nil {
			ws.Close(websocket.StatusNormalClosure, "")
		}
	}
}
