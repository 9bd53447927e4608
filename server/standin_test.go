package server_test

import (
	"context"
	"slices"
	"testing"
	"time"

	"tapis/game"
	"tapis/store"
)

func storedMoves(t *testing.T, h *harness, table string) []store.Move {
	t.Helper()
	sv, err := h.store.Load(context.Background(), table)
	if err != nil || sv.Match == nil {
		t.Fatalf("load %s: %v", table, err)
	}
	return sv.Match.Moves
}

// movesBy counts the moves of seat s among moves.
func movesBy(moves []store.Move, s game.Seat) int {
	n := 0
	for _, m := range moves {
		if game.Seat(m.Seat) == s {
			n++
		}
	}
	return n
}

// leaveMidGame seats Ann at a Cabo table against a random bot, with a
// spectator; Ann plays a few moves, then closes her connection. It returns
// her seat, the spectator (having read up to the table message that shows
// her gone) and the last state it was sent before: where she left.
func leaveMidGame(t *testing.T, h *harness) (seatResp, *client, infoMsg) {
	t.Helper()
	a := h.create("cabo", []string{"", "random"}, "Ann", "")
	spec := h.dial(a.Table, "")
	c := h.dial(a.Table, a.Token)
	if m, err := playRandom(c, a.Seat, 1, 4); err != nil || m.Status != "playing" {
		t.Fatalf("before Ann leaves: %v, %+v", err, m)
	}
	c.ws.CloseNow()
	<-c.done
	// The spectator is told every move and change in order: the last
	// state before the message showing Ann gone is where she left.
	var last infoMsg
	here := false
	spec.watch("Ann shown gone", func(m infoMsg) bool {
		if m.Type == "state" {
			last = m
		}
		s, ok := m.seat(a.Seat)
		if ok && s.Connected {
			here = true
		}
		return here && ok && !s.Connected
	})
	return a, spec, last
}

// An absent player's seat is played by a stand-in once the grace period
// is over: the match goes on to its end, the stand-in's moves are stored
// like anyone's, and the table's info says a stand-in plays.
func TestStandinFinishesMatch(t *testing.T) {
	cfg := testConfig()
	cfg.AwayAfter, cfg.BotDelay = 50*time.Millisecond, time.Millisecond
	h := newHarness(t, cfg)
	a, spec, left := leaveMidGame(t, h)
	shown, played := false, 0
	spec.watch("the end of the match", func(m infoMsg) bool {
		if s, ok := m.seat(a.Seat); ok && s.Standin {
			shown = true
		}
		if m.Type == "state" && m.By == a.Seat {
			played++
		}
		return m.Type == "state" && m.Status == "over"
	})
	if !shown || played == 0 {
		t.Fatalf("stand-in shown: %v; moves for Ann after she left: %d", shown, played)
	}
	moves := storedMoves(t, h, a.Table)
	if got := movesBy(moves[left.N:], a.Seat); got != played {
		t.Fatalf("%d moves for Ann stored after she left, %d told", got, played)
	}
	t.Logf("the stand-in made %d of the %d moves after Ann left at move %d", played, len(moves)-left.N, left.N)
}

// A player who comes back takes the seat back at once: the stand-in stops,
// even in the middle of its thinking, and the table waits for the player.
func TestStandinStopsWhenPlayerReturns(t *testing.T) {
	const delay = 300 * time.Millisecond
	cfg := testConfig()
	// A long BotDelay: the stand-in is likely still thinking when Ann
	// comes back, and its late move must then be dropped.
	cfg.AwayAfter, cfg.BotDelay = 200*time.Millisecond, delay
	h := newHarness(t, cfg)
	a, spec, _ := leaveMidGame(t, h)
	spec.watch("a stand-in for Ann", func(m infoMsg) bool {
		s, ok := m.seat(a.Seat)
		return ok && s.Standin
	})
	c := h.dial(a.Table, a.Token)
	if s, _ := c.watch("welcome", func(m infoMsg) bool { return m.Type == "welcome" }).seat(a.Seat); s.Standin || !s.Connected {
		t.Fatalf("Ann is back, and her seat shows %+v", s)
	}
	if s, _ := spec.watch("Ann back", func(m infoMsg) bool { s, ok := m.seat(a.Seat); return ok && s.Connected }).seat(a.Seat); s.Standin {
		t.Fatalf("Ann is back, and others see %+v", s)
	}
	noneForAnn := func(m infoMsg) {
		if m.Type == "state" && m.By == a.Seat {
			t.Fatalf("move %d was made for Ann after she came back", m.N)
		}
	}
	// Ann alone to move: nothing may happen until she does.
	turn := c.watch("Ann's turn", func(m infoMsg) bool {
		noneForAnn(m)
		return m.Type == "state" && slices.Equal(m.ToMove, []game.Seat{a.Seat})
	})
	c.quiet(4*delay, noneForAnn)
	if n := len(storedMoves(t, h, a.Table)); n != turn.N {
		t.Fatalf("%d moves stored while the table waited for Ann at move %d", n, turn.N)
	}
	c.send(map[string]any{"type": "move", "move": turn.Legal[0]})
	if m := c.watch("Ann's move", func(m infoMsg) bool { return m.Type == "state" || m.Type == "error" }); m.Type != "state" || m.By != a.Seat || m.N != turn.N+1 {
		t.Fatalf("Ann's own move: %+v", m)
	}
}

