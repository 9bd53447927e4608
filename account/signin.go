package account

import (
	"errors"
	"fmt"
	"net/http"

	"tapis/api"
	"tapis/store"
)

// credentials is the body of a claim and a sign-in.
type credentials struct {
	Username string `json:"username"`
	Password string `json:"password"`
}

// Claim answers POST /api/account/claim: the guest signed in takes a
// username and a password, so that it can sign in elsewhere. The guest
// has one hash at a time and the store takes a username for a player who
// has none only, so that of several claims sent at once one wins; the
// browser then gets a new session (the guest's ends), as a session
// learnt while a guest must not become the account's.
func (s *Service) Claim(w http.ResponseWriter, r *http.Request) {
	var req credentials
	if !api.Read(w, r, &req) {
		return
	}
	p, sess, err := s.current(r)
	if !s.found(w, err) {
		return
	}
	if p.Username != "" {
		api.Error(w, http.StatusConflict, api.CodeClaimed, fmt.Sprintf("account: you are %s already", p.Username))
		return
	}
	username, err := CleanUsername(req.Username)
	if err != nil {
		api.Error(w, http.StatusBadRequest, api.CodeBadUsername, err.Error())
		return
	}
	if err := checkNewPassword(req.Password); err != nil {
		api.Error(w, http.StatusBadRequest, api.CodeBadPassword, err.Error())
		return
	}
	ctx, done, err := s.hashing(r, p.ID)
	if err != nil {
		s.fail(w, r, err)
		return
	}
	defer done()
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
	phc, err := s.hasher.Hash(ctx, req.Password)
	if err != nil {
		s.fail(w, r, err)
		return
	}
	switch err := s.players.ClaimUsername(r.Context(), p.ID, username, key, phc); {
	case errors.Is(err, store.ErrTaken): // taken meanwhile
		taken(w, username)
		return
	case errors.Is(err, store.ErrClaimed): // another claim of theirs won
		api.Error(w, http.StatusConflict, api.CodeClaimed, "account: you have claimed a username already")
		return
	case err != nil:
		storeError(w)
		return
	}
	if err := s.signIn(w, r, p.ID, sess.Hash); err != nil {
		storeError(w)
		return
	}
	s.setDevice(w, r, key)
	// Sockets opened under the guest's session close, and the page
	// connects again under the new one: whoever had learnt the old one
	// keeps nothing of the account.
	s.revoked(p.ID, false)
	p.Username, p.UsernameKey, p.Password = username, key, phc
	api.Write(w, http.StatusOK, me{View(p)})
}

func taken(w http.ResponseWriter, username string) {
	api.Error(w, http.StatusConflict, api.CodeTaken, fmt.Sprintf("account: the username %s is taken", username))
}

// badCredentials is the one answer to a failed sign-in, whatever failed,
// so that it never tells whether a username exists.
func badCredentials(w http.ResponseWriter) {
	api.Error(w, http.StatusUnauthorized, api.CodeBadCredentials, "account: wrong username or password")
}

// SignIn answers POST /api/account/signin: this browser becomes the
// player with that username, in a new session replacing its own.
//
// An unknown username and a wrong password get the same answer after the
// same work (one hash). Both spend the budgets of a hash (hashing); a
// username that exists spends its account's budget too, or that of the
// browser's device cookie for it (device.go). An unknown one has no
// budget of its own, so that made-up usernames cannot fill the memory of
// budgets and push out a locked account's (issue 24, finding 11).
func (s *Service) SignIn(w http.ResponseWriter, r *http.Request) {
	var req credentials
	if !api.Read(w, r, &req) {
		return
	}
	// Refusing an empty or huge password says nothing about the account.
	if err := checkPasswordSize(req.Password); err != nil {
		api.Error(w, http.StatusBadRequest, api.CodeBadPassword, err.Error())
		return
	}
	key := ""
	if username, err := CleanUsername(req.Username); err == nil {
		key = UsernameKey(username)
	}
	guest, sess, gerr := s.current(r)
	asker := ""
	if gerr == nil {
		asker = guest.ID
	}
	ctx, done, err := s.hashing(r, asker)
	if err != nil {
		s.fail(w, r, err)
		return
	}
	defer done()
	var p store.Player
	err = store.ErrNotFound
	if key != "" {
		p, err = s.players.PlayerByUsername(r.Context(), key)
	}
	switch {
	case errors.Is(err, store.ErrNotFound) || err == nil && p.Deleted:
		if err := s.hasher.VerifyNone(ctx, req.Password); err != nil {
			s.fail(w, r, err)
			return
		}
		badCredentials(w)
		return
	case err != nil:
		storeError(w)
		return
	}
	budget := s.signInBudget(r, key)
	if err := spend(budget); err != nil {
		s.fail(w, r, err)
		return
	}
	if budget.rates == s.devices {
		// A valid device cookie for the account (checked above, before
		// any hash): a returning owner, served before the flood.
		ctx = withPriority(ctx)
	}
	ok, err := s.checkPassword(ctx, p, req.Password)
	switch {
	case err != nil:
		s.fail(w, r, err)
		return
	case !ok:
		badCredentials(w)
		return
	}
	old := ""
	if gerr == nil {
		old = sess.Hash
	}
	if err := s.signIn(w, r, p.ID, old); err != nil {
		storeError(w)
		return
	}
	s.setDevice(w, r, key)
	if gerr == nil && guest.Username == "" && guest.ID != p.ID {
		// A guest signing in to their account on this browser keeps the
		// games they are playing: their seats go to the account.
		if err := s.players.MoveSeats(r.Context(), guest.ID, p.ID, p.Name); err == nil {
			s.moved(guest.ID, p)
		}
	}
	if gerr == nil {
		// As for a claim: the sockets of the session replaced close.
		s.revoked(guest.ID, false)
	}
	api.Write(w, http.StatusOK, me{View(p)})
}

// mayRename spends a token of p's renames and asks the server whether p
// may be called name at the tables where they sit, answering and
// returning false if not. Issue 24, finding 10: a seated player renamed
// to "alice" beside "Alice", and 3,674 times in 5 s, each shown at the
// table.
func (s *Service) mayRename(w http.ResponseWriter, r *http.Request, p store.Player, name string) bool {
	if retry, ok := s.renames.Allow(p.ID); !ok {
		s.fail(w, r, &LimitError{What: "renames", Retry: retry})
		return false
	}
	switch err := s.renaming(r.Context(), p, name); {
	case errors.Is(err, ErrNameTaken):
		api.Error(w, http.StatusConflict, api.CodeNameTaken, err.Error())
		return false
	case err != nil:
		storeError(w)
		return false
	}
	return true
}
