package friend

import (
	"errors"
	"net/http"
	"slices"
	"time"

	"tapis/account"
	"tapis/api"
	"tapis/limit"
	"tapis/store"
)

// Routes registers the friends list on mux:
//
//	GET    /api/me/friends                the list: friends (with online), requests both ways, blocks
//	POST   /api/me/friends                {"username"}: ask a player to be a friend
//	POST   /api/me/friends/{id}/accept    accept id's request
//	POST   /api/me/friends/{id}/decline   decline id's request
//	DELETE /api/me/friends/{id}           remove a friend, or withdraw one's request
//	POST   /api/me/blocks                 {"username"} or {"player"}: block a player
//	DELETE /api/me/blocks/{id}            lift a block
//	POST   /api/me/invitations            {"table","username" or "player"}: invite a friend to a table (invite.go)
//
// Every write answers the list as GET does. They are for signed-in
// players with a username; the POSTs need account.SameOrigin in front.
func (s *Service) Routes(mux *http.ServeMux) {
	mux.HandleFunc("GET /api/me/friends", s.list)
	mux.HandleFunc("POST /api/me/friends", s.request)
	mux.HandleFunc("POST /api/me/friends/{id}/accept", s.accept)
	mux.HandleFunc("POST /api/me/friends/{id}/decline", s.unfriend)
	mux.HandleFunc("DELETE /api/me/friends/{id}", s.unfriend)
	mux.HandleFunc("POST /api/me/blocks", s.block)
	mux.HandleFunc("DELETE /api/me/blocks/{id}", s.unblock)
	mux.HandleFunc("POST /api/me/invitations", s.invite)
}

// Person is another player in the list.
type Person struct {
	ID       string    `json:"id"`
	Name     string    `json:"name"`
	Username string    `json:"username"`
	Since    time.Time `json:"since"`
	// Online is set for friends only, when the server knows.
	Online bool `json:"online,omitempty"`
}

// List is the friends list.
type List struct {
	Friends  []Person `json:"friends"`
	Incoming []Person `json:"incoming"`
	Outgoing []Person `json:"outgoing"`
	Blocked  []Person `json:"blocked"`
}

// me returns the signed-in player with a username, or answers and
// returns false.
func (s *Service) me(w http.ResponseWriter, r *http.Request) (store.Player, bool) {
	return account.Named(w, r, s.cfg.Player, "friend: friends are for players with a username")
}

// list answers GET /api/me/friends.
func (s *Service) list(w http.ResponseWriter, r *http.Request) {
	if p, ok := s.me(w, r); ok {
		s.answer(w, r, p.ID)
	}
}

// answer writes player's list.
func (s *Service) answer(w http.ResponseWriter, r *http.Request, player string) {
	rs, err := s.cfg.Store.Relations(r.Context(), player)
	if err != nil {
		s.storeError(w, err)
		return
	}
	l := List{Friends: []Person{}, Incoming: []Person{}, Outgoing: []Person{}, Blocked: []Person{}}
	var friends []string
	for _, rel := range rs {
		pp := Person{ID: rel.Player, Name: rel.Name, Username: rel.Username, Since: rel.Since.UTC()}
		switch rel.State {
		case store.Friend:
			l.Friends = append(l.Friends, pp)
			friends = append(friends, rel.Player)
		case store.Incoming:
			l.Incoming = append(l.Incoming, pp)
		case store.Outgoing:
			l.Outgoing = append(l.Outgoing, pp)
		case store.Blocked:
			l.Blocked = append(l.Blocked, pp)
		}
	}
	if s.cfg.Presence != nil && len(friends) > 0 {
		on := s.cfg.Presence.Online(friends)
		for i := range l.Friends {
			l.Friends[i].Online = on[l.Friends[i].ID]
		}
	}
	api.Write(w, http.StatusOK, l)
}

// target is a request's body naming another player.
type target struct {
	Username string `json:"username"`
	Player   string `json:"player"`
}

// other reads the player a body names (by username, or by id where
// byID) and looks them up (lookup), or answers and returns false.
func (s *Service) other(w http.ResponseWriter, r *http.Request, me store.Player, byID bool) (store.Player, bool) {
	var b target
	if !api.Read(w, r, &b) {
		return store.Player{}, false
	}
	return s.lookup(w, r, me, b, byID)
}

// lookup finds the player b names, refusing oneself, or answers and
// returns false. A player without a username is not found by id either:
// they have no friends list, and cannot be blocked before they can ask
// anything.
func (s *Service) lookup(w http.ResponseWriter, r *http.Request, me store.Player, b target, byID bool) (store.Player, bool) {
	var o store.Player
	var err error
	switch {
	case b.Username != "" && b.Player == "":
		o, err = s.cfg.Store.PlayerByUsername(r.Context(), account.UsernameKey(b.Username))
	case byID && b.Player != "" && b.Username == "":
		o, err = s.cfg.Store.Player(r.Context(), b.Player)
	default:
		api.Error(w, http.StatusBadRequest, api.CodeBadRequest, "friend: name one player, by username")
		return store.Player{}, false
	}
	switch {
	case errors.Is(err, store.ErrNotFound) || err == nil && (o.Deleted || o.Username == ""):
		api.Error(w, http.StatusNotFound, api.CodeNoPlayer, "friend: no such player")
		return store.Player{}, false
	case err != nil:
		s.storeError(w, err)
		return store.Player{}, false
	case o.ID == me.ID:
		api.Error(w, http.StatusBadRequest, api.CodeSelf, "friend: that is you")
		return store.Player{}, false
	}
	return o, true
}

