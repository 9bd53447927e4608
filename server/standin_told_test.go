package server_test

import (
	"testing"
	"time"
)

// Finding 15: a returning player was not told that a stand-in played for
// them: their log said "(you) drew a card…" for the stand-in's moves,
// with no "away" or "back" line. Now every state after a stand-in's move
// says so ("standin": true), to everyone, and the player who comes back is
// sent what was played for them: a "standin_moves" message with the number
// of moves and their events, which their page shows as "While you were
// away, 3 moves were played for you: …".
func TestStandinMovesAreTold(t *testing.T) {
	cfg := testConfig()
	cfg.AwayAfter, cfg.BotDelay = 50*time.Millisecond, 30*time.Millisecond
	h := newHarness(t, cfg)
	a, spec, _ := leaveMidGame(t, h)
	played := 0
	// The spectator sees the stand-in's moves marked as its, and the
	// random bot's (a bot seat, not a stand-in) not.
	check := func(m infoMsg) {
		if m.Type != "state" || m.By < 0 {
			return
		}
		if m.Standin != (m.By == a.Seat) {
			t.Fatalf("a move by seat %d (Ann's is %d) is told with standin %v", m.By, a.Seat, m.Standin)
		}
		if m.By == a.Seat {
			played++
		}
	}
	spec.watch("three moves of the stand-in", func(m infoMsg) bool {
		check(m)
		return played >= 3 || m.Status == "over"
	})
	ann := h.dial(a.Table, a.Token)
	// Up to Ann's return, in the order the table did things.
	spec.watch("Ann back", func(m infoMsg) bool {
		check(m)
		s, ok := m.seat(a.Seat)
		return ok && s.Connected
	})
	told := ann.watch("what was played for Ann", func(m infoMsg) bool {
		if m.Type == "state" && m.By >= 0 {
			t.Fatalf("a state by seat %d came before Ann was told what was played for her", m.By)
		}
		return m.Type == "standin_moves"
	})
	if told.Seat != a.Seat || told.Moves != played || len(told.Events) < played {
		t.Fatalf("Ann was told of %d moves for seat %d with %d events; the stand-in made %d",
			told.Moves, told.Seat, len(told.Events), played)
	}
	// Told once: her second connection (a second tab) is told nothing.
	again := h.dial(a.Table, a.Token)
	again.watch("the state", func(m infoMsg) bool { return m.Type == "state" })
	again.quiet(200*time.Millisecond, func(m infoMsg) {
		if m.Type == "standin_moves" {
			t.Fatalf("Ann was told again of %d moves", m.Moves)
		}
	})
}
