package notify

import (
	"encoding/json"
	"net/http"
	"slices"
	"time"

	"tapis/account"
	"tapis/api"
	"tapis/store"
)

// InboxSize is how many of the latest notifications the inbox shows.
const InboxSize = 50

// Routes registers the inbox and the choices on mux:
//
//	GET  /api/me/inbox            the latest notifications, newest first, and how many are unread
//	POST /api/me/inbox/read       {"ids":[…]}: mark those read (none given: every one)
//	GET  /api/me/notifications    the choices: every kind on every channel this server sends on
//	POST /api/me/notifications    {"kind","channel","on"}: change one; answers the choices
//	                              ({"kind":"digest","channel":"email"}: the daily digest)
//
// For signed-in players with a username; the POSTs need
// account.SameOrigin in front.
func (s *Service) Routes(mux *http.ServeMux) {
	mux.HandleFunc("GET /api/me/inbox", s.inbox)
	mux.HandleFunc("POST /api/me/inbox/read", s.markRead)
	mux.HandleFunc("GET /api/me/notifications", s.prefs)
	mux.HandleFunc("POST /api/me/notifications", s.setPref)
}

// Item is a notification as the inbox shows it.
type Item struct {
	ID      string          `json:"id"`
	Kind    string          `json:"kind"`
	Payload json.RawMessage `json:"payload"`
	Created time.Time       `json:"created"`
	Read    bool            `json:"read"`
}

// Inbox is GET /api/me/inbox's answer.
type Inbox struct {
	Items  []Item `json:"items"`
	Unread int    `json:"unread"`
}

// Choices is GET /api/me/notifications's answer.
type Choices struct {
	// Channels are those this server sends on.
	Channels []string     `json:"channels"`
	Prefs    []store.Pref `json:"prefs"`
	// Digest says whether the player chose the daily digest: their
	// DigestKinds' mails gathered into one a day (digest.go). Only a
	// server that mails offers it.
	Digest bool `json:"digest"`
}

// me returns the signed-in player with a username, or answers and
// returns false.
func (s *Service) me(w http.ResponseWriter, r *http.Request) (store.Player, bool) {
	return account.Named(w, r, s.cfg.Player, "notify: notifications are for players with a username")
}

// inbox answers GET /api/me/inbox.
func (s *Service) inbox(w http.ResponseWriter, r *http.Request) {
	p, ok := s.me(w, r)
	if !ok {
		return
	}
	ns, err := s.cfg.Store.Inbox(r.Context(), p.ID, InboxSize)
	if err != nil {
		s.storeError(w, err)
		return
	}
	in := Inbox{Items: []Item{}}
	for _, n := range ns {
		in.Items = append(in.Items, Item{ID: n.ID, Kind: n.Kind, Payload: n.Payload, Created: n.Created.UTC(), Read: !n.Read.IsZero()})
		if n.Read.IsZero() {
			in.Unread++
		}
	}
	api.Write(w, http.StatusOK, in)
}

// markRead answers POST /api/me/inbox/read.
func (s *Service) markRead(w http.ResponseWriter, r *http.Request) {
	p, ok := s.me(w, r)
	if !ok {
		return
	}
	var b struct {
		IDs []string `json:"ids"`
	}
	if !api.Read(w, r, &b) {
		return
	}
	if len(b.IDs) > InboxSize {
		api.Error(w, http.StatusBadRequest, api.CodeBadRequest, "notify: too many ids at once")
		return
	}
	n, err := s.cfg.Store.MarkRead(r.Context(), p.ID, b.IDs, s.cfg.Now())
	if err != nil {
		s.storeError(w, err)
		return
	}
	api.Write(w, http.StatusOK, map[string]int{"marked": n})
}

// prefs answers GET /api/me/notifications.
func (s *Service) prefs(w http.ResponseWriter, r *http.Request) {
	if p, ok := s.me(w, r); ok {
		s.answerPrefs(w, r, p.ID)
	}
}

// answerPrefs writes player's choices: every kind on every channel.
func (s *Service) answerPrefs(w http.ResponseWriter, r *http.Request, player string) {
	made, err := s.cfg.Store.NotifyPrefs(r.Context(), player)
	if err != nil {
		s.storeError(w, err)
		return
	}
	c := Choices{Channels: s.channels(), Prefs: []store.Pref{}}
	if c.Channels == nil {
		c.Channels = []string{}
	}
	for _, k := range store.Kinds {
		for _, ch := range c.Channels {
			c.Prefs = append(c.Prefs, store.Pref{Kind: k, Channel: ch, On: chosen(made, k, ch)})
		}
	}
	c.Digest = s.digester() != nil && chosen(made, Digest, store.ChannelEmail)
	api.Write(w, http.StatusOK, c)
}

// setPref answers POST /api/me/notifications.
func (s *Service) setPref(w http.ResponseWriter, r *http.Request) {
	p, ok := s.me(w, r)
	if !ok {
		return
	}
	var b struct {
		Kind    string `json:"kind"`
		Channel string `json:"channel"`
		On      bool   `json:"on"`
	}
	if !api.Read(w, r, &b) {
		return
	}
	digest := b.Kind == Digest && b.Channel == store.ChannelEmail && s.digester() != nil
	if !digest && (!slices.Contains(store.Kinds, b.Kind) || !slices.Contains(store.Channels, b.Channel)) {
		api.Error(w, http.StatusBadRequest, api.CodeBadPref, "notify: no such kind or channel")
		return
	}
	if err := s.cfg.Store.SetNotifyPref(r.Context(), p.ID, store.Pref{Kind: b.Kind, Channel: b.Channel, On: b.On}); err != nil {
		s.storeError(w, err)
		return
	}
	s.answerPrefs(w, r, p.ID)
}

// storeError answers a failed store.
func (s *Service) storeError(w http.ResponseWriter, err error) {
	s.cfg.Logger.Error("notify: store", "err", err)
	api.Error(w, http.StatusInternalServerError, api.CodeStore, "notify: the store failed; try again")
}
