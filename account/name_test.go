package account

import (
	"strings"
	"testing"
	"unicode"
	"unicode/utf8"
)

func TestCleanName(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"Ann", "Ann"},
		{"  Ann   Smith  ", "Ann Smith"},
		{"Ann\u202eevil", "Annevil"}, // right-to-left override dropped
		{"A\u200bnn", "Ann"},         // zero-width space dropped
		{"<b>Ann</b>", "bAnn/b"},
		{"Zoe\u0301", "Zoé"}, // composed
		{"\x00\x01", ""},
		{"   ", ""},
		{strings.Repeat("é", 30), strings.Repeat("é", MaxName)},
		{strings.Repeat("a", MaxName-1) + " bc", strings.Repeat("a", MaxName-1)}, // no trailing space after the cut
		{"bad\xffutf8", "badutf8"},
	} {
		if got := CleanName(c.in); got != c.want {
			t.Errorf("CleanName(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}

// FuzzCleanName: a cleaned name is valid, short enough, trimmed, free of
// the characters removed, and stable under a second cleaning.
func FuzzCleanName(f *testing.F) {
	for _, s := range []string{"Ann", " a  b ", "\u202e", "Zoe\u0301", "\xff"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, in string) {
		out := CleanName(in)
		if !utf8.ValidString(out) || utf8.RuneCountInString(out) > MaxName || CleanName(out) != out || strings.TrimSpace(out) != out {
			t.Fatalf("CleanName(%q) = %q", in, out)
		}
		for _, r := range out {
			if unicode.In(r, unicode.Cc, unicode.Cf) || r == '<' || r == '>' {
				t.Fatalf("CleanName(%q) = %q keeps %U", in, out, r)
			}
		}
	})
}
