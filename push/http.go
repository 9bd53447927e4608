package push

import (
	"crypto/ecdh"
	"encoding/base64"
	"encoding/json"
	"net/http"
	"net/url"
	"strings"

	"tapis/account"
	"tapis/api"
	"tapis/store"
)

// Routes registers the subscriptions' routes on mux:
//
//	GET  /api/push/key          the VAPID public key: {"key"} (the Push API's applicationServerKey)
//	POST /api/me/push           {"endpoint","keys":{"p256dh","auth"},"lang"}: this browser's subscription
//	POST /api/me/push/remove    {"endpoint"}: forget it
//
// For signed-in players with a username; the POSTs need
// account.SameOrigin in front.
func (s *Service) Routes(mux *http.ServeMux) {
	mux.HandleFunc("GET /api/push/key", s.key)
	mux.HandleFunc("POST /api/me/push", s.subscribe)
	mux.HandleFunc("POST /api/me/push/remove", s.unsubscribe)
}

// key answers GET /api/push/key.
func (s *Service) key(w http.ResponseWriter, _ *http.Request) {
	api.Write(w, http.StatusOK, map[string]string{"key": s.pub})
}

// me returns the signed-in player with a username, or answers and
// returns false.
func (s *Service) me(w http.ResponseWriter, r *http.Request) (store.Player, bool) {
	return account.Named(w, r, s.cfg.Player, "push: notifications are for players with a username")
}

// subscription is POST /api/me/push's body: the Push API's
// PushSubscription as its toJSON gives it, and the page's language.
type subscription struct {
	Endpoint string `json:"endpoint"`
	// ExpirationTime is the Push API's, passed on by pages that send
	// toJSON whole; unused.
	ExpirationTime json.RawMessage `json:"expirationTime"`
	Keys           struct {
		P256dh string `json:"p256dh"`
		Auth   string `json:"auth"`
	} `json:"keys"`
	Lang string `json:"lang"`
}

// subscribe answers POST /api/me/push.
func (s *Service) subscribe(w http.ResponseWriter, r *http.Request) {
	p, ok := s.me(w, r)
	if !ok {
		return
	}
	var b subscription
	if !api.Read(w, r, &b) {
		return
	}
	u, err := url.Parse(b.Endpoint)
	// Keys come base64url, padded or not.
	b.Keys.P256dh, b.Keys.Auth = strings.TrimRight(b.Keys.P256dh, "="), strings.TrimRight(b.Keys.Auth, "=")
	dh, err1 := base64.RawURLEncoding.DecodeString(b.Keys.P256dh)
	auth, err2 := base64.RawURLEncoding.DecodeString(b.Keys.Auth)
	switch {
	case err != nil || len(b.Endpoint) > 1024 || !s.cfg.Endpoint(u):
		api.Error(w, http.StatusBadRequest, api.CodeBadSubscription, "push: the endpoint is not a push service's https URL")
		return
	case err1 != nil || err2 != nil || len(auth) != 16 || !point(dh):
		api.Error(w, http.StatusBadRequest, api.CodeBadSubscription, "push: keys.p256dh is a P-256 point and keys.auth 16 bytes, base64url")
		return
	case b.Lang != "en" && b.Lang != "fr":
		api.Error(w, http.StatusBadRequest, api.CodeBadLang, `push: the language is "en" or "fr"`)
		return
	}
	ctx := r.Context()
	subs, err := s.cfg.Store.PushSubs(ctx, p.ID)
	for i := 0; err == nil && i <= len(subs)-MaxSubs; i++ {
		if subs[i].Endpoint != b.Endpoint {
			err = s.cfg.Store.RemovePushSub(ctx, subs[i].Endpoint)
		}
	}
	if err == nil {
		err = s.cfg.Store.AddPushSub(ctx, store.PushSub{Player: p.ID, Endpoint: b.Endpoint, P256dh: b.Keys.P256dh,
			Auth: b.Keys.Auth, Lang: b.Lang, Created: s.now()})
	}
	if err != nil {
		s.storeError(w, err)
		return
	}
	api.Write(w, http.StatusOK, map[string]string{"endpoint": b.Endpoint})
}

// point reports whether b is an uncompressed P-256 point.
func point(b []byte) bool {
	_, err := ecdh.P256().NewPublicKey(b)
	return err == nil
}

// unsubscribe answers POST /api/me/push/remove: only the player's own.
func (s *Service) unsubscribe(w http.ResponseWriter, r *http.Request) {
	p, ok := s.me(w, r)
	if !ok {
		return
	}
	var b struct {
		Endpoint string `json:"endpoint"`
	}
	if !api.Read(w, r, &b) {
		return
	}
	ctx := r.Context()
	subs, err := s.cfg.Store.PushSubs(ctx, p.ID)
	for _, sub := range subs {
		if err == nil && sub.Endpoint == b.Endpoint {
			err = s.cfg.Store.RemovePushSub(ctx, b.Endpoint)
		}
	}
	if err != nil {
		s.storeError(w, err)
		return
	}
	api.Write(w, http.StatusOK, map[string]string{})
}

// storeError answers a failed store.
func (s *Service) storeError(w http.ResponseWriter, err error) {
	s.cfg.Logger.Error("push: store", "err", err)
	api.Error(w, http.StatusInternalServerError, api.CodeStore, "push: the store failed; try again")
}
