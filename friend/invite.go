package friend

import (
	"net/http"
	"slices"

	"tapis/api"
	"tapis/store"
)

// Invitations (issue 29): a player seated at an open table invites a
// friend to it; the friend gets an "invitation" notification whose link
// is the table's page, where one click seats them.

// invite answers POST /api/me/invitations {"table", "username" or
// "player"}. Inviting a friend to the same table again within
// InviteEvery notifies nobody, and is answered as the first.
func (s *Service) invite(w http.ResponseWriter, r *http.Request) {
	me, ok := s.me(w, r)
	if !ok || !s.allow(w, r, me.ID) {
		return
	}
	var b struct {
		Table    string `json:"table"`
		Username string `json:"username"`
		Player   string `json:"player"`
	}
	if !api.Read(w, r, &b) {
		return
	}
	o, ok := s.lookup(w, r, me, target{Username: b.Username, Player: b.Player}, true)
	if !ok {
		return
	}
	ctx := r.Context()
	rs, err := s.cfg.Store.Relations(ctx, me.ID)
	if err != nil {
		s.storeError(w, err)
		return
	}
	if !slices.ContainsFunc(rs, func(rel store.Relation) bool { return rel.Player == o.ID && rel.State == store.Friend }) {
		api.Error(w, http.StatusForbidden, api.CodeNotFriends, "friend: invitations are for friends")
		return
	}
	t, err := s.cfg.Store.Load(ctx, b.Table)
	if err != nil || t.Closed != store.NotClosed || t.Match != nil && t.Match.Over {
		api.Error(w, http.StatusNotFound, api.CodeNoTable, "friend: no such open table")
		return
	}
	if !slices.ContainsFunc(t.Seats, func(st store.Seat) bool { return st.Player == me.ID && st.Bot == "" }) {
		api.Error(w, http.StatusForbidden, api.CodeNotSeated, "friend: invite to a table where you sit")
		return
	}
	now := s.cfg.Now()
	took, err := s.cfg.Store.Pace(ctx, o.ID, "invitation/"+t.ID+"/"+me.ID, now, now.Add(InviteEvery))
	if err != nil {
		s.storeError(w, err)
		return
	}
	if took && s.cfg.Notifier != nil {
		payload := map[string]string{"table": t.ID, "game": t.Game, "player": me.ID, "name": me.Name, "username": me.Username}
		if err := s.cfg.Notifier.Notify(ctx, o.ID, store.KindInvitation, payload); err != nil {
			s.cfg.Logger.Warn("friend: notifying an invitation", "to", o.ID, "err", err)
		}
	}
	api.Write(w, http.StatusOK, map[string]string{"table": t.ID, "invited": o.ID})
}
