package servertest

import (
	"encoding/json"
	"fmt"
	"time"

	"tapis/game"
)

// SeatView is a seat as a table's info shows it.
type SeatView struct {
	Name      string `json:"name"`
	Free      bool   `json:"free"`
	Connected bool   `json:"connected"`
	Standin   bool   `json:"standin"`
}

// TableMsg is a server message read with its table's seats and time per
// move ("welcome" and "table") or its move and the time left ("state").
type TableMsg struct {
	Type     string            `json:"type"`
	N        int               `json:"n"`
	By       game.Seat         `json:"by"`
	Status   string            `json:"status"`
	ToMove   []game.Seat       `json:"to_move"`
	Legal    []json.RawMessage `json:"legal"`
	TurnLeft map[string]int64  `json:"turn_left_ms"`
	// Standin marks a state after a stand-in's move; Seat, Moves and
	// Events are a "standin_moves" message's.
	Standin bool              `json:"standin"`
	Seat    game.Seat         `json:"seat"`
	Moves   int               `json:"moves"`
	Events  []json.RawMessage `json:"events"`
	Table   struct {
		Match       int        `json:"match"`
		TurnSeconds int        `json:"turn_seconds"`
		Seats       []SeatView `json:"seats"`
	} `json:"table"`
}

// SeatAt returns seat s of a "welcome" or "table" message, and whether the
// message is one.
func (m TableMsg) SeatAt(s game.Seat) (SeatView, bool) {
	if (m.Type != "welcome" && m.Type != "table") || int(s) >= len(m.Table.Seats) {
		return SeatView{}, false
	}
	return m.Table.Seats[s], true
}

// Read returns c's next message, or false once d has passed.
func (c *Client) Read(d time.Duration) (TableMsg, bool) {
	c.t.Helper()
	select {
	case b, ok := <-c.msgs:
		return c.decode(b, ok), true
	case <-time.After(d):
		return TableMsg{}, false
	}
}

// Ready returns a message c has received, if there is one, without
// waiting.
func (c *Client) Ready() (TableMsg, bool) {
	c.t.Helper()
	select {
	case b, ok := <-c.msgs:
		return c.decode(b, ok), true
	default:
		return TableMsg{}, false
	}
}

// decode reads a message taken from c.msgs (ok false: none, closed).
func (c *Client) decode(b []byte, ok bool) TableMsg {
	c.t.Helper()
	if !ok {
		c.t.Fatal("the connection closed")
	}
	var m TableMsg
	if err := json.Unmarshal(b, &m); err != nil {
		c.t.Fatalf("bad message %s: %v", b, err)
	}
	return m
}

// Watch reads c's messages, handing each to f, until f returns true; it
// fails the test if that takes 20s.
func (c *Client) Watch(what string, f func(TableMsg) bool) TableMsg {
	c.t.Helper()
	deadline := time.Now().Add(20 * time.Second)
	for {
		m, ok := c.Read(time.Until(deadline))
		if !ok {
			c.t.Fatalf("no %s in 20s", what)
		}
		if f(m) {
			return m
		}
	}
}

// Within is Watch with a ceiling of d.
func (c *Client) Within(d time.Duration, what string, f func(TableMsg) bool) TableMsg {
	c.t.Helper()
	deadline := time.Now().Add(d)
	for {
		m, ok := c.Read(time.Until(deadline))
		if !ok {
			c.t.Fatalf("no %s in %v", what, d)
		}
		if f(m) {
			return m
		}
	}
}

// Quiet hands f every message c receives for d: the time a thing that
// must not happen is given to happen.
func (c *Client) Quiet(d time.Duration, f func(TableMsg)) {
	c.t.Helper()
	for end := time.Now().Add(d); ; {
		m, ok := c.Read(time.Until(end))
		if !ok {
			return
		}
		f(m)
	}
}

// Sheet is the part of a "state" message the score sheet reads.
type Sheet struct {
	Type   string      `json:"type"`
	N      int         `json:"n"`
	By     game.Seat   `json:"by"`
	Status string      `json:"status"`
	ToMove []game.Seat `json:"to_move"`
	Legal  []json.RawMessage
	Result game.Result `json:"result"`
	Rounds [][]int     `json:"rounds"`
}

// NextSheet returns c's next "state" message, failing on an "error". It
// may run on any goroutine.
func (c *Client) NextSheet() (Sheet, error) {
	timeout := time.After(20 * time.Second)
	for {
		select {
		case b, ok := <-c.msgs:
			if !ok {
				return Sheet{}, fmt.Errorf("connection closed")
			}
			var s Sheet
			if err := json.Unmarshal(b, &s); err != nil {
				return s, err
			}
			switch s.Type {
			case "state":
				return s, nil
			case "error":
				return s, fmt.Errorf("error: %s", b)
			}
		case <-timeout:
			return Sheet{}, fmt.Errorf("no state in 20s")
		}
	}
}
