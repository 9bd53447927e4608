package server_test

import (
	"net/http"
	"slices"
	"strings"
	"testing"
	"time"

	"tapis/server/servertest"
)

// refused sends a seat_bot and waits for its error, which must have code.
func refused(t *testing.T, c *client, seat int, bot, code string) {
	t.Helper()
	c.send(map[string]any{"type": "seat_bot", "seat": seat, "bot": bot})
	if m := c.next("error"); m.Code != code {
		t.Fatalf("seat_bot seat %d %q: error %s (%s), want %s", seat, bot, m.Code, m.Error, code)
	}
}

// The host is the creator's seat. Only the host's connection may give a
// seat to a bot, and only a free seat or a gone guest's, to a bot level
// the server seats, while the match is not over; a free seat that fills
// the table starts the match.
func TestHostSeatsBotInFreeSeat(t *testing.T) {
	h := newHarness(t, testConfig())
	a := h.create("cabo", []string{"", "", ""}, "Ann", "")
	if in := h.info(a.Table); in.Host != 0 {
		t.Fatalf("host %d, want the creator's seat 0", in.Host)
	}
	ca := h.dial(a.Table, a.Token)
	ca.next("welcome")
	b := h.join(a.Table, "Bob")
	cb := h.dial(a.Table, b.Token)
	cb.next("welcome")
	spec := h.dial(a.Table, "")
	spec.next("welcome")
	refused(t, spec, 2, "normal", "not_host")
	refused(t, cb, 2, "normal", "not_host")
	refused(t, ca, 1, "normal", "seat_present") // Bob is connected
	refused(t, ca, 2, "cheat", "bad_bot")
	refused(t, ca, 2, "", "bad_bot")
	refused(t, ca, 7, "normal", "bad_message")
	if in := h.info(a.Table); in.Status != "waiting" || !in.Seats[2].Free {
		t.Fatalf("after the refusals: %+v", in)
	}
	ca.send(map[string]any{"type": "seat_bot", "seat": 2, "bot": "normal"})
	if st := ca.next("state", "error"); st.Type != "state" || st.Status != "playing" {
		t.Fatalf("the table filled by a bot did not start: %+v", st)
	}
	if in := h.info(a.Table); in.Seats[2].Bot != "normal" || in.Status != "playing" {
		t.Fatalf("seat 2 after seat_bot: %+v", in)
	}
	// Stored in the same write: the store has the bot and the match.
	sv, err := h.store.Load(t.Context(), a.Table)
	if err != nil || sv.Seats[2].Bot != "normal" || sv.Match == nil || sv.Host != 0 {
		t.Fatalf("stored: %+v %v", sv, err)
	}
	refused(t, ca, 2, "easy", "seat_bot_taken")
}

// Once the match is over, no seat is given away.
func TestHostSeatBotOver(t *testing.T) {
	h := newHarness(t, testConfig())
	a := h.create("cabo", []string{"", "random"}, "Ann", "")
	ca := h.dial(a.Table, a.Token)
	if last, err := playRandom(ca, a.Seat, 1, 1<<30); err != nil || last.Status != "over" {
		t.Fatalf("the match did not end: %+v %v", last, err)
	}
	refused(t, ca, 1, "normal", "over")
}

