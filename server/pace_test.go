package server_test

import (
	"net/http"
	"testing"
)

// Issue 26: a connection tells the table the pace its person wants the
// bots to play at: "slow", "normal" or "fast", answered with nothing;
// any other pace is refused as bad_message. (What the pace does to the
// bots' delay is table/pace_test.go's; the browser's, web/browser's.)
func TestPaceMessage(t *testing.T) {
	h := newHarness(t, testConfig())
	ada, _ := signedUp(h, "Ada", "")
	var tab seatResp
	ada.must(http.StatusCreated, "POST", "/api/tables", map[string]any{"game": "cabo", "players": 2, "bots": []string{"", "random"}}, &tab)
	c := ada.dial(tab.Table)
	c.next("welcome")
	if code := refusedAs(c, map[string]any{"type": "pace", "pace": "warp"}); code != "bad_message" {
		t.Fatalf("pace warp: %q, want bad_message", code)
	}
	for _, p := range []string{"slow", "normal", "fast"} {
		c.send(map[string]any{"type": "pace", "pace": p})
	}
	c.send(map[string]any{"type": "ping"})
	if m := c.next("error", "pong"); m.Type != "pong" {
		t.Fatalf("the paces were answered with %+v", m)
	}
}
