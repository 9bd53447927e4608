package dacapo

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strconv"

	"tapis/game"
)

// Card is a card as JSON shows it: 1..10, or "J" for a Joker (code 11).
type Card int8

// String is the card as the rules write it.
func (c Card) String() string {
	if c == Joker {
		return "J"
	}
	return strconv.Itoa(int(c))
}

// MarshalJSON implements json.Marshaler.
func (c Card) MarshalJSON() ([]byte, error) {
	if c == Joker {
		return []byte(`"J"`), nil
	}
	if c < 1 || c > Top {
		return nil, fmt.Errorf("dacapo: card code %d", int(c))
	}
	return strconv.AppendInt(nil, int64(c), 10), nil
}

// UnmarshalJSON implements json.Unmarshaler: an integer 1..10 or "J".
func (c *Card) UnmarshalJSON(data []byte) error {
	data = bytes.TrimSpace(data)
	if string(data) == `"J"` {
		*c = Joker
		return nil
	}
	v, err := strconv.Atoi(string(data))
	if err != nil || v < 1 || v > Top {
		return fmt.Errorf("card %s: cards are 1 to 10 and \"J\"", data)
	}
	*c = Card(v)
	return nil
}

// Kind is what a move does.
type Kind uint8

// The three moves of REPLAY.md. End stops a turn whose hand is empty and
// cannot be refilled (RULES.md §4, decision of 2026-11-24): building is
// optional, and such a hand has no card for the helper move.
const (
	Build Kind = iota + 1
	Help
	End
	kinds
)

var kindNames = [kinds]string{"", "build", "helper", "end"}

func (k Kind) String() string {
	if k >= kinds {
		return fmt.Sprintf("kind(%d)", k)
	}
	return kindNames[k]
}

// From is where a built card comes from.
type From uint8

// The sources of a build, as REPLAY.md names them.
const (
	FromHand From = iota + 1
	FromStock
	FromHelper
	FromOpponent
	froms
)

var fromNames = [froms]string{"", "hand", "stock", "helper", "opponent"}

func (f From) String() string {
	if f >= froms {
		return fmt.Sprintf("from(%d)", f)
	}
	return fromNames[f]
}

// A Move packs into a game.Move as kind | from<<4 | arg<<8 | target<<16.
// arg is the card (hand build, helper move), the helper index (helper
// build) or the seat (opponent build); target is the building pile of a
// build or the helper pile of a helper move. End has no fields: its code
// is the kind alone.
type Move struct {
	Kind   Kind
	From   From
	Card   Card      // hand build, helper move
	Index  int       // helper build: the helper pile played from
	Seat   game.Seat // opponent build
	Target int       // build: building pile; helper move: helper pile
}

// Pack returns the move's game.Move code.
func (m Move) Pack() game.Move {
	var arg game.Move
	switch {
	case m.Kind == Help || m.From == FromHand:
		arg = game.Move(m.Card)
	case m.From == FromHelper:
		arg = game.Move(m.Index)
	case m.From == FromOpponent:
		arg = game.Move(m.Seat)
	}
	return game.Move(m.Kind) | game.Move(m.From)<<4 | arg<<8 | game.Move(m.Target)<<16
}

// Unpack decodes a game.Move; ok is false for a code no Da Capo! move has.
func Unpack(gm game.Move) (m Move, ok bool) {
	if !wellFormed(gm) {
		return m, false
	}
	m = Move{Kind: kindOf(gm), From: fromOf(gm), Target: targetOf(gm)}
	switch {
	case m.Kind == Help || m.From == FromHand:
		m.Card = Card(argOf(gm))
	case m.From == FromHelper:
		m.Index = int(argOf(gm))
	case m.From == FromOpponent:
		m.Seat = game.Seat(argOf(gm))
	}
	return m, true
}

// The engine reads packed moves through these, never building a Move, so
// that Apply stays cheap.
func kindOf(gm game.Move) Kind  { return Kind(gm & 0xf) }
func fromOf(gm game.Move) From  { return From(gm >> 4 & 0xf) }
func argOf(gm game.Move) int8   { return int8(gm >> 8 & 0xff) }
func targetOf(gm game.Move) int { return int(gm >> 16 & 0xff) }

// wellFormed reports whether gm is the one code of a Da Capo! move.
func wellFormed(gm game.Move) bool {
	if gm>>24 != 0 {
		return false
	}
	arg, t := argOf(gm), targetOf(gm)
	switch kindOf(gm) {
	case Build:
		if t >= Piles {
			return false
		}
		switch fromOf(gm) {
		case FromHand:
			return arg >= 1 && arg <= Joker
		case FromStock:
			return arg == 0
		case FromHelper:
			return arg >= 0 && arg < Helpers
		case FromOpponent:
			return arg >= 0 && arg < MaxPlayers
		}
	case Help:
		return fromOf(gm) == 0 && arg >= 1 && arg <= Joker && t < Helpers
	case End:
		return gm == endMove
	}
	return false
}

