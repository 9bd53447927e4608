package cabo

import (
	"encoding/json"
	"fmt"
	"math/bits"

	"tapis/game"
)

// Kind is what a move does.
type Kind uint8

// The moves of REPLAY.md, in the order of its table.
const (
	PeekInitial Kind = iota + 1
	TakeDiscard
	Draw
	Replace
	Discard
	Peek
	Spy
	Swap
	CallCabo
	kinds
)

var kindNames = [kinds]string{"", "peek_initial", "take_discard", "draw", "replace", "discard", "peek", "spy", "swap", "cabo"}

func (k Kind) String() string {
	if k >= kinds {
		return fmt.Sprintf("kind(%d)", k)
	}
	return kindNames[k]
}

// Slot names one seat's slot.
type Slot struct {
	Seat game.Seat `json:"seat"`
	Slot int       `json:"slot"`
}

// A Move packs into a game.Move as kind | slots<<8 | a<<16 | b<<24, where
// slots is a bit set of the actor's slots and a, b are Slots packed
// seat<<4|slot. A swap keeps a < b, so that each swap has one code.
type Move struct {
	Kind  Kind
	Slots uint8 // peek_initial, take_discard, replace
	A, B  Slot  // peek: A.Slot; spy: A; swap: A and B
}

// Pack returns the move's game.Move code.
func (m Move) Pack() game.Move {
	return game.Move(m.Kind) | game.Move(m.Slots)<<8 | packSlot(m.A)<<16 | packSlot(m.B)<<24
}

func packSlot(s Slot) game.Move { return game.Move(s.Seat)<<4 | game.Move(s.Slot) }

// Unpack decodes a game.Move; ok is false for a code no Cabo move has.
func Unpack(gm game.Move) (m Move, ok bool) {
	if !wellFormed(gm) {
		return m, false
	}
	return Move{Kind: kindOf(gm), Slots: slotsOf(gm), A: slotA(gm), B: slotB(gm)}, true
}

// The engine reads packed moves through these, never building a Move, so
// that Apply stays cheap.
func kindOf(gm game.Move) Kind   { return Kind(gm & 0xff) }
func slotsOf(gm game.Move) uint8 { return uint8(gm >> 8) }
func slotA(gm game.Move) Slot    { return Slot{game.Seat(gm >> 20 & 0xf), int(gm >> 16 & 0xf)} }
func slotB(gm game.Move) Slot    { return Slot{game.Seat(gm >> 28 & 0xf), int(gm >> 24 & 0xf)} }

// wellFormed reports whether gm is the one code of a Cabo move: arguments
// in range, and zero wherever the kind takes none.
func wellFormed(gm game.Move) bool {
	const (
		slotsBits = 0xff << 8
		aBits     = 0xff << 16
		bBits     = 0xff << 24
	)
	okSlot := func(x uint64) bool { return x&0xf < MaxSlots && x>>4 < MaxPlayers }
	a, b := uint64(gm>>16&0xff), uint64(gm>>24&0xff)
	switch kindOf(gm) {
	case PeekInitial, TakeDiscard, Replace:
		return gm&^(0xff|slotsBits) == 0 && slotsOf(gm) < 1<<MaxSlots
	case Draw, Discard, CallCabo:
		return gm&^0xff == 0
	case Peek:
		return gm&^(0xff|0xf<<16) == 0 && a < MaxSlots
	case Spy:
		return gm&^(0xff|aBits) == 0 && okSlot(a)
	case Swap:
		// a < b as packed seat<<4|slot, and two different seats.
		return gm&^(0xff|aBits|bBits) == 0 && okSlot(a) && okSlot(b) && a>>4 < b>>4
	}
	return false
}

func mk(k Kind) game.Move                  { return Move{Kind: k}.Pack() }
func mkSlots(k Kind, mask uint8) game.Move { return Move{Kind: k, Slots: mask}.Pack() }

func mkSwap(a, b Slot) game.Move {
	if b.Seat < a.Seat || b.Seat == a.Seat && b.Slot < a.Slot {
		a, b = b, a
	}
	return Move{Kind: Swap, A: a, B: b}.Pack()
}

// moveJSON is the wire form of every Cabo move (REPLAY.md).
type moveJSON struct {
	Type  string `json:"type"`
	Slots []int  `json:"slots,omitempty"`
	Slot  *int   `json:"slot,omitempty"`
	Seat  *int   `json:"seat,omitempty"`
	A     *Slot  `json:"a,omitempty"`
	B     *Slot  `json:"b,omitempty"`
}

// MarshalMove implements game.Game.
func (Game) MarshalMove(gm game.Move) ([]byte, error) {
	m, ok := Unpack(gm)
	if !ok {
		return nil, fmt.Errorf("cabo: %#x is not a move", uint64(gm))
	}
	j := moveJSON{Type: m.Kind.String()}
	switch m.Kind {
	case PeekInitial, TakeDiscard, Replace:
		j.Slots = maskSlots(m.Slots)
	case Peek:
		j.Slot = &m.A.Slot
	case Spy:
		seat := int(m.A.Seat)
		j.Seat, j.Slot = &seat, &m.A.Slot
	case Swap:
		j.A, j.B = &m.A, &m.B
	}
	return json.Marshal(j)
}

