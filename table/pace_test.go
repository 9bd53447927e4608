package table

import (
	"testing"
	"time"

	"tapis/game"
)

// Issue 26: the bots of a table wait the server's delay at the slowest
// pace its seated people asked for; a spectator's pace changes nothing,
// and a table with nobody seated plays at the normal pace.
func TestBotDelayFollowsTheSlowestSeatedPace(t *testing.T) {
	at := func(seat game.Seat, p string) *conn {
		c := &conn{seat: seat}
		if p != "" {
			var ok bool
			if c.pace, ok = paceNamed(p); !ok {
				t.Fatalf("pace %q not known", p)
			}
		}
		return c
	}
	for _, tc := range []struct {
		name  string
		conns []*conn
		want  time.Duration
	}{
		{"nobody", nil, 800 * time.Millisecond},
		{"one person, fast", []*conn{at(0, "fast")}, 200 * time.Millisecond},
		{"one person, slow", []*conn{at(0, "slow")}, 1600 * time.Millisecond},
		{"one person who never said", []*conn{at(0, "")}, 800 * time.Millisecond},
		{"a fast person and a slow spectator", []*conn{at(0, "fast"), at(game.Spectator, "slow")}, 200 * time.Millisecond},
		{"only a fast spectator", []*conn{at(game.Spectator, "fast")}, 800 * time.Millisecond},
		{"a fast person and a normal one", []*conn{at(0, "fast"), at(1, "normal")}, 800 * time.Millisecond},
		{"fast, and slow on a second device", []*conn{at(0, "fast"), at(1, "fast"), at(1, "slow")}, 1600 * time.Millisecond},
	} {
		tb := &table{srv: &Host{cfg: Config{BotDelay: 800 * time.Millisecond}}, conns: map[*conn]struct{}{}}
		for _, c := range tc.conns {
			tb.conns[c] = struct{}{}
		}
		if got := tb.botDelay(); got != tc.want {
			t.Errorf("%s: the bots wait %v, want %v", tc.name, got, tc.want)
		}
	}
	if _, ok := paceNamed("warp"); ok {
		t.Error(`pace "warp" is taken`)
	}
	// A server without a bot delay has none at any pace.
	tb := &table{srv: &Host{cfg: Config{BotDelay: -1}}, conns: map[*conn]struct{}{at(0, "slow"): {}}}
	if got := tb.botDelay(); got != 0 {
		t.Errorf("no delay, slow: the bots wait %v", got)
	}
}