// endMove is the code of the one End move.
const endMove = game.Move(End)

func mkBuild(f From, arg int8, pile int) game.Move {
	return game.Move(Build) | game.Move(f)<<4 | game.Move(arg)<<8 | game.Move(pile)<<16
}

func mkHelp(c int8, index int) game.Move {
	return game.Move(Help) | game.Move(c)<<8 | game.Move(index)<<16
}

// moveJSON is the wire form of every Da Capo! move (REPLAY.md).
type moveJSON struct {
	Type  string `json:"type"`
	From  string `json:"from,omitempty"`
	Card  *Card  `json:"card,omitempty"`
	Seat  *int   `json:"seat,omitempty"`
	Index *int   `json:"index,omitempty"`
	Pile  *int   `json:"pile,omitempty"`
}

// MarshalMove implements game.Game.
func (Game) MarshalMove(gm game.Move) ([]byte, error) {
	m, ok := Unpack(gm)
	if !ok {
		return nil, fmt.Errorf("dacapo: %#x is not a move", uint64(gm))
	}
	j := moveJSON{Type: m.Kind.String()}
	if m.Kind == End {
		return json.Marshal(j)
	}
	t := m.Target
	if m.Kind == Help {
		j.Card, j.Index = &m.Card, &t
		return json.Marshal(j)
	}
	j.From, j.Pile = m.From.String(), &t
	switch m.From {
	case FromHand:
		j.Card = &m.Card
	case FromHelper:
		j.Index = &m.Index
	case FromOpponent:
		seat := int(m.Seat)
		j.Seat = &seat
	}
	return json.Marshal(j)
}

// UnmarshalMove implements game.Game.
func (Game) UnmarshalMove(data []byte) (game.Move, error) {
	var j moveJSON
	if err := game.DecodeStrict(data, &j); err != nil {
		return 0, deny("move", game.ReasonUnreadable, nil, "%v", err)
	}
	inRange := func(what string, p *int, n int) error {
		if *p < 0 || *p >= n {
			return deny(j.Type, game.ReasonOutOfRange, map[string]any{"field": what, "value": *p, "min": 0, "max": n - 1}, "%s %d: must be 0 to %d", what, *p, n-1)
		}
		return nil
	}
	switch j.Type {
	case "end":
		if j.From != "" || j.Card != nil || j.Seat != nil || j.Index != nil || j.Pile != nil {
			return 0, deny("end", game.ReasonBadFields, map[string]any{"type": "end"}, `takes no field but "type"`)
		}
		return endMove, nil
	case "helper":
		if j.Card == nil || j.Index == nil || j.From != "" || j.Seat != nil || j.Pile != nil {
			return 0, deny("helper", game.ReasonBadFields, map[string]any{"type": "helper"}, `takes "card" and "index" only`)
		}
		if err := inRange("index", j.Index, Helpers); err != nil {
			return 0, err
		}
		return mkHelp(int8(*j.Card), *j.Index), nil
	case "build":
	default:
		return 0, deny("move", game.ReasonBadMove, map[string]any{"type": j.Type}, "unknown type %q", j.Type)
	}
	if j.Pile == nil {
		return 0, deny("build", game.ReasonBadFields, map[string]any{"type": "build"}, `"pile" is missing`)
	}
	if err := inRange("pile", j.Pile, Piles); err != nil {
		return 0, err
	}
	switch j.From {
	case "hand":
		if j.Card == nil || j.Index != nil || j.Seat != nil {
			return 0, deny("build from hand", game.ReasonBadFields, map[string]any{"type": "build"}, `takes "card" and "pile" only`)
		}
		return mkBuild(FromHand, int8(*j.Card), *j.Pile), nil
	case "stock":
		if j.Card != nil || j.Index != nil || j.Seat != nil {
			return 0, deny("build from stock", game.ReasonBadFields, map[string]any{"type": "build"}, `takes "pile" only`)
		}
		return mkBuild(FromStock, 0, *j.Pile), nil
	case "helper":
		if j.Index == nil || j.Card != nil || j.Seat != nil {
			return 0, deny("build from helper", game.ReasonBadFields, map[string]any{"type": "build"}, `takes "index" and "pile" only`)
		}
		if err := inRange("index", j.Index, Helpers); err != nil {
			return 0, err
		}
		return mkBuild(FromHelper, int8(*j.Index), *j.Pile), nil
	case "opponent":
		if j.Seat == nil || j.Card != nil || j.Index != nil {
			return 0, deny("build from opponent", game.ReasonBadFields, map[string]any{"type": "build"}, `takes "seat" and "pile" only`)
		}
		if err := inRange("seat", j.Seat, MaxPlayers); err != nil {
			return 0, err
		}
		return mkBuild(FromOpponent, int8(*j.Seat), *j.Pile), nil
	}
	return 0, deny("build", game.ReasonBadFields, map[string]any{"type": "build"}, `"from" %q: must be "hand", "stock", "helper" or "opponent"`, j.From)
}