// allow spends a token of the player's and their network's budgets, or
// answers and returns false.
func (s *Service) allow(w http.ResponseWriter, r *http.Request, player string) bool {
	retry, ok := s.cfg.PerPlayer.Allow(player)
	what := "friend: too many friend requests and blocks; try again later"
	if ok && s.cfg.Network != nil {
		if retry, ok = s.cfg.PerNetwork.Allow(s.cfg.Network(r)); !ok {
			what = "friend: too many friend requests and blocks from your network; try again later"
		}
	}
	if !ok {
		w.Header().Set("Retry-After", limit.RetryAfter(retry))
		api.Error(w, http.StatusTooManyRequests, api.CodeTooFast, what)
	}
	return ok
}

// request answers POST /api/me/friends. A request to a player who
// blocked the asker is recorded and answered as any other, and they are
// not told of it.
func (s *Service) request(w http.ResponseWriter, r *http.Request) {
	me, ok := s.me(w, r)
	if !ok || !s.allow(w, r, me.ID) {
		return
	}
	o, ok := s.other(w, r, me, false)
	if !ok {
		return
	}
	ctx := r.Context()
	// Asking a player one blocked lifts the block: one changed one's mind.
	if err := s.cfg.Store.Unblock(ctx, me.ID, o.ID); err != nil {
		s.storeError(w, err)
		return
	}
	fresh, ok := s.bounded(w, r, me, o)
	if !ok {
		return
	}
	state, err := s.cfg.Store.RequestFriend(ctx, me.ID, o.ID, s.cfg.Now())
	if err != nil {
		s.storeError(w, err)
		return
	}
	if state == store.Outgoing && fresh {
		s.notify(r, me, o.ID)
	}
	s.answer(w, r, me.ID)
}

// notify tells to of from's request, unless to blocked from, or from
// withdrew a request to them less than RequestEvery ago.
func (s *Service) notify(r *http.Request, from store.Player, to string) {
	if s.cfg.Notifier == nil {
		return
	}
	ctx := r.Context()
	now := s.cfg.Now()
	// A turn that ends at once: taken only if no withdrawal's is running.
	if free, err := s.cfg.Store.Pace(ctx, to, withdrawn+from.ID, now, now); err != nil || !free {
		return
	}
	if blocked, err := s.Blocked(ctx, from.ID, to); err != nil || blocked {
		return
	}
	payload := map[string]string{"player": from.ID, "name": from.Name, "username": from.Username}
	if err := s.cfg.Notifier.Notify(ctx, to, store.KindFriendRequest, payload); err != nil {
		s.cfg.Logger.Warn("friend: notifying a friend request", "to", to, "err", err)
	}
}

// accept answers POST /api/me/friends/{id}/accept.
func (s *Service) accept(w http.ResponseWriter, r *http.Request) {
	me, ok := s.me(w, r)
	if !ok {
		return
	}
	switch err := s.cfg.Store.AcceptFriend(r.Context(), me.ID, r.PathValue("id"), s.cfg.Now()); {
	case errors.Is(err, store.ErrNotFound):
		api.Error(w, http.StatusNotFound, api.CodeNoRequest, "friend: that player has not asked to be your friend")
	case err != nil:
		s.storeError(w, err)
	default:
		s.answer(w, r, me.ID)
	}
}

// unfriend answers DELETE /api/me/friends/{id} and its decline: whatever
// is between the two but a block ends.
func (s *Service) unfriend(w http.ResponseWriter, r *http.Request) {
	me, ok := s.me(w, r)
	if !ok {
		return
	}
	ctx, other := r.Context(), r.PathValue("id")
	rs, err := s.cfg.Store.Relations(ctx, me.ID)
	if err != nil {
		s.storeError(w, err)
		return
	}
	if slices.ContainsFunc(rs, func(rel store.Relation) bool { return rel.Player == other && rel.State == store.Outgoing }) {
		// A request withdrawn: asking again soon notifies nobody.
		now := s.cfg.Now()
		if _, err := s.cfg.Store.Pace(ctx, other, withdrawn+me.ID, now, now.Add(RequestEvery)); err != nil {
			s.storeError(w, err)
			return
		}
	}
	if err := s.cfg.Store.Unfriend(ctx, me.ID, other); err != nil {
		s.storeError(w, err)
		return
	}
	s.answer(w, r, me.ID)
}

// withdrawn starts the pace key of the requests a player withdrew from
// another (RequestEvery), followed by their id.
const withdrawn = "friend_withdrawn/"

// block answers POST /api/me/blocks.
func (s *Service) block(w http.ResponseWriter, r *http.Request) {
	me, ok := s.me(w, r)
	if !ok || !s.allow(w, r, me.ID) {
		return
	}
	o, ok := s.other(w, r, me, true)
	if !ok {
		return
	}
	if err := s.cfg.Store.Block(r.Context(), me.ID, o.ID, s.cfg.Now()); err != nil {
		s.storeError(w, err)
		return
	}
	s.answer(w, r, me.ID)
}

// unblock answers DELETE /api/me/blocks/{id}.
func (s *Service) unblock(w http.ResponseWriter, r *http.Request) {
	me, ok := s.me(w, r)
	if !ok {
		return
	}
	if err := s.cfg.Store.Unblock(r.Context(), me.ID, r.PathValue("id")); err != nil {
		s.storeError(w, err)
		return
	}
	s.answer(w, r, me.ID)
}

// storeError answers a failed store.
func (s *Service) storeError(w http.ResponseWriter, err error) {
	s.cfg.Logger.Error("friend: store", "err", err)
	api.Error(w, http.StatusInternalServerError, api.CodeStore, "friend: the store failed; try again")
}
