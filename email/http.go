package email

import (
	"context"
	"crypto/rand"
	"encoding/base64"
	"errors"
	"html/template"
	"net/http"
	"net/mail"
	"strconv"
	"time"

	"tapis/account"
	"tapis/api"
	"tapis/limit"
	"tapis/notify"
	"tapis/store"
)

// Routes registers the addresses' and the links' routes on mux:
//
//	GET  /api/me/email          the player's address: {"address","lang","verified"}
//	POST /api/me/email          {"address","lang"}: set it (and mail its verification link); "" removes it
//	GET  /api/email/verify      ?t=…: the verification link
//	GET  /api/unsubscribe       ?t=…: the unsubscribe page, a button that POSTs
//	POST /api/unsubscribe       ?t=…: unsubscribe (RFC 8058's one click, or the page's button)
//
// The POST of /api/me/email needs account.SameOrigin in front;
// /api/unsubscribe's comes from mail services, which send no Origin.
func (s *Service) Routes(mux *http.ServeMux) {
	mux.HandleFunc("GET /api/me/email", s.get)
	mux.HandleFunc("POST /api/me/email", s.set)
	mux.HandleFunc("GET /api/email/verify", s.verify)
	mux.HandleFunc("GET /api/unsubscribe", s.stopPage)
	mux.HandleFunc("POST /api/unsubscribe", s.stop)
}

// newID returns a random id: 16 bytes, base64url.
func newID() string {
	b := make([]byte, 16)
	rand.Read(b)
	return base64.RawURLEncoding.EncodeToString(b)
}

// Address is a player's address as the API shows it.
type Address struct {
	Address  string `json:"address"`
	Lang     string `json:"lang"`
	Verified bool   `json:"verified"`
}

// me returns the signed-in player with a username, or answers and
// returns false.
func (s *Service) me(w http.ResponseWriter, r *http.Request) (store.Player, bool) {
	return account.Named(w, r, s.cfg.Player, "email: notifications are for players with a username")
}

// get answers GET /api/me/email.
func (s *Service) get(w http.ResponseWriter, r *http.Request) {
	p, ok := s.me(w, r)
	if !ok {
		return
	}
	e, err := s.cfg.Store.Email(r.Context(), p.ID)
	if err != nil && !errors.Is(err, store.ErrNotFound) {
		s.storeError(w, err)
		return
	}
	api.Write(w, http.StatusOK, Address{Address: e.Address, Lang: e.Lang, Verified: e.Verified})
}

// set answers POST /api/me/email.
func (s *Service) set(w http.ResponseWriter, r *http.Request) {
	p, ok := s.me(w, r)
	if !ok {
		return
	}
	var b struct {
		Address string `json:"address"`
		Lang    string `json:"lang"`
	}
	if !api.Read(w, r, &b) {
		return
	}
	if b.Address == "" {
		if err := s.cfg.Store.SetEmail(r.Context(), store.Email{Player: p.ID}); err != nil {
			s.storeError(w, err)
			return
		}
		api.Write(w, http.StatusOK, Address{})
		return
	}
	a, err := mail.ParseAddress(b.Address)
	if err != nil || a.Address != b.Address || len(b.Address) > 254 {
		api.Error(w, http.StatusBadRequest, api.CodeBadAddress, "email: not an e-mail address (give the address alone)")
		return
	}
	if b.Lang != "en" && b.Lang != "fr" {
		api.Error(w, http.StatusBadRequest, api.CodeBadLang, `email: the language is "en" or "fr"`)
		return
	}
	if !s.allow(w, r, p.ID) {
		return
	}
	e := store.Email{Player: p.ID, Address: b.Address, Lang: b.Lang}
	if old, err := s.cfg.Store.Email(r.Context(), p.ID); err == nil && old.Address == e.Address && old.Verified {
		// The same address in another language stays verified.
		e.Verified = true
	}
	if err := s.cfg.Store.SetEmail(r.Context(), e); err != nil {
		s.storeError(w, err)
		return
	}
	if !e.Verified {
		ctx, cancel := context.WithTimeout(r.Context(), 15*time.Second)
		defer cancel()
		if err := s.sendVerification(ctx, p.ID, e.Address, e.Lang); err != nil {
			s.cfg.Logger.Warn("email: a verification mail", "player", p.ID, "err", err)
			api.Error(w, http.StatusServiceUnavailable, api.CodeMailFailed, "email: the verification mail could not be sent; try again")
			return
		}
	}
	api.Write(w, http.StatusOK, Address{Address: e.Address, Lang: e.Lang, Verified: e.Verified})
}

// allow spends a token of the player's and their network's budgets of
// verification mails, or answers and returns false.
func (s *Service) allow(w http.ResponseWriter, r *http.Request, player string) bool {
	retry, ok := s.cfg.PerPlayer.Allow(player)
	if ok && s.cfg.Network != nil {
		retry, ok = s.cfg.PerNetwork.Allow(s.cfg.Network(r))
	}
	if !ok {
		w.Header().Set("Retry-After", limit.RetryAfter(retry))
		api.Error(w, http.StatusTooManyRequests, api.CodeTooFast, "email: too many addresses given; try again later")
	}
	return ok
}

