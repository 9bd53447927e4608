package limits

import "fmt"

// The colours, in RULES.md's order: red, blue, purple, yellow, green. A
// colour card is its colour, 0..4, and a hand is a count per colour: cards
// of one colour are interchangeable, so the order of a hand carries no
// information and is not kept.
const (
	Red int8 = iota
	Blue
	Purple
	Yellow
	Green
	// Colours is the number of colours.
	Colours = 5
)

// PerColour is how many cards of each colour the game has (60 in all).
const PerColour = 12

// Cards is the number of colour cards.
const Cards = Colours * PerColour

var colourNames = [Colours]string{"red", "blue", "purple", "yellow", "green"}

// ColourName returns the colour's name in REPLAY.md's notation.
func ColourName(c int8) string {
	if c < 0 || c >= Colours {
		return fmt.Sprintf("colour(%d)", c)
	}
	return colourNames[c]
}

// ParseColour reads a colour name of REPLAY.md's notation.
func ParseColour(name string) (int8, error) {
	for c, n := range colourNames {
		if n == name {
			return int8(c), nil
		}
	}
	return 0, fmt.Errorf("unknown colour %q (colours are red, blue, purple, yellow, green)", name)
}

// X marks a colour a limit card leaves unlimited.
const X int8 = -1

// LimitCards is the number of limit cards in the box.
const LimitCards = 24

// limitTable is RULES.md's LIMITS-DETAIL table, the one place the limit
// cards are defined: limitTable[i] is card number i+1, one base limit per
// colour in colour order, X for no limit. The published card list could
// not be found, so this set is the project's own; replacing it means
// replacing this table only.
var limitTable = [LimitCards][Colours]int8{
	{X, 4, 2, 1, 0},
	{0, X, 4, 2, 1},
	{1, 0, X, 4, 2},
	{2, 1, 0, X, 4},
	{4, 2, 1, 0, X},
	{5, 3, 2, 1, 0},
	{0, 5, 3, 2, 1},
	{1, 0, 5, 3, 2},
	{2, 1, 0, 5, 3},
	{3, 2, 1, 0, 5},
	{4, 3, 2, 2, 1},
	{1, 4, 3, 2, 2},
	{2, 1, 4, 3, 2},
	{2, 2, 1, 4, 3},
	{3, 2, 2, 1, 4},
	{X, 3, 1, 1, 0},
	{0, X, 3, 1, 1},
	{1, 0, X, 3, 1},
	{1, 1, 0, X, 3},
	{3, 1, 1, 0, X},
	{6, 2, 2, 1, 0},
	{0, 6, 2, 2, 1},
	{1, 0, 6, 2, 2},
	{2, 1, 0, 6, 2},
}

// LimitCard returns the base limits of limit card number 1..24, in colour
// order, X for no limit.
func LimitCard(number int) ([Colours]int8, bool) {
	if number < 1 || number > LimitCards {
		return [Colours]int8{}, false
	}
	return limitTable[number-1], true
}

// removed is how many limit cards go back to the box unseen, by player
// count (RULES.md §3 Setup).
func removed(players int) int {
	switch {
	case players == 2:
		return 14
	case players <= 4:
		return 6
	}
	return 10
}

// DeckSize is the number of limit cards played with n players, hence the
// number of rounds of the game.
func DeckSize(players int) int { return LimitCards - removed(players) }
