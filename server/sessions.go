package server

import (
	"crypto/hmac"
	"crypto/sha256"

	"tapis/account"
	"tapis/table"
)

// sessionHooks sets ac's hooks to the table host's: Revoked (a player's
// sessions ended: their sockets close) and Renaming (a rename must not
// read like another name at their tables), see package table's revoke.go;
// and the key of device cookies, derived from secret (Config.Secret) so
// that the nodes (and restarts) sharing a secret recognise each other's
// cookies.
func sessionHooks(ac *account.Config, host *table.Host, secret []byte) {
	ac.Revoked, ac.Renaming = host.Revoked, host.Renaming
	if len(ac.DeviceKey) == 0 {
		m := hmac.New(sha256.New, secret)
		m.Write([]byte("tapis device cookies"))
		ac.DeviceKey = m.Sum(nil)
	}
}
