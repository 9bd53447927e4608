package limits

import (
	"encoding/json"
	"fmt"

	"tapis/game"
)

// Kind is what a move does.
type Kind uint8

// The moves of REPLAY.md, in the order of its table.
const (
	Hide Kind = iota + 1
	Place
	Exchange
	Accuse
	kinds
)

var kindNames = [kinds]string{"", "hide", "place", "exchange", "accuse"}

// String names the kind as REPLAY.md's "type" does.
func (k Kind) String() string {
	if k >= kinds {
		return fmt.Sprintf("kind(%d)", k)
	}
	return kindNames[k]
}

// A move packs into a game.Move as kind | arg<<8 | b<<16 | c<<24:
//   - hide: arg is the number of cards (1 or 2), b and c their colours
//     with b <= c (c is 0 for one card), so that each choice has one code;
//   - place and exchange: arg is the colour;
//   - accuse: arg is the suspect's seat.
//
// The engine reads moves through these accessors, never building a struct,
// so that Apply stays cheap.
func kindOf(gm game.Move) Kind { return Kind(gm & 0xff) }
func argOf(gm game.Move) int8  { return int8(gm >> 8 & 0xff) }
func bOf(gm game.Move) int8    { return int8(gm >> 16 & 0xff) }
func cOf(gm game.Move) int8    { return int8(gm >> 24 & 0xff) }

func mkHide1(a int8) game.Move { return game.Move(Hide) | 1<<8 | game.Move(a)<<16 }

func mkHide2(a, b int8) game.Move {
	if b < a {
		a, b = b, a
	}
	return game.Move(Hide) | 2<<8 | game.Move(a)<<16 | game.Move(b)<<24
}

func mkPlace(c int8) game.Move         { return game.Move(Place) | game.Move(c)<<8 }
func mkExchange(c int8) game.Move      { return game.Move(Exchange) | game.Move(c)<<8 }
func mkAccuse(t game.Seat) game.Move   { return game.Move(Accuse) | game.Move(t)<<8 }
func isColour(c int8) bool             { return c >= 0 && c < Colours }
func only(gm game.Move, bits int) bool { return gm>>uint(bits) == 0 }

// wellFormed reports whether gm is the one code of a Limits move:
// arguments in range, and zero wherever the kind takes none.
func wellFormed(gm game.Move) bool {
	switch kindOf(gm) {
	case Hide:
		switch argOf(gm) {
		case 1:
			return only(gm, 24) && isColour(bOf(gm))
		case 2:
			return only(gm, 32) && isColour(bOf(gm)) && isColour(cOf(gm)) && bOf(gm) <= cOf(gm)
		}
	case Place, Exchange:
		return only(gm, 16) && isColour(argOf(gm))
	case Accuse:
		return only(gm, 16) && argOf(gm) >= 0 && argOf(gm) < MaxPlayers
	}
	return false
}

// hideCards returns the colours a hide move names, as counts.
func hideCards(gm game.Move) (cards [Colours]int8) {
	cards[bOf(gm)]++
	if argOf(gm) == 2 {
		cards[cOf(gm)]++
	}
	return cards
}

// moveJSON is the wire form of every Limits move (REPLAY.md).
type moveJSON struct {
	Type  string   `json:"type"`
	Cards []string `json:"cards,omitempty"`
	Card  *string  `json:"card,omitempty"`
	Color *string  `json:"color,omitempty"`
	Seat  *int     `json:"seat,omitempty"`
}

// MarshalMove implements game.Game.
func (Game) MarshalMove(gm game.Move) ([]byte, error) {
	if !wellFormed(gm) {
		return nil, fmt.Errorf("limits: %#x is not a move", uint64(gm))
	}
	k := kindOf(gm)
	j := moveJSON{Type: k.String()}
	switch k {
	case Hide:
		j.Cards = []string{ColourName(bOf(gm))}
		if argOf(gm) == 2 {
			j.Cards = append(j.Cards, ColourName(cOf(gm)))
		}
	case Place:
		name := ColourName(argOf(gm))
		j.Card = &name
	case Exchange:
		name := ColourName(argOf(gm))
		j.Color = &name
	case Accuse:
		seat := int(argOf(gm))
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
	k := Kind(0)
	for i, name := range kindNames {
		if name == j.Type && i > 0 {
			k = Kind(i)
		}
	}
	if k == 0 {
		return 0, deny("move", game.ReasonBadMove, map[string]any{"type": j.Type}, "unknown type %q", j.Type)
	}
	var args, want string
	switch {
	case j.Cards != nil:
		args = "cards"
	case j.Card != nil:
		args = "card"
	case j.Color != nil:
		args = "color"
	case j.Seat != nil:
		args = "seat"
	}
	n := 0
	for _, given := range []bool{j.Cards != nil, j.Card != nil, j.Color != nil, j.Seat != nil} {
		if given {
			n++
		}
	}
	switch k {
	case Hide:
		want = "cards"
	case Place:
		want = "card"
	case Exchange:
		want = "color"
	default:
		want = "seat"
	}
	if n != 1 || args != want {
		return 0, deny(k.String(), game.ReasonBadFields, map[string]any{"type": k.String()}, "takes %q only", want)
	}
	switch k {
	case Hide:
		if len(j.Cards) < 1 || len(j.Cards) > 2 {
			return 0, deny("hide", reasonHideCount, nil, "give 1 card (2 with 2 players)")
		}
		var cs [2]int8
		for i, name := range j.Cards {
			c, err := ParseColour(name)
			if err != nil {
				return 0, deny("hide", reasonColour, map[string]any{"colour": name}, "%v", err)
			}
			cs[i] = c
		}
		if len(j.Cards) == 1 {
			return mkHide1(cs[0]), nil
		}
		return mkHide2(cs[0], cs[1]), nil
	case Place, Exchange:
		name := j.Card
		if k == Exchange {
			name = j.Color
		}
		c, err := ParseColour(*name)
		if err != nil {
			return 0, deny(k.String(), reasonColour, map[string]any{"colour": *name}, "%v", err)
		}
		if k == Place {
			return mkPlace(c), nil
		}
		return mkExchange(c), nil
	default:
		if *j.Seat < 0 || *j.Seat >= MaxPlayers {
			return 0, deny("accuse", game.ReasonOutOfRange, map[string]any{"field": "seat", "value": *j.Seat, "min": 0, "max": MaxPlayers - 1}, "seat %d: seats are 0 to %d", *j.Seat, MaxPlayers-1)
		}
		return mkAccuse(game.Seat(*j.Seat)), nil
	}
}