// A player who is connected is never played for, however long they think.
func TestStandinNeverForConnected(t *testing.T) {
	const away = 50 * time.Millisecond
	cfg := testConfig()
	cfg.AwayAfter = away
	h := newHarness(t, cfg)
	a := h.create("cabo", []string{"", "random"}, "Ann", "")
	c := h.dial(a.Table, a.Token)
	turn := c.watch("Ann's turn", func(m infoMsg) bool { return m.Type == "state" && slices.Contains(m.ToMove, a.Seat) })
	c.quiet(20*away, func(m infoMsg) {
		if s, ok := m.seat(a.Seat); (ok && s.Standin) || (m.Type == "state" && m.By == a.Seat) {
			t.Fatalf("Ann is connected, and a stand-in played for her: %+v", m)
		}
	})
	if moves := storedMoves(t, h, a.Table); movesBy(moves, a.Seat) != 0 {
		t.Fatalf("moves stored for Ann, who has not moved: %+v", moves)
	}
	c.send(map[string]any{"type": "move", "move": turn.Legal[0]})
	if m := c.watch("Ann's move", func(m infoMsg) bool { return m.Type == "state" && m.By == a.Seat }); m.N <= turn.N {
		t.Fatalf("Ann's move came back as move %d", m.N)
	}
}

// With a negative AwayAfter, an absent seat waits for its player.
func TestStandinNever(t *testing.T) {
	cfg := testConfig()
	cfg.AwayAfter = -1
	h := newHarness(t, cfg)
	a, spec, last := leaveMidGame(t, h)
	left := last.N
	spec.quiet(time.Second, func(m infoMsg) {
		if s, ok := m.seat(a.Seat); (ok && s.Standin) || (m.Type == "state" && m.By == a.Seat) {
			t.Fatalf("a stand-in played for Ann: %+v", m)
		}
		if m.Type == "state" {
			last = m
		}
	})
	// The bot may have finished its turn; then the table waits for Ann.
	moves := storedMoves(t, h, a.Table)
	if movesBy(moves[left:], a.Seat) != 0 {
		t.Fatal("moves were stored for Ann while she was away")
	}
	if !slices.Contains(last.ToMove, a.Seat) {
		t.Fatalf("the table is not waiting for Ann: %+v", last)
	}
}

// A new match starts without stand-ins; a seat still absent gets one
// again once the grace period is over.
func TestStandinPlayAgain(t *testing.T) {
	cfg := testConfig()
	cfg.AwayAfter = 50 * time.Millisecond
	h := newHarness(t, cfg)
	a := h.create("cabo", []string{"", "", "random"}, "Ann", "")
	b := h.join(a.Table, "Bob")
	ca, cb := h.dial(a.Table, a.Token), h.dial(a.Table, b.Token)
	ca.ws.CloseNow()
	<-ca.done
	if m, err := playRandom(cb, b.Seat, 1, 1<<30); err != nil || m.Status != "over" {
		t.Fatalf("the first match: %v, %+v", err, m)
	}
	if movesBy(storedMoves(t, h, a.Table), a.Seat) == 0 {
		t.Fatal("nobody played for Ann in the first match")
	}
	cb.send(`{"type":"again"}`)
	m := cb.watch("the second match", func(m infoMsg) bool { return m.Type == "table" && m.Table.Match == 2 })
	if s, _ := m.seat(a.Seat); s.Standin {
		t.Fatal("the second match began with a stand-in for Ann")
	}
	cb.watch("a stand-in for Ann again", func(m infoMsg) bool {
		s, ok := m.seat(a.Seat)
		return ok && s.Standin && m.Table.Match == 2
	})
}

// After a restart, a seat nobody comes back to is played for once the
// grace period, counted from the restart, is over.
func TestStandinAfterRestart(t *testing.T) {
	const away = 500 * time.Millisecond
	cfg := testConfig()
	h1 := newHarness(t, cfg)
	a := h1.create("cabo", []string{"", "random"}, "Ann", "")
	c := h1.dial(a.Table, a.Token)
	if m, err := playRandom(c, a.Seat, 1, 4); err != nil || m.Status != "playing" {
		t.Fatalf("before the restart: %v, %+v", err, m)
	}
	h1.stop()

	cfg.Store, cfg.AwayAfter = h1.store, away
	loaded := time.Now()
	h2 := newHarness(t, cfg)
	spec := h2.dial(a.Table, "")
	spec.watch("a stand-in for Ann", func(m infoMsg) bool {
		s, ok := m.seat(a.Seat)
		return ok && s.Standin
	})
	if since := time.Since(loaded); since < away {
		t.Fatalf("a stand-in played for Ann %v after the restart, before the grace period", since)
	}
	spec.watch("the end of the match", func(m infoMsg) bool { return m.Type == "state" && m.Status == "over" })
}
