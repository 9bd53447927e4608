package account

import (
	"errors"
	"fmt"
	"net/http"

	"tapis/api"
	"tapis/limit"
	"tapis/store"
)

// Routes registers the account API on mux:
//
//	GET  /api/me                   who this browser is: {"player": {...} or null}
//	POST /api/me                   {"name"}: become a guest, or rename oneself
//	POST /api/account/claim        {"username","password"}: a guest takes a username
//	POST /api/account/signin       {"username","password"}: sign this browser in
//	POST /api/account/signout      {"everywhere"}: end this session, or all of them
//	POST /api/account/password     {"old","new"}: change the password
//	POST /api/account/delete       {"password"}: delete the account
//
// Answers are JSON; errors are {"code": "…", "error": "words"}, as the
// server's. The POSTs need SameOrigin in front of them.
func (s *Service) Routes(mux *http.ServeMux) {
	mux.HandleFunc("GET /api/me", s.Me)
	mux.HandleFunc("POST /api/me", s.SetMe)
	mux.HandleFunc("POST /api/account/claim", s.Claim)
	mux.HandleFunc("POST /api/account/signin", s.SignIn)
	mux.HandleFunc("POST /api/account/signout", s.SignOut)
	mux.HandleFunc("POST /api/account/password", s.ChangePassword)
	mux.HandleFunc("POST /api/account/delete", s.Delete)
}

// PlayerView is a player as the API shows it to themselves.
type PlayerView struct {
	ID       string `json:"id"`
	Name     string `json:"name"`
	Username string `json:"username"`
	Guest    bool   `json:"guest"`
}

// View returns p as the API shows it.
func View(p store.Player) *PlayerView {
	return &PlayerView{ID: p.ID, Name: p.Name, Username: p.Username, Guest: p.Username == ""}
}

// me is every successful answer: the player this browser now is, or null.
type me struct {
	Player *PlayerView `json:"player"`
}

// Me answers GET /api/me.
func (s *Service) Me(w http.ResponseWriter, r *http.Request) {
	p, _, err := s.current(r)
	switch {
	case errors.Is(err, store.ErrNotFound):
		api.Write(w, http.StatusOK, me{})
	case err != nil:
		storeError(w)
	default:
		api.Write(w, http.StatusOK, me{View(p)})
	}
}

// SetMe answers POST /api/me {"name"}: a browser signed in renames its
// player; another becomes a new guest of that name.
func (s *Service) SetMe(w http.ResponseWriter, r *http.Request) {
	var req struct {
		Name string `json:"name"`
	}
	if !api.Read(w, r, &req) {
		return
	}
	name := CleanName(req.Name)
	if name == "" {
		api.Error(w, http.StatusBadRequest, "bad_name", ErrNameEmpty.Error())
		return
	}
	p, _, err := s.current(r)
	switch {
	case errors.Is(err, store.ErrNotFound):
		p, err = s.Ensure(w, r, name)
		if err != nil {
			s.fail(w, r, err)
			return
		}
	case err != nil:
		storeError(w)
		return
	case p.Name != name:
		if err := s.players.RenamePlayer(r.Context(), p.ID, name); err != nil {
			storeError(w)
			return
		}
		p.Name = name
		s.changed(p)
	}
	api.Write(w, http.StatusOK, me{View(p)})
}

// credentials is the body of a claim and a sign-in.
type credentials struct {
	Username string `json:"username"`
	Password string `json:"password"`
}

// Claim answers POST /api/account/claim: the guest signed in takes a
// username and a password, so that it can sign in elsewhere.
func (s *Service) Claim(w http.ResponseWriter, r *http.Request) {
	var req credentials
	if !api.Read(w, r, &req) {
		return
	}
	p, ok := s.signedIn(w, r)
	if !ok {
		return
	}
	if p.Username != "" {
		api.Error(w, http.StatusConflict, "claimed", fmt.Sprintf("account: you are %s already", p.Username))
		return
	}
	username, err := CleanUsername(req.Username)
	if err != nil {
		api.Error(w, http.StatusBadRequest, "bad_username", err.Error())
		return
	}
	if err := checkNewPassword(req.Password); err != nil {
		api.Error(w, http.StatusBadRequest, "bad_password", err.Error())
		return
	}
	// Whether a username is taken is no secret when claiming one; asking
	// before hashing spares a hash when it is.
	key := UsernameKey(username)
	switch _, err := s.players.PlayerByUsername(r.Context(), key); {
	case err == nil:
		taken(w, username)
		return
	case !errors.Is(err, store.ErrNotFound):
		storeError(w)
		return
	}
	phc, err := s.hasher.Hash(r.Context(), req.Password)
	if err != nil {
		s.fail(w, r, err)
		return
	}
	switch err := s.players.ClaimUsername(r.Context(), p.ID, username, key, phc); {
	case errors.Is(err, store.ErrTaken): // taken meanwhile
		taken(w, username)
		return
	case errors.Is(err, store.ErrClaimed): // another claim of theirs won
		api.Error(w, http.StatusConflict, "claimed", "account: you have claimed a username already")
		return
	case err != nil:
		storeError(w)
		return
	}
	p.Username, p.UsernameKey, p.Password = username, key, phc
	api.Write(w, http.StatusOK, me{View(p)})
}

