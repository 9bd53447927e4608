package server_test

import (
	"testing"
	"time"
)

// presenceWait is how long these tests wait for what must come: far more
// than it takes, so that a loaded machine does not fail them.
const presenceWait = 60 * time.Second

// within is watch with a ceiling of d.
func (c *client) within(d time.Duration, what string, f func(infoMsg) bool) infoMsg {
	c.t.Helper()
	deadline := time.Now().Add(d)
	for {
		m, ok := c.read(time.Until(deadline))
		if !ok {
			c.t.Fatalf("no %s in %v", what, d)
		}
		if f(m) {
			return m
		}
	}
}

// ready returns a message c has received, if there is one, without
// waiting.
func (c *client) ready() (infoMsg, bool) {
	c.t.Helper()
	select {
	case b, ok := <-c.msgs:
		return c.decode(b, ok), true
	default:
		return infoMsg{}, false
	}
}

// A connection that sends nothing for Config.Presence is gone, as a tab
// frozen in the back/forward cache is: the server closes it and the other
// players see its seat without a connection. One that pings more often
// than that stays, however long.
func TestPresence(t *testing.T) {
	const presence = 500 * time.Millisecond
	cfg := testConfig()
	cfg.Presence = presence
	// No stand-in: the test looks at connections only.
	cfg.AwayAfter = -1
	h := newHarness(t, cfg)
	a := h.create("cabo", []string{"", ""}, "Ann", "")
	b := h.join(a.Table, "Bob")

	// Bob pings ten times per presence period, from the start.
	bob := h.dial(a.Table, b.Token)
	stop, stopped := make(chan struct{}), make(chan struct{})
	go func() {
		defer close(stopped)
		tick := time.NewTicker(presence / 10)
		defer tick.Stop()
		for {
			select {
			case <-stop:
				return
			case <-tick.C:
				if bob.sendE(map[string]string{"type": "ping"}) != nil {
					return
				}
			}
		}
	}()
	defer func() { close(stop); <-stopped }()
	seats := func(m infoMsg) (ann, bob seatView, ok bool) {
		ann, ok = m.seat(a.Seat)
		bob, _ = m.seat(b.Seat)
		return ann, bob, ok
	}

	// Ann connects and says nothing.
	dialed := time.Now()
	ann := h.dial(a.Table, a.Token)
	bob.within(presenceWait, "Ann connected", func(m infoMsg) bool {
		s, _, ok := seats(m)
		return ok && s.Connected
	})
	gone := bob.within(presenceWait, "Ann's seat without a connection", func(m infoMsg) bool {
		s, _, ok := seats(m)
		return ok && !s.Connected
	})
	if _, s, _ := seats(gone); !s.Connected {
		t.Fatal("Bob, who pings, is shown without a connection too")
	}
	select {
	case <-ann.done:
	case <-time.After(presenceWait):
		t.Fatalf("Ann's connection is still open %v after she went silent", presenceWait)
	}
	if d := time.Since(dialed); d < presence {
		t.Fatalf("Ann was dropped after %v, before %v of silence", d, presence)
	}

	// Bob stays: for many presence periods nothing shows him gone, and
	// his pings are answered still.
	bob.quiet(6*presence, func(m infoMsg) {
		if _, s, ok := seats(m); ok && !s.Connected {
			t.Fatalf("Bob, who pings every %v, was dropped", presence/10)
		}
	})
	select {
	case <-bob.done:
		t.Fatal("Bob's connection was closed")
	default:
	}
	bob.within(presenceWait, "an answer to Bob's ping", func(m infoMsg) bool { return m.Type == "pong" })
}
