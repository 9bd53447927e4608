package account

import (
	"errors"
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"

	"golang.org/x/text/cases"
	"golang.org/x/text/unicode/norm"
)

// Bounds on a username's length, in characters (runes) after NFKC normalisation.
const (
	MinUsername = 3
	MaxUsername = 20
)

// Errors from CleanUsername; the HTTP layer shows them to the player in words.
var (
	ErrUsernameTooShort = fmt.Errorf("account: the username has fewer than %d characters", MinUsername)
	ErrUsernameTooLong  = fmt.Errorf("account: the username has more than %d characters", MaxUsername)
	ErrUsernameStart    = errors.New("account: the username must start with a letter or a digit")
	ErrUsernameChar     = errors.New("account: the username may hold only letters, digits, '_', '-' and '.'")
)

// maxUsernameInput bounds the input read before normalising: NFKC can make a string many times
// longer, and no acceptable username comes near this.
const maxUsernameInput = 256

// CleanUsername returns s as it will be stored and shown: surrounding spaces removed, NFKC
// normalised (so full-width "Ａｎｎ" becomes "Ann" and a composed "é" is one character whatever
// keyboard typed it), 3 to 20 characters of letters (any script), digits, '_', '-' and '.'.
// Combining marks are allowed after the first character, as scripts such as Devanagari need
// them to write names. The first character must be a letter or digit, so that no name is "..",
// looks like a command-line flag or is only punctuation. Case is kept; UsernameKey decides
// which names are the same.
func CleanUsername(s string) (string, error) {
	s = strings.TrimSpace(s)
	if len(s) > maxUsernameInput {
		return "", ErrUsernameTooLong
	}
	s = norm.NFKC.String(s)
	switch n := utf8.RuneCountInString(s); {
	case n < MinUsername:
		return "", ErrUsernameTooShort
	case n > MaxUsername:
		return "", ErrUsernameTooLong
	}
	for i, r := range s {
		switch {
		case unicode.IsLetter(r) || unicode.IsDigit(r):
		case i == 0:
			return "", fmt.Errorf("%w, not %q", ErrUsernameStart, r)
		case r == '_' || r == '-' || r == '.' || unicode.Is(unicode.M, r):
		default:
			return "", fmt.Errorf("%w, not %q", ErrUsernameChar, r)
		}
	}
	return s, nil
}

// UsernameKey returns the form of a username under which it must be unique: NFKC, case-folded,
// NFKC again (Unicode's NFKC_Casefold recipe; folding can undo normalisation), so that "Ann",
// "ANN" and "Ａｎｎ" are one name. It expects a name CleanUsername accepted; the store keeps the
// key in a unique column beside the name as shown.
//
// It does not catch look-alikes across scripts (Latin "a" and Cyrillic "а").
func UsernameKey(s string) string {
	// A Caser keeps state, so each call makes its own rather than share one across goroutines.
	folded := cases.Fold().String(norm.NFKC.String(s))
	return norm.NFKC.String(strings.Map(cherokeeUpper, folded))
}

// cherokeeUpper undoes a flaw of golang.org/x/text/cases (v0.43): its Fold maps Cherokee
// capitals to the small letters added in Unicode 8 and small letters to capitals, so "Ꭱnn" and
// "ꭱnn" would get different keys and both be claimable. Unicode's CaseFolding.txt folds
// Cherokee to the capitals, which were encoded first; this applies that to Fold's output.
func cherokeeUpper(r rune) rune {
	switch {
	case r >= 0xAB70 && r <= 0xABBF: // Cherokee Supplement: small letters of U+13A0…U+13EF
		return r - 0xAB70 + 0x13A0
	case r >= 0x13F8 && r <= 0x13FD: // small letters of U+13F0…U+13F5
		return r - 0x13F8 + 0x13F0
	}
	return r
}
