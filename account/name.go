package account

import (
	"strings"
	"unicode"

	"golang.org/x/text/unicode/norm"
)

// MaxName is the longest display name, in characters (code points after
// NFC), not bytes: a name in Greek or Japanese gets as many as in English.
const MaxName = 24

// CleanName makes a display name safe to show beside others: NFC, so that
// one name has one spelling; no control or format characters (a
// right-to-left override would turn the names after it round, zero-width
// ones would make two names look alike), nor angle brackets; runs of
// spaces as one space; at most MaxName characters. It returns "" when
// nothing is left.
//
// It is the rule for every display name, a guest's here and a seat's in
// package table, so that a name shown at a table is the one the player
// chose.
func CleanName(name string) string {
	var b strings.Builder
	space := false
	for _, r := range strings.ToValidUTF8(name, "") {
		switch {
		case unicode.IsSpace(r):
			space = true
			continue
		case unicode.In(r, unicode.Cc, unicode.Cf, unicode.Co, unicode.Cs) || r == '<' || r == '>' || r == unicode.ReplacementChar:
			continue
		}
		if space && b.Len() > 0 {
			b.WriteByte(' ')
		}
		space = false
		b.WriteRune(r)
	}
	// NFC last, as a removed character may have kept a letter from its
	// accent.
	name = norm.NFC.String(b.String())
	if r := []rune(name); len(r) > MaxName {
		name = strings.TrimSpace(string(r[:MaxName]))
	}
	return name
}
