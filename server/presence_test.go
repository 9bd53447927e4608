package server_test

import (
	"testing"
	"time"
)

// Finding 14: a bot played a present player's seat. The player's tab was
// in the background, where Chrome runs timers once a minute; the page's
// heartbeat (every 15 s from setInterval) came too seldom for the server's
// 40 s of silence, and the stand-in played two whole rounds of Cabo for
// them. Presence is now the socket's own liveness: a connection that
// answers the server's pings is present however long it sends nothing.
// Here Ann's client answers pings (its reader runs) but sends nothing for
// 10 presence periods, her turn at a table without a time per move: her
// seat stays connected and no stand-in moves for her. (The old code closed
// her socket after one presence period and the stand-in came.)
func TestPresenceIsAnsweringPings(t *testing.T) {
	// A presence period long enough that a loaded machine's scheduling
	// delays (hundreds of ms seen on shared CI, over a second at a load of
	// 20 on 2 cores) never look like silence.
	const presence = 2 * time.Second
	cfg := testConfig()
	cfg.Ping = presence / 3
	cfg.Presence = presence
	cfg.AwayAfter = presence
	h := newHarness(t, cfg)
	a := h.create("cabo", []string{"", "random"}, "Ann", "")
	spec := h.dial(a.Table, "")
	ann := h.dial(a.Table, a.Token)
	spec.within(presenceWait, "Ann connected, her move awaited", func(m infoMsg) bool {
		s, ok := m.seat(a.Seat)
		return ok && s.Connected
	})
	spec.quiet(10*presence, func(m infoMsg) {
		if s, ok := m.seat(a.Seat); ok && (!s.Connected || s.Standin) {
			t.Fatalf("Ann, whose socket answers pings, was taken as gone: %+v", s)
		}
		if m.Type == "state" && m.By == a.Seat {
			t.Fatal("a move was played for Ann, who is there")
		}
	})
	select {
	case <-ann.done:
		t.Fatal("Ann's connection was closed")
	default:
	}
	// The old heartbeat is still answered, though no longer needed.
	ann.send(map[string]string{"type": "ping"})
	ann.within(presenceWait, "an answer to Ann's ping", func(m infoMsg) bool { return m.Type == "pong" })
}
