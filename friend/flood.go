package friend

import (
	"fmt"
	"net/http"

	"tapis/api"
	"tapis/limit"
	"tapis/store"
)

// Floods: one player's own requests are paced by Config.PerPlayer and
// PerNetwork, but many accounts, each within its pace, could still bury
// one player under requests. So the requests a player receives are
// bounded as well: those waiting (Config.MaxIncoming, in the store, so
// for a whole cluster) and the new ones over time (Config.PerRecipient,
// per node); and a request withdrawn, then made again, does not notify
// again before RequestEvery (notify). A request from a player the recipient
// blocked is counted as any other, so that no refusal tells of a block.

// bounded checks a request from me to o against o's bounds, and reports
// whether it is a new one (neither pending already, nor meeting o's
// request, nor between friends), or answers a refusal and returns false.
func (s *Service) bounded(w http.ResponseWriter, r *http.Request, me, o store.Player) (fresh, ok bool) {
	ctx := r.Context()
	mine, err := s.cfg.Store.Relations(ctx, me.ID)
	if err != nil {
		s.storeError(w, err)
		return false, false
	}
	for _, rel := range mine {
		if rel.Player == o.ID && rel.State != store.Blocked {
			return false, true // asked already, asked by them, or friends
		}
	}
	theirs, err := s.cfg.Store.Relations(ctx, o.ID)
	if err != nil {
		s.storeError(w, err)
		return false, false
	}
	waiting := 0
	for _, rel := range theirs {
		if rel.State == store.Incoming {
			waiting++
		}
	}
	if waiting >= s.cfg.MaxIncoming {
		api.Error(w, http.StatusConflict, api.CodeRequestsFull,
			fmt.Sprintf("friend: that player has %d friend requests waiting, the most they may; try again once they have answered some", waiting))
		return false, false
	}
	if retry, ok := s.cfg.PerRecipient.Allow(o.ID); !ok {
		w.Header().Set("Retry-After", limit.RetryAfter(retry))
		api.Error(w, http.StatusTooManyRequests, api.CodeRequestsTooFast,
			"friend: that player has been asked by too many players lately; try again later")
		return false, false
	}
	return true, true
}
