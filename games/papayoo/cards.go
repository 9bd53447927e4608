package papayoo

import (
	"fmt"
	"math/bits"
	"strconv"
)

// Cards are indexes 0..59: the plain suits first, card 10*suit+rank-1
// (Spades, Hearts, Diamonds, Clubs, the REPLAY.md order), then the Payoo
// suit, card 40+n-1. A set of cards is a uint64 with bit i for card i, so a
// hand, a pass or the cards a seat has played are one word each, and
// following suit is one AND.
const (
	Suits     = 5  // four plain suits and the Payoo suit
	Payoo     = 4  // the Payoo suit's number
	DeckSize  = 60 // every card; 56 are used at 7 and 8 players
	plainSize = 10
	payooSize = 20
	// PapayooPoints is what the 7 of the die's suit scores.
	PapayooPoints = 40
	// RoundPoints is what every round's points total: 1+2+…+20 of the
	// Payoo suit, plus the Papayoo.
	RoundPoints = 250
)

const suitLetters = "SHDCP"

var suitNames = [Suits]string{"spades", "hearts", "diamonds", "clubs", "payoo"}

// Immutable tables, computed once: the suit and points of each card, and
// the card set of each suit.
var (
	suitOf   [DeckSize]int8
	pointsOf [DeckSize]int8
	suitMask [Suits]uint64
)

// ones are the four plain 1s, removed at 7 and 8 players.
const ones uint64 = 1<<0 | 1<<10 | 1<<20 | 1<<30

const allCards uint64 = 1<<DeckSize - 1

func init() {
	for c := 0; c < DeckSize; c++ {
		s := c / plainSize
		if s > Payoo {
			s = Payoo
		}
		suitOf[c] = int8(s)
		suitMask[s] |= 1 << uint(c)
		if s == Payoo {
			pointsOf[c] = int8(c - 4*plainSize + 1)
		}
	}
	inferTables()
}

// deckFor is the deck of an n-player game (RULES.md §2, Deal).
func deckFor(n int) uint64 {
	if n >= 7 {
		return allCards &^ ones
	}
	return allCards
}

// seven is the 7 of a plain suit: the Papayoo when the die names it.
func seven(suit int8) int8 { return suit*plainSize + 6 }

// rank is a card's number within its suit (1..10, Payoo 1..20).
func rank(c int8) int {
	if suitOf[c] == Payoo {
		return int(c) - 4*plainSize + 1
	}
	return int(c)%plainSize + 1
}

// CardName is the REPLAY.md notation of card c: "S7", "H10", "P20".
func CardName(c int8) string {
	return string(suitLetters[suitOf[c]]) + strconv.Itoa(rank(c))
}

// ParseCard reads REPLAY.md's notation. It accepts every card of the
// 60-card deck; whether the 1s are in play depends on the table.
func ParseCard(s string) (int8, error) {
	if len(s) < 2 || len(s) > 3 {
		return 0, fmt.Errorf("card %q: want a suit letter S, H, D, C or P and a number", s)
	}
	suit := -1
	for i := 0; i < Suits; i++ {
		if s[0] == suitLetters[i] {
			suit = i
		}
	}
	if suit < 0 {
		return 0, fmt.Errorf("card %q: the suit is S, H, D, C or P", s)
	}
	if s[1] == '0' || s[1] == '+' || s[1] == '-' {
		return 0, fmt.Errorf("card %q: bad number", s)
	}
	n, err := strconv.Atoi(s[1:])
	if err != nil {
		return 0, fmt.Errorf("card %q: bad number", s)
	}
	if suit == Payoo {
		if n < 1 || n > payooSize {
			return 0, fmt.Errorf("card %q: Payoo cards are 1 to 20", s)
		}
		return int8(4*plainSize + n - 1), nil
	}
	if n < 1 || n > plainSize {
		return 0, fmt.Errorf("card %q: suited cards are 1 to 10", s)
	}
	return int8(suit*plainSize + n - 1), nil
}

// names lists a card set in index order, in REPLAY.md notation.
func names(set uint64) []string {
	out := make([]string, 0, bits.OnesCount64(set))
	for ; set != 0; set &= set - 1 {
		out = append(out, CardName(int8(bits.TrailingZeros64(set))))
	}
	return out
}

// SuitLetter is the letter of a suit (0..4), "" for none (-1).
func SuitLetter(s int8) string {
	if s < 0 || s >= Suits {
		return ""
	}
	return suitLetters[s : s+1]
}

// CardSuit is the suit (0..4) of a card index.
func CardSuit(c int8) int8 { return suitOf[c] }

// CardPoints is what card c scores in a round whose Papayoo is papayoo.
func CardPoints(c, papayoo int8) int {
	if c == papayoo {
		return PapayooPoints
	}
	return int(pointsOf[c])
}
