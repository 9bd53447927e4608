package table

import (
	"errors"
	"strings"
	"time"

	"tapis/game"
	"tapis/rating"
	"tapis/store"
	"tapis/wire"
)

// Rated tables: chosen at creation, for signed-in players with a username
// only (bots may sit too: they are the anchors). When a rated match ends,
// its ranks (game.Result.Ranks: winners first, then by score; a seat a
// stand-in played for most of its moves last) go through package rating,
// bots fixed, and the store records the new ratings in one transaction,
// once per match: a replayed end finds it recorded (store.ErrRecorded).
// The leaderboards and profiles are served by package
// rating/leaderboard.

var errRatedAccount = errors.New("server: a rated table is for signed-in players with a username: sign in or claim a username first")

// claimed reports whether p may sit at a rated table.
func claimed(p store.Player, ok bool) bool { return ok && p.Username != "" && !p.Deleted }

// botID is the player id under which a bot level's anchor is stored.
func botID(level string) string {
	if level == "heuristic" {
		level = "easy" // the old name of the level
	}
	level, _, _ = strings.Cut(level, "@")
	return "bot:" + level
}

// countMove counts seat s's move about to be recorded: its player's own,
// or a stand-in's (an absent seat's, or one out of time). The counts are
// kept in memory only: after a restart the moves replayed count as
// nobody's, so a leaver is judged on the moves made since.
func (t *table) countMove(s game.Seat) {
	if int(s) >= len(t.seats) || t.seats[s].Bot != "" {
		return
	}
	if t.moved == nil {
		t.moved = make([][2]int, len(t.seats))
	}
	if t.seats[s].player != nil {
		t.moved[s][1]++
	} else {
		t.moved[s][0]++
	}
}

// left reports whether human seat s was played by a stand-in for most of
// its moves in this match.
func (t *table) left(s int) bool {
	return t.moved != nil && t.moved[s][1] > t.moved[s][0]
}

// goneLong reports whether human seat s has had nobody connected for
// longer than the abandonment time (Config.AbandonAfter): its player left
// the match, however few of its moves a stand-in made.
func (t *table) goneLong(s int) bool {
	seat := &t.seats[s]
	// At a turn-based table, days away are the rule: a player who stays
	// away loses their seat by their timeouts (days.go).
	return !t.days.on && seat.Bot == "" && seat.conns == 0 && time.Since(seat.away) >= t.srv.cfg.AbandonAfter
}

// rateMatch records the finished match's ratings, if the table is rated,
// and keeps each seat's change for the end panel. Recording is idempotent:
// a match recorded already (before a restart, by another node) is read
// back instead. A person who left ranks last: one whose moves a stand-in
// made most of, or gone longer than the abandonment time.
func (t *table) rateMatch() {
	if !t.rated || t.st == nil || !t.st.Over() {
		return
	}
	t.rate(func(s int) bool { return t.left(s) || t.goneLong(s) })
}

// rateAbandoned rates a rated match that is closed unfinished because
// nobody played it for the abandonment time: walking away is not a way
// out of a loss. Every person's seat ranks last (nobody stayed to play
// it; they tie), the bots by the scores so far.
func (t *table) rateAbandoned() {
	if !t.rated || t.st == nil || t.st.Over() {
		return
	}
	t.rate(func(s int) bool { return true })
}

// rate records the match's ratings as rateMatch says, the human seats
// for which leaver is true ranked last.
func (t *table) rate(leaver func(s int) bool) {
	ctx, cancel := t.srv.persist()
	defer cancel()
	res := t.st.Result()
	ranks := res.Ranks()
	m := store.RatedMatch{Table: t.id, No: t.match, Game: t.g.Name(), At: time.Now()}
	for i, seat := range t.seats {
		rs := store.RatedSeat{Seat: i, Player: seat.Player, Rank: ranks[i], Score: res.Scores[i]}
		if seat.Bot != "" && seat.Player != "" {
			// A player who left (leave.go): a bot played on, they lose.
			rs.Rank = len(t.seats)
		} else if seat.Bot != "" {
			rs.Player = botID(seat.Bot)
			// The anchor is written from the table in code at every
			// rated end: cheap, and a changed table takes effect.
			a, ok := rating.Anchor(m.Game, strings.TrimPrefix(rs.Player, "bot:"))
			if !ok {
				a = rating.Rating{Mu: rating.DefaultMu, Sigma: rating.AnchorSigma}
			}
			if err := t.srv.cfg.Store.SetAnchor(ctx, rs.Player, m.Game, a.Mu, a.Sigma); err != nil {
				t.srv.log.Error("rated: anchor", "table", t.id, "err", err)
				return
			}
		} else if leaver(i) {
			rs.Rank = len(t.seats) // after everyone; leavers tie
		}
		m.Seats = append(m.Seats, rs)
	}
	err := t.srv.cfg.Store.RecordRated(ctx, m, func(before []store.Standing) ([]store.Standing, error) {
		in := make([]rating.Rating, len(before))
		fixed := make([]bool, len(before))
		rk := make([]int, len(before))
		for i, b := range before {
			in[i], fixed[i], rk[i] = rating.Rating{Mu: b.Mu, Sigma: b.Sigma}, b.Fixed, m.Seats[i].Rank
			if b.New {
				in[i] = rating.New()
			}
		}
		out, err := rating.UpdateFixed(in, rk, fixed)
		if err != nil {
			return nil, err
		}
		after := make([]store.Standing, len(out))
		for i, r := range out {
			after[i] = store.Standing{Mu: r.Mu, Sigma: r.Sigma}
		}
		return after, nil
	})
	if err != nil && !errors.Is(err, store.ErrRecorded) {
		t.srv.log.Error("rated: record", "table", t.id, "match", t.match, "err", err)
		return
	}
	rows, err := t.srv.cfg.Store.MatchResults(ctx, t.id, t.match)
	if err != nil {
		t.srv.log.Error("rated: read back", "table", t.id, "match", t.match, "err", err)
		return
	}
	t.ratings = make([]wire.Rating, len(t.seats))
	for _, r := range rows {
		if r.Seat < 0 || r.Seat >= len(t.ratings) {
			continue
		}
		before := rating.Rating{Mu: r.MuBefore, Sigma: r.SigmaBefore}
		if r.SigmaBefore == 0 {
			before = rating.New() // the player's first rated game
		}
		after := rating.Rating{Mu: r.MuAfter, Sigma: r.SigmaAfter}
		t.ratings[r.Seat] = wire.Rating{Before: before.Display(), After: after.Display(), Provisional: after.Provisional()}
	}
}