func taken(w http.ResponseWriter, username string) {
	api.Error(w, http.StatusConflict, "taken", fmt.Sprintf("account: the username %s is taken", username))
}

// badCredentials is the one answer to a failed sign-in, whatever failed,
// so that it never tells whether a username exists.
func badCredentials(w http.ResponseWriter) {
	api.Error(w, http.StatusUnauthorized, "bad_credentials", "account: wrong username or password")
}

// SignIn answers POST /api/account/signin: this browser becomes the
// player with that username, in a new session replacing its own.
//
// An unknown username and a wrong password get the same answer after the
// same work (one hash), and both spend the address's and the username's
// budget of attempts, checked before hashing.
func (s *Service) SignIn(w http.ResponseWriter, r *http.Request) {
	var req credentials
	if !api.Read(w, r, &req) {
		return
	}
	// Refusing an empty or huge password says nothing about the account.
	if err := checkPasswordSize(req.Password); err != nil {
		api.Error(w, http.StatusBadRequest, "bad_password", err.Error())
		return
	}
	key := ""
	if username, err := CleanUsername(req.Username); err == nil {
		key = UsernameKey(username)
	}
	// A name that cannot be a username is charged to the address only,
	// and answered as an unknown one.
	if err := s.allowCheck(r, key); err != nil {
		s.fail(w, r, err)
		return
	}
	var p store.Player
	err := store.ErrNotFound
	if key != "" {
		p, err = s.players.PlayerByUsername(r.Context(), key)
	}
	switch {
	case errors.Is(err, store.ErrNotFound) || err == nil && p.Deleted:
		if err := s.hasher.VerifyNone(r.Context(), req.Password); err != nil {
			s.fail(w, r, err)
			return
		}
		badCredentials(w)
		return
	case err != nil:
		storeError(w)
		return
	}
	ok, err := s.hasher.Verify(r.Context(), req.Password, p.Password)
	switch {
	case err != nil:
		s.fail(w, r, err)
		return
	case !ok:
		badCredentials(w)
		return
	}
	if NeedsRehash(p.Password) {
		s.rehash(r, p.ID, req.Password)
	}
	old := ""
	guest, sess, err := s.current(r)
	if err == nil {
		old = sess.Hash
	}
	if err := s.signIn(w, r, p.ID, old); err != nil {
		storeError(w)
		return
	}
	if err == nil && guest.Username == "" && guest.ID != p.ID {
		// A guest signing in to their account on this browser keeps the
		// games they are playing: their seats go to the account.
		if err := s.players.MoveSeats(r.Context(), guest.ID, p.ID, p.Name); err == nil {
			s.moved(guest.ID, p)
		}
	}
	api.Write(w, http.StatusOK, me{View(p)})
}

// SignOut answers POST /api/account/signout {"everywhere"}: it ends this
// browser's session, or every session of its player, and clears the
// cookie. Signing out when signed out is not an error.
func (s *Service) SignOut(w http.ResponseWriter, r *http.Request) {
	var req struct {
		Everywhere bool `json:"everywhere"`
	}
	if !api.Read(w, r, &req) {
		return
	}
	p, sess, err := s.current(r)
	switch {
	case errors.Is(err, store.ErrNotFound):
	case err != nil:
		storeError(w)
		return
	case req.Everywhere:
		err = s.players.DeleteSessions(r.Context(), p.ID, "")
	default:
		err = s.players.DeleteSession(r.Context(), sess.Hash)
	}
	if err != nil && !errors.Is(err, store.ErrNotFound) {
		storeError(w)
		return
	}
	s.clearCookie(w, r)
	api.Write(w, http.StatusOK, me{})
}

