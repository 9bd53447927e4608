package account

import (
	"encoding/base64"
	"testing"
)

func TestNewToken(t *testing.T) {
	seen := map[string]bool{}
	for range 100 {
		tok, hash := NewToken()
		raw, err := base64.RawURLEncoding.DecodeString(tok)
		if err != nil || len(raw) != 16 {
			t.Fatalf("token %q: %d bytes, %v; want 16 bytes of base64url", tok, len(raw), err)
		}
		if hash != HashToken(tok) || len(hash) != 64 {
			t.Fatalf("hash %q does not match HashToken(%q)", hash, tok)
		}
		if seen[tok] {
			t.Fatalf("token %q repeated", tok)
		}
		seen[tok] = true
	}
	// SHA-256("abc"), from FIPS 180-2.
	if got := HashToken("abc"); got != "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad" {
		t.Fatalf("HashToken(abc) = %s", got)
	}
}
