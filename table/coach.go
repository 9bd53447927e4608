package table

import (
	"context"
	"encoding/json"
	"net/http"

	"tapis/analysis"
	"tapis/api"
	"tapis/game"
)

// The coach (issue 27): at an unrated table created with the coach on
// (store.Table.Coach), a player whose turn it is may ask for a hint, the
// hard bot's choice for their seat from their seat's knowledge only, with
// its estimated value (package analysis's Hint). Every hint is counted,
// per seat and match, in the store, and the table's info shows the counts
// to everyone (wire.Table's Hints), for the score sheet.

// coachState is a table's coach: whether it is on, and the hints each
// seat used in match.
type coachState struct {
	on    bool
	match int
	hints map[int]int
}

// list is the hints of each seat in match no (nil when none was used).
func (c *coachState) list(no, players int) []int {
	if !c.on || c.match != no || len(c.hints) == 0 {
		return nil
	}
	out := make([]int, players)
	for s, n := range c.hints {
		if s >= 0 && s < players {
			out[s] = n
		}
	}
	return out
}

// note records that seat has used n hints in match no.
func (c *coachState) note(no, seat, n int) {
	if c.match != no || c.hints == nil {
		c.match, c.hints = no, map[int]int{}
	}
	c.hints[seat] = n
}

// loadHints reads the hints of the table's match from the store, when a
// coached table is loaded in the middle of a match.
func (t *table) loadHints(ctx context.Context) {
	if !t.coach.on || t.match == 0 {
		return
	}
	h, err := t.srv.cfg.Store.Hints(ctx, t.id, t.match)
	if err != nil {
		t.srv.log.Warn("hints", "table", t.id, "err", err)
		return
	}
	for s, n := range h {
		t.coach.note(t.match, s, n)
	}
}

// hintResp is POST /api/tables/{id}/hint's answer.
type hintResp struct {
	// Move is the hard bot's choice, in REPLAY.md's form; Value the
	// seat's estimated win chance after it, 0 to 1.
	Move  json.RawMessage `json:"move"`
	Value float64         `json:"value"`
	// N is the move count of the position the hint is for; Hints the
	// hints the seat has used in this match, this one included.
	N     int `json:"n"`
	Hints int `json:"hints"`
}

// postHint answers POST /api/tables/{id}/hint for the seat of ?token= or
// of the signed-in player: a hint for the position where that seat must
// act. It is paced as a move over HTTP is, and thought in the bot pool,
// in line with the bots.
func (s *Host) postHint(w http.ResponseWriter, r *http.Request) {
	t, token, p := s.seatRequest(w, r)
	if t == nil {
		return
	}
	var (
		seat        game.Seat
		err         error
		refusal     *api.Refusal
		st          game.State
		hard        game.Player
		n, match    int
		seed        uint64
		name        string
		refuseAfter = func(code, reason, words string) {
			refusal = &api.Refusal{Code: code, Reason: reason, Error: words}
		}
	)
	if cerr := s.callAwake(r.Context(), t, func(t *table) { // sleep.go: a table gone to sleep since is woken
		if seat, err = t.seatFor(token, p.ID); err != nil {
			return
		}
		switch {
		case t.rated:
			refuseAfter(api.CodeNoCoach, api.ReasonRated, "server: this table is rated: no coach gives hints at a rated table")
		case !t.coach.on:
			refuseAfter(api.CodeNoCoach, api.ReasonCoachOff, "server: this table was created without the coach")
		case t.st == nil:
			err = errNoMatch
		case t.st.Over():
			refuseAfter(api.CodeOver, "", "server: the game is over")
		case !t.st.ToMove().Has(seat):
			refuseAfter(api.CodeRefused, game.ReasonNotYourTurn, "server: a hint is for your turn")
		}
		if err != nil || refusal != nil {
			return
		}
		st, n, match, name = t.st.Clone(), t.n, t.match, t.g.Name()
		seed = s.botSeed(t.seed, seat, t.n) ^ 0x636f616368 // "coach"
		hard = t.botFor("hard", seat)
	}); cerr != nil {
		api.Error(w, http.StatusServiceUnavailable, api.CodeClosed, cerr.Error())
		return
	}
	switch {
	case refuseSeat(w, err):
		return
	case refusal != nil:
		api.Write(w, http.StatusConflict, *refusal)
		return
	}
	var mv game.Move
	var val float64
	if !s.thinkers.Think(r.Context(), func() { mv, val = analysis.Hint(game.KnowledgeOf(st, seat), hard, seed) }) {
		return // the client has gone
	}
	b, merr := s.games[name].MarshalMove(mv)
	if merr != nil {
		api.Error(w, http.StatusInternalServerError, api.CodeBroken, merr.Error())
		return
	}
	used, serr := s.cfg.Store.AddHint(r.Context(), t.id, match, int(seat))
	if serr != nil {
		s.log.Error("hint", "table", t.id, "err", serr)
		api.Error(w, http.StatusInternalServerError, api.CodeStore, "server: the hint could not be counted; try again")
		return
	}
	_ = t.post(context.WithoutCancel(r.Context()), func() {
		t.coach.note(match, int(seat), used)
		if t.match == match {
			t.broadcastInfo()
		}
	})
	api.Write(w, http.StatusOK, hintResp{Move: b, Value: val, N: n, Hints: used})
}

// coachRefused checks a create request's coach: never at a rated table.
func coachRefused(req createReq) *api.Refusal {
	if req.Coach && req.Rated {
		return &api.Refusal{Code: api.CodeBadCoach, Reason: api.ReasonRated,
			Error: "server: the coach is for unrated tables: a rated table's players play without hints"}
	}
	return nil
}
