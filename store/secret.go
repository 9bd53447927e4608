package store

import (
	"context"
	"crypto/rand"
	"fmt"
)

// Secrets keeps the server's secret: the key of its bots' seeds and of its
// device cookies (server.Config.Secret). It lives in the store so that a
// restarted server, and every node of a cluster sharing the database, use
// the same one: a device cookie issued before a restart or by another
// node is honoured, and a replayed match gets the same bots.
type Secrets interface {
	// Secret returns the server's secret, SecretBytes random bytes made
	// on first use and kept from then on. Stores opened at once on one
	// database make one secret between them: each inserts its own only
	// if there is none, then reads whichever was kept. The secret is
	// never part of an error.
	Secret(ctx context.Context) ([]byte, error)
}

// SecretBytes is the length of the secret a store makes.
const SecretBytes = 32

// NewSecret returns SecretBytes random bytes: the secret a store makes.
func NewSecret() []byte {
	b := make([]byte, SecretBytes)
	rand.Read(b) // never fails: crypto/rand aborts the program rather than return weak bytes
	return b
}

// CheckSecret refuses a secret read back shorter than the stores make
// (an edited or damaged row): a short key would let anyone forge device
// cookies. Its error gives the length, never the bytes.
func CheckSecret(b []byte) ([]byte, error) {
	if len(b) < SecretBytes {
		return nil, fmt.Errorf("store: the server's secret is %d bytes, fewer than %d: damaged?", len(b), SecretBytes)
	}
	return b, nil
}

// The server's secret, for the memory store: made on first use, gone with
// the store.

// Secret implements Secrets.
func (m *Memory) Secret(context.Context) ([]byte, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.closed {
		return nil, ErrClosed
	}
	if m.secret == nil {
		m.secret = NewSecret()
	}
	return append([]byte(nil), m.secret...), nil
}