// UnmarshalMove implements game.Game.
func (Game) UnmarshalMove(data []byte) (game.Move, error) {
	var j moveJSON
	if err := game.DecodeStrict(data, &j); err != nil {
		return 0, deny("move", game.ReasonUnreadable, nil, "%v", err)
	}
	k := Kind(0)
	for i, name := range kindNames {
		if name == j.Type && i > 0 {
			k = Kind(i)
		}
	}
	if k == 0 {
		return 0, deny("move", game.ReasonBadMove, map[string]any{"type": j.Type}, "unknown type %q", j.Type)
	}
	need := func(ok bool, what string) error {
		if !ok {
			return deny(k.String(), game.ReasonBadFields, map[string]any{"type": k.String()}, "%s", what)
		}
		return nil
	}
	var err error
	switch k {
	case PeekInitial, TakeDiscard, Replace:
		if err = need(j.Slot == nil && j.Seat == nil && j.A == nil && j.B == nil, "takes only slots"); err != nil {
			return 0, err
		}
		mask, r := slotsMask(j.Slots)
		if r != nil {
			return 0, r.In("cabo", k.String())
		}
		if k != PeekInitial && mask == 0 {
			return 0, deny(k.String(), game.ReasonBadFields, map[string]any{"type": k.String()}, "no slot given")
		}
		return mkSlots(k, mask), nil
	case Draw, Discard, CallCabo:
		if err = need(j.Slots == nil && j.Slot == nil && j.Seat == nil && j.A == nil && j.B == nil, "takes no argument"); err != nil {
			return 0, err
		}
		return mk(k), nil
	case Peek:
		if err = need(j.Slot != nil && j.Slots == nil && j.Seat == nil && j.A == nil && j.B == nil, `takes "slot" only`); err != nil {
			return 0, err
		}
		if r := checkSlot(Slot{0, *j.Slot}); r != nil {
			return 0, r.In("cabo", "peek")
		}
		return Move{Kind: Peek, A: Slot{0, *j.Slot}}.Pack(), nil
	case Spy:
		if err = need(j.Slot != nil && j.Seat != nil && j.Slots == nil && j.A == nil && j.B == nil, `takes "seat" and "slot"`); err != nil {
			return 0, err
		}
		s := Slot{game.Seat(*j.Seat), *j.Slot}
		if r := checkSlot(s); r != nil {
			return 0, r.In("cabo", "spy")
		}
		return Move{Kind: Spy, A: s}.Pack(), nil
	default: // Swap
		if err = need(j.A != nil && j.B != nil && j.Slots == nil && j.Slot == nil && j.Seat == nil, `takes "a" and "b"`); err != nil {
			return 0, err
		}
		for _, s := range []Slot{*j.A, *j.B} {
			if r := checkSlot(s); r != nil {
				return 0, r.In("cabo", "swap")
			}
		}
		if j.A.Seat == j.B.Seat {
			return 0, deny("swap", reasonSwapTwo, nil, "the two slots must belong to two different players")
		}
		return mkSwap(*j.A, *j.B), nil
	}
}

// checkSlot returns why s is no slot of any table, or nil; the caller
// names the game and the move (Refusal.In).
func checkSlot(s Slot) *game.Refusal {
	if s.Seat < 0 || s.Seat >= MaxPlayers {
		return game.Refuse("", "", game.ReasonOutOfRange, map[string]any{"field": "seat", "value": int(s.Seat), "min": 0, "max": MaxPlayers - 1},
			"seat %d: seats are 0 to %d", s.Seat, MaxPlayers-1)
	}
	if s.Slot < 0 || s.Slot >= MaxSlots {
		return game.Refuse("", "", game.ReasonOutOfRange, map[string]any{"field": "slot", "value": s.Slot, "min": 0, "max": MaxSlots - 1},
			"slot %d: slots are 0 to %d", s.Slot, MaxSlots-1)
	}
	return nil
}

func slotsMask(slots []int) (uint8, *game.Refusal) {
	var mask uint8
	for _, i := range slots {
		if r := checkSlot(Slot{0, i}); r != nil {
			return 0, r
		}
		if mask&(1<<uint(i)) != 0 {
			return 0, game.Refuse("", "", game.ReasonTwice, map[string]any{"field": "slot", "value": i}, "slot %d given twice", i)
		}
		mask |= 1 << uint(i)
	}
	return mask, nil
}

func maskSlots(mask uint8) []int {
	out := make([]int, 0, bits.OnesCount8(mask))
	for i := 0; i < MaxSlots; i++ {
		if mask&(1<<uint(i)) != 0 {
			out = append(out, i)
		}
	}
	return out
}
