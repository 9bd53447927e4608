package table

import (
	"strings"
	"unicode"

	"golang.org/x/text/cases"
	"golang.org/x/text/unicode/norm"
)

// folder folds case the Unicode way (ß as ss, Σ as σ), not just ASCII.
var folder = cases.Fold()

// nameKey is what two names that read alike share: compatibility forms
// (a full-width Ａ is an A), case, spaces and the characters that show
// nothing (zero-width ones, variation selectors, fillers: Unicode's
// default ignorables) are ignored.
func nameKey(name string) string {
	k := folder.String(norm.NFKC.String(name))
	return strings.Map(func(r rune) rune {
		if unicode.IsSpace(r) || unicode.In(r, unicode.Cf, unicode.Variation_Selector, unicode.Other_Default_Ignorable_Code_Point) {
			return -1
		}
		return r
	}, k)
}

// nameTaken reports whether a player whose name reads like name already
// sits at the table.
func (t *table) nameTaken(name string) bool {
	k := nameKey(name)
	for _, s := range t.seats {
		if s.Bot == "" && s.TokenHash != "" && nameKey(s.Name) == k {
			return true
		}
	}
	return false
}
