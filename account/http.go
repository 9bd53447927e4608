package account

import (
	"context"
	"errors"
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
		api.Error(w, http.StatusBadRequest, api.CodeBadName, ErrNameEmpty.Error())
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
		if !s.mayRename(w, r, p, name) {
			return
		}
		if err := s.players.RenamePlayer(r.Context(), p.ID, name); err != nil {
			storeError(w)
			return
		}
		p.Name = name
		s.changed(p)
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
	if p.ID != "" {
		// The sockets opened under the ended session(s) close; the
		// player's browsers still signed in connect again.
		s.revoked(p.ID, req.Everywhere)
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
		api.Error(w, http.StatusConflict, api.CodeGuest, "account: a guest has no password; claim a username first")
		return
	}
	// Checked before the old one, so that a refused new password costs
	// no hash.
	if err := checkNewPassword(req.New); err != nil {
		api.Error(w, http.StatusBadRequest, api.CodeBadPassword, err.Error())
		return
	}
	ctx, done, ok := s.passwordRight(w, r, p, req.Old)
	if !ok {
		return
	}
	// The new hash is the same request's: it runs under the same turn of
	// the player's one hash at a time.
	phc, err := s.hasher.Hash(ctx, req.New)
	done()
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
	// Whoever knew the old password may be playing on a socket opened
	// under a session just ended: it closes (this browser's too, which
	// connects again under its session).
	s.revoked(p.ID, true)
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
	if p.Username != "" {
		_, done, ok := s.passwordRight(w, r, p, req.Password)
		if !ok {
			return
		}
		done()
	}
	if err := s.players.DeletePlayer(r.Context(), p.ID); err != nil {
		storeError(w)
		return
	}
	s.changed(store.Player{ID: p.ID, Created: p.Created, Deleted: true})
	s.revoked(p.ID, true)
	s.clearCookie(w, r)
	api.Write(w, http.StatusOK, me{})
}

// passwordRight checks the signed-in player's password, spending the
// budgets of a hash and of their account, answering and returning false
// unless it is right. When right, it returns the context to hash under
// and done, which ends the player's turn of hashing: the caller calls it.
func (s *Service) passwordRight(w http.ResponseWriter, r *http.Request, p store.Player, password string) (context.Context, func(), bool) {
	if err := checkPasswordSize(password); err != nil {
		api.Error(w, http.StatusBadRequest, api.CodeBadPassword, err.Error())
		return nil, nil, false
	}
	ctx, done, err := s.hashing(r, p.ID, charge{s.accounts, p.UsernameKey})
	if err != nil {
		s.fail(w, r, err)
		return nil, nil, false
	}
	if s.device(r, p.UsernameKey) != "" {
		// The session and a valid device cookie for the account: its
		// owner, whose hashes go before a flood's (fair.go).
		ctx = withPriority(ctx)
	}
	ok, err := s.checkPassword(ctx, p, password)
	switch {
	case err != nil:
		done()
		s.fail(w, r, err)
		return nil, nil, false
	case !ok:
		done()
		api.Error(w, http.StatusForbidden, api.CodeWrongPassword, "account: wrong password")
		return nil, nil, false
	}
	return ctx, done, true
}

// found answers for current's error, if any, and reports whether there
// was none.
func (s *Service) found(w http.ResponseWriter, err error) bool {
	switch {
	case err == nil:
		return true
	case errors.Is(err, store.ErrNotFound):
		api.Error(w, http.StatusUnauthorized, api.CodeSignedOut, "account: this browser is not signed in")
	default:
		storeError(w)
	}
	return false
}

// fail answers for an error of Ensure, a rate limit or the Hasher.
func (s *Service) fail(w http.ResponseWriter, r *http.Request, err error) {
	var lim *LimitError
	var full *QueueFullError
	switch {
	case errors.As(err, &lim):
		w.Header().Set("Retry-After", limit.RetryAfter(lim.Retry))
		api.Error(w, http.StatusTooManyRequests, api.CodeTooFast, lim.Error())
	case errors.As(err, &full):
		w.Header().Set("Retry-After", limit.RetryAfter(full.Retry))
		api.Error(w, http.StatusTooManyRequests, api.CodeTooFast, full.Error())
	case errors.Is(err, ErrNameEmpty):
		api.Error(w, http.StatusBadRequest, api.CodeBadName, err.Error())
	case errors.Is(err, ErrPasswordEmpty), errors.Is(err, ErrPasswordTooShort), errors.Is(err, ErrPasswordTooLong):
		api.Error(w, http.StatusBadRequest, api.CodeBadPassword, err.Error())
	case errors.Is(err, ErrMalformedHash):
		api.Error(w, http.StatusInternalServerError, api.CodeStore, "account: the stored password cannot be read")
	case r.Context().Err() != nil:
		// The Hasher gave up waiting as the request ended: nobody reads
		// this answer, but it must not say the store failed.
		api.Error(w, http.StatusServiceUnavailable, api.CodeGone, err.Error())
	default:
		storeError(w)
	}
}

func storeError(w http.ResponseWriter) {
	api.Error(w, http.StatusInternalServerError, api.CodeStore, "account: the store failed; try again")
}
