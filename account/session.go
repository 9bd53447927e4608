package account

import (
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
)

// tokenBytes is 128 bits: enough that guessing a live session is hopeless however many exist.
const tokenBytes = 16

// NewToken returns a new session token for the player's cookie and the hash under which the
// store keeps it. Only the hash is stored, so a leaked copy of the database holds no usable
// session. The token is base64url without padding (22 characters), safe in a cookie and a URL.
func NewToken() (token, hash string) {
	b := make([]byte, tokenBytes)
	rand.Read(b) // never fails: crypto/rand aborts the program rather than return weak bytes
	token = base64.RawURLEncoding.EncodeToString(b)
	return token, HashToken(token)
}

// HashToken returns the SHA-256 of token in hex, the key under which its session is stored and
// looked up. A plain fast hash is enough here, unlike for passwords: the token is 128 random
// bits, so there is nothing to guess from a dictionary and no need for salt or slowness.
func HashToken(token string) string {
	sum := sha256.Sum256([]byte(token))
	return hex.EncodeToString(sum[:])
}
