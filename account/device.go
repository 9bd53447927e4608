package account

import (
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"net/http"
	"strings"
	"time"
)

// Device cookies (OWASP's "Slow Down Online Guessing Attacks with Device
// Cookies"): usernames are public, so ten wrong guesses from anywhere
// used to lock an account's owner out with the strangers (issue 24,
// finding 12). A browser that signed in to an account successfully gets
// a long-lived cookie, signed by the server, naming a random device id
// for that account. A sign-in carrying one valid for the account tried
// spends that device's budget (Config.Devices) instead of the account's:
// strangers, who hold no such cookie, exhaust the account's budget only,
// and the owner's browser still gets in.

// DeviceCookie is the name of the device cookie.
const DeviceCookie = "tapis_device"

// deviceLifetime is how long a device cookie lasts: a browser that signs
// in once a year keeps its way past the account's lock.
const deviceLifetime = 365 * 24 * time.Hour

// deviceIDBytes and deviceMACBytes size a device cookie: a random id and
// the truncated HMAC binding it to an account, 128 bits each.
const (
	deviceIDBytes  = 16
	deviceMACBytes = 16
)

// deviceMAC returns the signature of device id for the account whose
// username key is account.
func (s *Service) deviceMAC(account string, id []byte) []byte {
	m := hmac.New(sha256.New, s.deviceKey)
	m.Write([]byte("tapis device\x00" + account + "\x00"))
	m.Write(id)
	return m.Sum(nil)[:deviceMACBytes]
}

// device returns the id of r's device cookie if it is valid for the
// account whose username key is account, or "" if there is none that is.
func (s *Service) device(r *http.Request, account string) string {
	c, err := r.Cookie(DeviceCookie)
	if err != nil || account == "" {
		return ""
	}
	idText, macText, ok := strings.Cut(c.Value, ".")
	if !ok {
		return ""
	}
	id, err1 := base64.RawURLEncoding.DecodeString(idText)
	mac, err2 := base64.RawURLEncoding.DecodeString(macText)
	if err1 != nil || err2 != nil || len(id) != deviceIDBytes || !hmac.Equal(mac, s.deviceMAC(account, id)) {
		return ""
	}
	return idText
}

// setDevice gives r's browser a new device cookie for the account whose
// username key is account, after a successful sign-in or claim.
func (s *Service) setDevice(w http.ResponseWriter, r *http.Request, account string) {
	id := make([]byte, deviceIDBytes)
	rand.Read(id) // never fails: crypto/rand aborts the program rather than return weak bytes
	scheme, _ := s.proxies.Origin(r)
	http.SetCookie(w, &http.Cookie{
		Name:     DeviceCookie,
		Value:    base64.RawURLEncoding.EncodeToString(id) + "." + base64.RawURLEncoding.EncodeToString(s.deviceMAC(account, id)),
		Path:     "/api/account/",
		HttpOnly: true,
		SameSite: http.SameSiteLaxMode,
		Secure:   scheme == "https",
		Expires:  s.now().Add(deviceLifetime).UTC(),
		MaxAge:   int(deviceLifetime / time.Second),
	})
}

// signInBudget is the budget a sign-in to the account whose username key
// is account spends beside its address's and network's: that of r's
// device if its cookie is valid for the account, else the account's.
func (s *Service) signInBudget(r *http.Request, account string) charge {
	if id := s.device(r, account); id != "" {
		return charge{s.devices, id}
	}
	return charge{s.accounts, account}
}
