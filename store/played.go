package store

import (
	"cmp"
	"context"
	"math"
	"slices"
	"time"
)

// Played is one finished match a player sat in: a line of their "My
// games" (package history), rated or not, public or not.
type Played struct {
	Table   string
	No      int
	Game    string
	Players int
	// Created is when the table was created: a match keeps no time of
	// its own, and its table's is the order of the list.
	Created time.Time
	Rated   bool
	Public  bool
	// Seat is the player's seat (the lowest, should they hold two).
	Seat int
}

// PlayedCursor is where a page of a player's matches starts: after the
// match it names, in the list's order (newest table first, then table id
// and match number, both descending). The zero cursor starts at the
// newest.
type PlayedCursor struct {
	Created time.Time
	Table   string
	No      int
}

// Cursor is the cursor that starts the page after p.
func (p Played) Cursor() PlayedCursor {
	return PlayedCursor{Created: p.Created, Table: p.Table, No: p.No}
}

// Bounds returns the cursor as the SQL stores compare it: the creation
// in Unix milliseconds (the largest for the zero cursor, before every
// table), the table id and the match number.
func (c PlayedCursor) Bounds() (created int64, table string, no int) {
	if c.Created.IsZero() && c.Table == "" {
		return math.MaxInt64, "", 0
	}
	return c.Created.UnixMilli(), c.Table, c.No
}

// before reports whether p comes after the cursor c in the list.
func (c PlayedCursor) before(p Played) bool {
	ms, id, no := c.Bounds()
	if at := p.Created.UnixMilli(); at != ms {
		return at < ms
	}
	if p.Table != id {
		return p.Table < id
	}
	return p.No < no
}

// History lists the matches a player sat in.
type History interface {
	// PlayedMatches returns at most limit finished matches where player
	// holds a seat (one they left to a bot included: it was theirs),
	// after the cursor, newest first. A match not over is never listed;
	// a closed table's finished matches are.
	PlayedMatches(ctx context.Context, player string, after PlayedCursor, limit int) ([]Played, error)
}

// PlayedMatches implements History.
func (m *Memory) PlayedMatches(_ context.Context, player string, after PlayedCursor, limit int) ([]Played, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.closed {
		return nil, ErrClosed
	}
	var out []Played
	for id, t := range m.tables {
		seat := slices.IndexFunc(t.Seats, func(s Seat) bool { return s.Player == player })
		if player == "" || seat < 0 {
			continue
		}
		matches := append([]Match(nil), m.past[id]...)
		if t.Match != nil {
			matches = append(matches, *t.Match)
		}
		for _, mt := range matches {
			p := Played{Table: id, No: mt.No, Game: t.Game, Players: t.Players, Created: t.Created,
				Rated: t.Rated, Public: t.Public, Seat: seat}
			if mt.Over && after.before(p) {
				out = append(out, p)
			}
		}
	}
	slices.SortFunc(out, func(a, b Played) int {
		return cmp.Or(cmp.Compare(b.Created.UnixMilli(), a.Created.UnixMilli()), cmp.Compare(b.Table, a.Table), cmp.Compare(b.No, a.No))
	})
	return out[:min(len(out), max(limit, 0))], nil
}
