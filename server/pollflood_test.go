package server_test

import (
	"context"
	"testing"
	"time"

	"github.com/coder/websocket"
)

// A client that writes far faster than its pace lets the table take its
// messages is cut off once its queue on the server is full (64 KB), with
// a close that says why, rather than holding the server's memory: the
// table plays on for the others, and the seat's next socket is welcome.
func TestFloodBeyondTheQueueIsCut(t *testing.T) {
	cfg := testConfig()
	// The event loop's (the default): a socket read by a goroutine is
	// not read past its pace.
	cfg.Rate, cfg.Burst = 10, 1
	h := newHarness(t, cfg)
	a := h.create("cabo", []string{"", "random"}, "Ann", "")
	spec := h.dial(a.Table, "")
	spec.next("state")
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	ws, _, err := websocket.Dial(ctx, h.s.WS(a.Table)+"?token="+a.Token, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer ws.CloseNow()
	ended := make(chan error, 1)
	go func() {
		for {
			if _, _, err := ws.Read(ctx); err != nil {
				ended <- err
				return
			}
		}
	}()
	// 100 KB of pings, written without waiting for answers: at 10 a
	// second the table takes a handful of them meanwhile.
	ping := []byte(`{"type":"ping"}`)
	for i := 0; i < 100<<10/len(ping); i++ {
		if ws.Write(ctx, websocket.MessageText, ping) != nil {
			break
		}
	}
	if err := <-ended; websocket.CloseStatus(err) != websocket.StatusPolicyViolation {
		t.Fatalf("the flooder's socket ended with %v, not a policy violation", err)
	}
	// The spectator is still served, and Ann may come back.
	spec.send(`{"type":"ping"}`)
	spec.next("pong")
	again := h.dial(a.Table, a.Token)
	again.next("state")
}