// page is the little HTML the links answer with.
var page = template.Must(template.New("").Parse(`<!doctype html>
<html lang="{{.Lang}}"><meta charset="utf-8"><meta name="viewport" content="width=device-width">
<title>Tapis</title>
<p>{{.Text}}</p>
{{if .Button}}<form method="post"><button type="submit">{{.Button}}</button></form>{{end}}
<p><a href="/">Tapis</a></p>
</html>
`))

// pageWords are the pages' words, by language.
var pageWords = map[string]map[string]string{
	"en": {"verified": "Your address is confirmed: Tapis's notifications will come to it.",
		"bad": "This link does not work (any more).", "stop": "Stop these mails?", "button": "Stop them",
		"stopped": "Done: you will not receive these mails any more."},
	"fr": {"verified": "Votre adresse est confirmée : les notifications de Tapis y viendront.",
		"bad": "Ce lien ne fonctionne pas (ou plus).", "stop": "Ne plus recevoir ces messages ?", "button": "Ne plus les recevoir",
		"stopped": "C'est fait : vous ne recevrez plus ces messages."},
}

// show answers with a page in lang, saying key, with a button if button
// is not "".
func show(w http.ResponseWriter, status int, lang, key, button string) {
	lang = langOf(lang)
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.Header().Set("Cache-Control", "no-store")
	w.WriteHeader(status)
	page.Execute(w, map[string]string{"Lang": lang, "Text": pageWords[lang][key], "Button": pageWords[lang][button]})
}

// verify answers GET /api/email/verify: a link sent to the address.
func (s *Service) verify(w http.ResponseWriter, r *http.Request) {
	lang := r.URL.Query().Get("lang")
	f := s.open(r.URL.Query().Get("t"), tokVerify, 4)
	if f == nil {
		show(w, http.StatusNotFound, lang, "bad", "")
		return
	}
	exp, err := strconv.ParseInt(f[3], 10, 64)
	if err != nil || s.cfg.Now().Unix() > exp {
		show(w, http.StatusNotFound, lang, "bad", "")
		return
	}
	e, err := s.cfg.Store.Email(r.Context(), f[1])
	if err == nil {
		lang = e.Lang
		err = s.cfg.Store.VerifyEmail(r.Context(), f[1], f[2])
	}
	switch {
	case errors.Is(err, store.ErrNotFound):
		show(w, http.StatusNotFound, lang, "bad", "")
	case err != nil:
		s.storeError(w, err)
	default:
		show(w, http.StatusOK, lang, "verified", "")
	}
}

// stopToken returns the fields of an unsubscribe link's token, stop or
// forget, nil if it is neither.
func (s *Service) stopToken(r *http.Request) []string {
	t := r.URL.Query().Get("t")
	if f := s.open(t, tokStop, 3); f != nil {
		return f
	}
	return s.open(t, tokForget, 3)
}

// stopPage answers GET /api/unsubscribe: a page asking, since a GET must
// change nothing (mail scanners open links).
func (s *Service) stopPage(w http.ResponseWriter, r *http.Request) {
	f := s.stopToken(r)
	if f == nil {
		show(w, http.StatusNotFound, "", "bad", "")
		return
	}
	show(w, http.StatusOK, s.lang(r, f[1]), "stop", "button")
}

// stop answers POST /api/unsubscribe: RFC 8058's one click (a body
// "List-Unsubscribe=One-Click"), or the page's button. The token alone
// decides; the body is not needed.
func (s *Service) stop(w http.ResponseWriter, r *http.Request) {
	f := s.stopToken(r)
	if f == nil {
		show(w, http.StatusNotFound, "", "bad", "")
		return
	}
	ctx := r.Context()
	lang := s.lang(r, f[1])
	var err error
	switch {
	case f[0] == tokStop && f[2] == notify.Digest:
		// A digest's: every kind it gathers, off by e-mail.
		for _, k := range notify.DigestKinds {
			if err = s.cfg.Store.SetNotifyPref(ctx, f[1], store.Pref{Kind: k, Channel: store.ChannelEmail, On: false}); err != nil {
				break
			}
		}
	case f[0] == tokStop:
		err = s.cfg.Store.SetNotifyPref(ctx, f[1], store.Pref{Kind: f[2], Channel: store.ChannelEmail, On: false})
	default:
		if e, gerr := s.cfg.Store.Email(ctx, f[1]); gerr == nil && e.Address == f[2] {
			err = s.cfg.Store.SetEmail(ctx, store.Email{Player: f[1]})
		}
	}
	if err != nil {
		s.storeError(w, err)
		return
	}
	show(w, http.StatusOK, lang, "stopped", "")
}

// lang is the language of player's mails.
func (s *Service) lang(r *http.Request, player string) string {
	e, _ := s.cfg.Store.Email(r.Context(), player)
	return e.Lang
}

// storeError answers a failed store.
func (s *Service) storeError(w http.ResponseWriter, err error) {
	s.cfg.Logger.Error("email: store", "err", err)
	api.Error(w, http.StatusInternalServerError, api.CodeStore, "email: the store failed; try again")
}
