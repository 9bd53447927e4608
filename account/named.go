package account

import (
	"net/http"

	"tapis/api"
	"tapis/store"
)

// Named returns the signed-in player of r, as player finds them, if they
// have a username; otherwise it answers 401 signed_out or 403
// needs_account (with the words why) and returns false. The rooms for
// players with an account (friends, notifications) ask it first.
func Named(w http.ResponseWriter, r *http.Request, player func(*http.Request) (store.Player, bool), why string) (store.Player, bool) {
	p, ok := player(r)
	switch {
	case !ok:
		api.Error(w, http.StatusUnauthorized, api.CodeSignedOut, "nobody is signed in")
	case p.Username == "":
		api.Error(w, http.StatusForbidden, api.CodeNeedsAccount, why)
		ok = false
	}
	return p, ok
}
