package account

import (
	"errors"
	"testing"
)

func TestCleanUsername(t *testing.T) {
	for _, c := range []struct {
		in, want string
		err      error
	}{
		{"Ann", "Ann", nil},
		{"  Ann  ", "Ann", nil},
		{"Ａｎｎ", "Ann", nil},       // full-width folds to ASCII
		{"Zoe\u0301", "Zoé", nil}, // decomposed é is composed: one character
		{"jean-luc.b_2", "jean-luc.b_2", nil},
		{"Ελένη", "Ελένη", nil},
		{"山田太郎", "山田太郎", nil},
		{"हिन्दी", "हिन्दी", nil}, // Devanagari needs combining marks
		{"abc", "abc", nil},
		{"abcdefghijklmnopqrst", "abcdefghijklmnopqrst", nil},
		{"ab", "", ErrUsernameTooShort},
		{"", "", ErrUsernameTooShort},
		{"abcdefghijklmnopqrstu", "", ErrUsernameTooLong},
		{"ééééééééééééééééééé", "ééééééééééééééééééé", nil}, // 19 characters, 38 bytes
		{"ann smith", "", ErrUsernameChar},
		{"ann@home", "", ErrUsernameChar},
		{"ann\u200b", "", ErrUsernameChar}, // zero-width space
		{"ann😀", "", ErrUsernameChar},
		{"..ann", "", ErrUsernameStart},
		{"-rf", "", ErrUsernameStart},
		{"\u0301ann", "", ErrUsernameStart},
		{string(make([]byte, 300)), "", ErrUsernameTooLong},
	} {
		got, err := CleanUsername(c.in)
		if got != c.want || !errors.Is(err, c.err) {
			t.Errorf("CleanUsername(%q) = %q, %v; want %q, %v", c.in, got, err, c.want, c.err)
		}
	}
}

func TestUsernameKey(t *testing.T) {
	same := [][]string{
		{"Ann", "ANN", "ann", "Ａｎｎ", "ａｎｎ"},
		{"Straße", "STRASSE", "strasse"},
		{"Zoé", "ZOÉ", "Zoe\u0301"},
		{"Ελένη", "ΕΛΈΝΗ"},
		{"\u13a1nn", "\uab71nn"},   // Cherokee capital and small R
		{"\u13f0abc", "\u13f8abc"}, // Cherokee capital and small YE
	}
	for _, group := range same {
		for _, name := range group[1:] {
			if UsernameKey(name) != UsernameKey(group[0]) {
				t.Errorf("UsernameKey(%q) = %q, UsernameKey(%q) = %q; want equal",
					name, UsernameKey(name), group[0], UsernameKey(group[0]))
			}
		}
	}
	if UsernameKey("Ann") == UsernameKey("Anne") || UsernameKey("Zoé") == UsernameKey("Zoe") {
		t.Error("distinct names share a key")
	}
}

// FuzzCleanUsername checks that a cleaned name is stable: cleaning it again changes nothing, so
// the name shown and the key stored cannot drift apart on a second pass.
func FuzzCleanUsername(f *testing.F) {
	for _, s := range []string{"Ann", "Ａｎｎ", " Zoe\u0301 ", "हिन्दी", "ab", "..x", "ﷺ"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		clean, err := CleanUsername(s)
		if err != nil {
			return
		}
		again, err := CleanUsername(clean)
		if err != nil || again != clean {
			t.Fatalf("CleanUsername(%q) = %q, then %q, %v", s, clean, again, err)
		}
		if UsernameKey(clean) != UsernameKey(UsernameKey(clean)) {
			t.Fatalf("UsernameKey not stable on %q", clean)
		}
	})
}
