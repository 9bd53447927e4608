package game

import (
	"encoding/json"
	"iter"
	"math/bits"
)

// Seats is a set of seats, one bit per seat, plus one bit for spectators.
// It says who must act (State.ToMove) and who may see an event (Event.To).
type Seats uint16

const spectatorBit Seats = 1 << 15

// Public is the audience of an event everyone may see, spectators included.
const Public Seats = ^Seats(0)

// Only is the set holding seat s alone.
func Only(s Seat) Seats { return Seats(0).With(s) }

// With returns the set with s added.
func (a Seats) With(s Seat) Seats {
	if s == Spectator {
		return a | spectatorBit
	}
	return a | 1<<uint(s)
}

// Has reports whether s is in the set. Spectator is in it only for events
// meant for everyone.
func (a Seats) Has(s Seat) bool {
	if s == Spectator {
		return a&spectatorBit != 0
	}
	return s >= 0 && s < MaxPlayers && a&(1<<uint(s)) != 0
}

// Len counts the player seats in the set (spectators not counted).
func (a Seats) Len() int { return bits.OnesCount16(uint16(a &^ spectatorBit & (1<<MaxPlayers - 1))) }

// Empty reports whether no seat is in the set.
func (a Seats) Empty() bool { return a&(1<<MaxPlayers-1) == 0 }

// First returns the lowest seat in the set, or Spectator if it has none.
func (a Seats) First() Seat {
	if a.Empty() {
		return Spectator
	}
	return Seat(bits.TrailingZeros16(uint16(a)))
}

// List returns the player seats in increasing order.
func (a Seats) List() []Seat { return a.AppendTo([]Seat{}) }

// All yields the player seats in increasing order, without allocating
// (List makes a slice: a table looks at who is to move after every move).
func (a Seats) All() iter.Seq[Seat] {
	return func(yield func(Seat) bool) {
		for b := uint16(a &^ spectatorBit & (1<<MaxPlayers - 1)); b != 0; b &= b - 1 {
			if !yield(Seat(bits.TrailingZeros16(b))) {
				return
			}
		}
	}
}

// AppendTo appends the player seats in increasing order to buf.
func (a Seats) AppendTo(buf []Seat) []Seat {
	for s := Seat(0); s < MaxPlayers; s++ {
		if a.Has(s) {
			buf = append(buf, s)
		}
	}
	return buf
}

// MarshalJSON encodes the set as a list of seats.
func (a Seats) MarshalJSON() ([]byte, error) { return json.Marshal(a.List()) }

// Nth returns the i-th player seat of the set in increasing order, without
// allocating; i must be below Len.
func (a Seats) Nth(i int) Seat {
	for s := Seat(0); s < MaxPlayers; s++ {
		if a.Has(s) {
			if i == 0 {
				return s
			}
			i--
		}
	}
	panic("game: Seats.Nth out of range")
}