// A guest who has left (no connection for the grace period) is replaced
// by a bot of the host's choice, which plays the seat from then on, also
// after a restart; the guest's token no longer seats anyone.
func TestHostSeatsBotForGoneGuest(t *testing.T) {
	open := reopener(t)
	cfg := testConfig()
	cfg.Store = open()
	cfg.AwayAfter = 300 * time.Millisecond
	h1 := newHarness(t, cfg)
	a := h1.create("cabo", []string{"", "", "random"}, "Ann", "")
	b := h1.join(a.Table, "Bob")
	ca, cb := h1.dial(a.Table, a.Token), h1.dial(a.Table, b.Token)
	ca.next("welcome")
	cb.next("welcome")
	cb.ws.CloseNow()
	<-cb.done
	// Just gone: refused, then accepted once the grace period is over.
	refused(t, ca, 1, "normal", "seat_present")
	deadline := time.Now().Add(20 * time.Second)
	for {
		ca.send(map[string]any{"type": "seat_bot", "seat": 1, "bot": "easy"})
		m := ca.next("table", "error")
		if m.Type == "table" && h1.info(a.Table).Seats[1].Bot == "easy" {
			break
		}
		if m.Type == "error" && m.Code != "seat_present" {
			t.Fatalf("seat_bot for a gone guest: %s %s", m.Code, m.Error)
		}
		if time.Now().After(deadline) {
			t.Fatal("the gone guest's seat was never given to the bot")
		}
		// Wait for the table to move on (the seat's stand-in, the
		// bot seat's moves) rather than a fixed time.
		ca.next("state", "table")
	}
	// The messages waited on above were skipped: a fresh page reads the
	// table as it is now.
	ca.ws.CloseNow()
	ca = h1.dial(a.Table, a.Token)
	ca.next("welcome")
	if _, err := h1.tryDial(a.Table, b.Token); err == nil {
		t.Fatal("the gone guest's token still seats someone")
	}
	// The bot plays seat 1: Ann plays her moves, seat 1's come by themselves.
	byBot := func(c *client, seat int) {
		t.Helper()
		moves := 0
		for pending := false; moves < 2; {
			m := c.next("state", "error")
			if m.Type == "error" {
				t.Fatalf("error %s: %s", m.Code, m.Error)
			}
			if m.Status == "over" {
				t.Fatal("the match ended before the bot moved")
			}
			if m.By == 1 {
				moves++
			}
			if int(m.By) == seat {
				pending = false
			}
			if !pending && slices.Contains(m.ToMove, 0) && len(m.Legal) > 0 {
				pending = true
				c.send(map[string]any{"type": "move", "move": m.Legal[0]})
			}
		}
	}
	byBot(ca, 0)
	cfg.Store.Close()
	h1.stop()

	cfg2 := testConfig()
	cfg2.Store = open()
	t.Cleanup(func() { cfg2.Store.Close() })
	h2 := newHarness(t, cfg2)
	if in := h2.info(a.Table); in.Seats[1].Bot != "easy" || in.Host != 0 {
		t.Fatalf("after the restart: %+v", in)
	}
	if _, err := h2.tryDial(a.Table, b.Token); err == nil {
		t.Fatal("after the restart, the gone guest's token seats someone")
	}
	ca2 := h2.dial(a.Table, a.Token)
	ca2.next("welcome")
	byBot(ca2, 0)
}

// At a turn-based table a person is away between moves by design: the
// host may give a free seat to a bot, never a person's who left the page
// (issue 29: their seat is theirs until three timeouts in a row).
func TestHostKeepsTurnBasedSeat(t *testing.T) {
	cfg := testConfig()
	cfg.AwayAfter = time.Millisecond // no grace to wait for: only the pace refuses
	h := newHarness(t, cfg)
	var ann seatResp
	req := map[string]any{"game": "cabo", "players": 3, "bots": []string{"", "", ""}, "name": "Ann", "turn_based": true}
	if code := h.post("/api/tables", req, &ann); code != http.StatusCreated {
		t.Fatalf("create: %d", code)
	}
	bob := h.join(ann.Table, "Bob")
	ca, cb := h.dial(ann.Table, ann.Token), h.dial(ann.Table, bob.Token)
	ca.next("welcome")
	cb.next("welcome")
	cb.ws.CloseNow()
	<-cb.done
	ca.Within(servertest.Patience, "Bob shown gone", func(m servertest.TableMsg) bool {
		s, ok := m.SeatAt(bob.Seat)
		return ok && !s.Connected
	})
	ca.send(map[string]any{"type": "seat_bot", "seat": bob.Seat, "bot": "normal"})
	if m := ca.next("error"); m.Code != "seat_present" || !strings.Contains(m.Error, "played over days") {
		t.Fatalf("seat_bot for Bob's turn-based seat: error %s (%s), want seat_present for the pace", m.Code, m.Error)
	}
	if in := h.info(ann.Table); in.Seats[bob.Seat].Bot != "" {
		t.Fatalf("Bob's turn-based seat was given away: %+v", in.Seats[bob.Seat])
	}
	// A free seat is still the host's to fill.
	ca.send(map[string]any{"type": "seat_bot", "seat": 2, "bot": "normal"})
	if st := ca.next("state", "error"); st.Type != "state" || st.Status != "playing" {
		t.Fatalf("the turn-based table filled by a bot did not start: %+v", st)
	}
}
