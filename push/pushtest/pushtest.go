// Package pushtest is the browser's side of Web Push for tests: a
// subscription's keys, and the decryption of what a server pushes to it
// (RFC 8291), as a push service's test endpoint does.
package pushtest

import (
	"crypto/aes"
	"crypto/cipher"
	"crypto/ecdh"
	"crypto/hkdf"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/binary"
	"errors"
	"testing"
)

// Browser is a browser's side of a subscription: its key pair and auth
// secret, which decrypt what is pushed to it (RFC 8291).
type Browser struct {
	key  *ecdh.PrivateKey
	auth []byte
}

// NewBrowser makes a browser's key pair and auth secret.
func NewBrowser(t testing.TB) Browser {
	k, err := ecdh.P256().GenerateKey(rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	auth := make([]byte, 16)
	rand.Read(auth)
	return Browser{k, auth}
}

// Keys are the subscription's keys as the Push API gives them
// (POST /api/me/push's "keys").
func (b Browser) Keys() map[string]string {
	return map[string]string{"p256dh": base64.RawURLEncoding.EncodeToString(b.key.PublicKey().Bytes()),
		"auth": base64.RawURLEncoding.EncodeToString(b.auth)}
}

// Decrypt opens an aes128gcm body (RFC 8188) encrypted for the browser
// (RFC 8291): the header's salt and the server's one-time key, the
// shared secret, then the content key and nonce.
func (b Browser) Decrypt(body []byte) ([]byte, error) {
	if len(body) < 21 {
		return nil, errors.New("short body")
	}
	salt, rs, idlen := body[:16], binary.BigEndian.Uint32(body[16:20]), int(body[20])
	if len(body) < 21+idlen || rs < 18 {
		return nil, errors.New("bad header")
	}
	asPub, err := ecdh.P256().NewPublicKey(body[21 : 21+idlen])
	if err != nil {
		return nil, err
	}
	secret, err := b.key.ECDH(asPub)
	if err != nil {
		return nil, err
	}
	info := append(append([]byte("WebPush: info\x00"), b.key.PublicKey().Bytes()...), asPub.Bytes()...)
	ikm, err := hkdf.Key(sha256.New, secret, b.auth, string(info), 32)
	if err != nil {
		return nil, err
	}
	cek, err := hkdf.Key(sha256.New, ikm, salt, "Content-Encoding: aes128gcm\x00", 16)
	if err != nil {
		return nil, err
	}
	nonce, err := hkdf.Key(sha256.New, ikm, salt, "Content-Encoding: nonce\x00", 12)
	if err != nil {
		return nil, err
	}
	block, _ := aes.NewCipher(cek)
	gcm, _ := cipher.NewGCM(block)
	plain, err := gcm.Open(nil, nonce, body[21+idlen:], nil)
	if err != nil {
		return nil, err
	}
	// One record, the last: the content, then the delimiter 2, then
	// padding of zeros.
	i := len(plain) - 1
	for i >= 0 && plain[i] == 0 {
		i--
	}
	if i < 0 || plain[i] != 2 {
		return nil, errors.New("no last record's delimiter")
	}
	return plain[:i], nil
}