// ChangePassword answers POST /api/account/password {"old","new"}: the
// player's password becomes new if old is right, and every other session
// of theirs ends, so that whoever learnt the old one is shut out.
func (s *Service) ChangePassword(w http.ResponseWriter, r *http.Request) {
	var req struct {
		Old string `json:"old"`
		New string `json:"new"`
	}
	if !api.Read(w, r, &req) {
		return
	}
	p, sess, err := s.current(r)
	if !s.found(w, err) {
		return
	}
	if p.Username == "" {
		api.Error(w, http.StatusConflict, "guest", "account: a guest has no password; claim a username first")
		return
	}
	// Checked before the old one, so that a refused new password costs
	// no hash.
	if err := checkNewPassword(req.New); err != nil {
		api.Error(w, http.StatusBadRequest, "bad_password", err.Error())
		return
	}
	if !s.passwordRight(w, r, p, req.Old) {
		return
	}
	phc, err := s.hasher.Hash(r.Context(), req.New)
	if err != nil {
		s.fail(w, r, err)
		return
	}
	if err := s.players.SetPassword(r.Context(), p.ID, phc); err != nil {
		storeError(w)
		return
	}
	if err := s.players.DeleteSessions(r.Context(), p.ID, sess.Hash); err != nil {
		storeError(w)
		return
	}
	api.Write(w, http.StatusOK, me{View(p)})
}

// Delete answers POST /api/account/delete {"password"}: the player's
// personal data is removed (the store keeps their finished games under a
// deleted player) with all their sessions, and the cookie is cleared. A
// claimed account needs its password, so that a browser left signed in is
// not enough to delete it; a guest has none to give.
func (s *Service) Delete(w http.ResponseWriter, r *http.Request) {
	var req struct {
		Password string `json:"password"`
	}
	if !api.Read(w, r, &req) {
		return
	}
	p, _, err := s.current(r)
	if !s.found(w, err) {
		return
	}
	if p.Username != "" && !s.passwordRight(w, r, p, req.Password) {
		return
	}
	if err := s.players.DeletePlayer(r.Context(), p.ID); err != nil {
		storeError(w)
		return
	}
	s.changed(store.Player{ID: p.ID, Created: p.Created, Deleted: true})
	s.clearCookie(w, r)
	api.Write(w, http.StatusOK, me{})
}

// passwordRight checks the signed-in player's password, answering and
// returning false unless it is right.
func (s *Service) passwordRight(w http.ResponseWriter, r *http.Request, p store.Player, password string) bool {
	if err := checkPasswordSize(password); err != nil {
		api.Error(w, http.StatusBadRequest, "bad_password", err.Error())
		return false
	}
	ok, err := s.checkPassword(r, p, password)
	switch {
	case err != nil:
		s.fail(w, r, err)
		return false
	case !ok:
		api.Error(w, http.StatusForbidden, "wrong_password", "account: wrong password")
		return false
	}
	return true
}

// signedIn returns the player signed in on r's browser, or answers 401
// (or 500) and returns false.
func (s *Service) signedIn(w http.ResponseWriter, r *http.Request) (store.Player, bool) {
	p, _, err := s.current(r)
	return p, s.found(w, err)
}

// found answers for current's error, if any, and reports whether there
// was none.
func (s *Service) found(w http.ResponseWriter, err error) bool {
	switch {
	case err == nil:
		return true
	case errors.Is(err, store.ErrNotFound):
		api.Error(w, http.StatusUnauthorized, "signed_out", "account: this browser is not signed in")
	default:
		storeError(w)
	}
	return false
}

// fail answers for an error of Ensure, a rate limit or the Hasher.
func (s *Service) fail(w http.ResponseWriter, r *http.Request, err error) {
	var lim *LimitError
	switch {
	case errors.As(err, &lim):
		w.Header().Set("Retry-After", limit.RetryAfter(lim.Retry))
		api.Error(w, http.StatusTooManyRequests, "too_fast", lim.Error())
	case errors.Is(err, ErrNameEmpty):
		api.Error(w, http.StatusBadRequest, "bad_name", err.Error())
	case errors.Is(err, ErrPasswordEmpty), errors.Is(err, ErrPasswordTooShort), errors.Is(err, ErrPasswordTooLong):
		api.Error(w, http.StatusBadRequest, "bad_password", err.Error())
	case errors.Is(err, ErrMalformedHash):
		api.Error(w, http.StatusInternalServerError, "store", "account: the stored password cannot be read")
	case r.Context().Err() != nil:
		// The Hasher gave up waiting as the request ended: nobody reads
		// this answer, but it must not say the store failed.
		api.Error(w, http.StatusServiceUnavailable, "gone", err.Error())
	default:
		storeError(w)
	}
}

func storeError(w http.ResponseWriter) {
	api.Error(w, http.StatusInternalServerError, "store", "account: the store failed; try again")
}
