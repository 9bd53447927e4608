package server

import (
	"strings"
	"unicode"

	"golang.org/x/text/cases"
	"golang.org/x/text/unicode/norm"
)

// maxName is the longest display name, in characters (code points after
// NFC), not bytes: a name in Greek or Japanese gets as many as in English.
const maxName = 24

// cleanName makes a display name safe to show beside others: NFC, so that
// one name has one spelling; no control or format characters (a
// right-to-left override would turn the names after it round, zero-width
// ones would make two names look alike), nor angle brackets; runs of
// spaces as one space; at most maxName characters. It returns "" when
// nothing is left.
func cleanName(name string) string {
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
	if r := []rune(name); len(r) > maxName {
		name = strings.TrimSpace(string(r[:maxName]))
	}
	return name
}

// folder folds case the Unicode way (ß as ss, Σ as σ), not just ASCII.
var folder = cases.Fold()

// nameKey is what two names that read alike share: compatibility forms
// (a full-width Ａ is an A), case and spaces are ignored.
func nameKey(name string) string {
	k := folder.String(norm.NFKC.String(name))
	return strings.Map(func(r rune) rune {
		if unicode.IsSpace(r) {
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
