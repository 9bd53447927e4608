package history

import (
	"errors"
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"time"

	"tapis/api"
	"tapis/store"
)

// A page of "My games" holds DefaultMine matches unless the request asks
// for fewer or more, never more than MaxMine: each line is a match
// replayed, in one of the history's slots.
const (
	DefaultMine = 20
	MaxMine     = 50
)

// mineSeat is a seat as a line of "My games" shows it.
type mineSeat struct {
	Name  string `json:"name"`
	Bot   string `json:"bot,omitempty"`
	Score int    `json:"score"`
	// Place is the seat's place, 1 first; equal places tie.
	Place int `json:"place"`
}

// mineMatch is a line of "My games": one finished match of the player.
type mineMatch struct {
	Table string `json:"table"`
	Match int    `json:"match"`
	Game  string `json:"game"`
	// Date is when the table was created (a match keeps no time).
	Date   time.Time  `json:"date"`
	Rated  bool       `json:"rated"`
	Public bool       `json:"public"`
	Seat   int        `json:"seat"`
	Place  int        `json:"place"`
	Score  int        `json:"score"`
	Seats  []mineSeat `json:"seats"`
}

// minePage is a page of "My games" and the cursor of the next ("" for
// none).
type minePage struct {
	Matches []mineMatch `json:"matches"`
	Next    string      `json:"next"`
}

// Mine answers GET /api/me/matches?before=CURSOR&limit=N: the finished
// matches the signed-in player sat in, rated or not, public or not,
// newest first, a page at a time (next is the cursor of the page after;
// "" at the end). Each is replayed for its scores and places: the store
// keeps only a rated match's. A match the store holds but that cannot be
// replayed to its end is left out (logged), not the whole page.
func (s *Service) Mine(w http.ResponseWriter, r *http.Request) {
	player, ok := "", false
	if s.cfg.Me != nil {
		player, ok = s.cfg.Me(r)
	}
	if !ok {
		api.Error(w, http.StatusUnauthorized, api.CodeSignedOut, "server: sign in to see your games")
		return
	}
	q := r.URL.Query()
	after, err := ParseCursor(q.Get("before"))
	if err != nil {
		api.Error(w, http.StatusBadRequest, api.CodeBadRequest, fmt.Sprintf("server: %q is not a cursor of this list", q.Get("before")))
		return
	}
	limit := DefaultMine
	if v := q.Get("limit"); v != "" {
		n, err := strconv.Atoi(v)
		if err != nil || n < 1 {
			api.Error(w, http.StatusBadRequest, api.CodeBadRequest, fmt.Sprintf("server: limit %q is not a positive number", v))
			return
		}
		limit = min(n, MaxMine)
	}
	// One more than asked tells whether a page follows.
	ps, err := s.cfg.Store.PlayedMatches(r.Context(), player, after, limit+1)
	if err != nil {
		s.log.Error("history: my matches", "player", player, "err", err)
		api.Error(w, http.StatusInternalServerError, api.CodeStore, "server: your games could not be read; try again")
		return
	}
	out := minePage{Matches: []mineMatch{}}
	if len(ps) > limit {
		ps = ps[:limit]
		out.Next = FormatCursor(ps[len(ps)-1].Cursor())
	}
	if !s.slot(w, r) {
		return
	}
	defer s.release()
	for _, p := range ps {
		m, err := s.line(r, p)
		if err != nil {
			s.log.Error("history: my matches", "table", p.Table, "match", p.No, "err", err)
			continue
		}
		out.Matches = append(out.Matches, m)
	}
	api.Write(w, http.StatusOK, out)
}

// line replays match p to its end for its line of "My games".
func (s *Service) line(r *http.Request, p store.Played) (mineMatch, error) {
	sv, err := s.cfg.Store.Match(r.Context(), p.Table, p.No)
	if err != nil {
		return mineMatch{}, err
	}
	g := s.games[sv.Game]
	if g == nil {
		return mineMatch{}, fmt.Errorf("no game %q here", sv.Game)
	}
	st, err := Played(g, sv)
	if err == nil && !st.Over() {
		err = errNotOver
	}
	if err != nil {
		return mineMatch{}, err
	}
	res := st.Result()
	ranks := res.Ranks()
	m := mineMatch{Table: p.Table, Match: p.No, Game: p.Game, Date: p.Created, Rated: p.Rated, Public: p.Public, Seat: p.Seat,
		Seats: make([]mineSeat, 0, len(sv.Seats))}
	for i, se := range sv.Seats {
		ms := mineSeat{Name: se.Name, Bot: se.Bot}
		if i < len(res.Scores) {
			ms.Score, ms.Place = res.Scores[i], ranks[i]+1
		}
		m.Seats = append(m.Seats, ms)
	}
	if p.Seat < len(m.Seats) {
		m.Place, m.Score = m.Seats[p.Seat].Place, m.Seats[p.Seat].Score
	}
	return m, nil
}

// FormatCursor writes a cursor of "My games" as its requests carry it:
// the table's creation in Unix milliseconds, the match number and the
// table id, joined by dots.
func FormatCursor(c store.PlayedCursor) string {
	return fmt.Sprintf("%d.%d.%s", c.Created.UnixMilli(), c.No, c.Table)
}

// ParseCursor reads FormatCursor's text; "" is the zero cursor (the
// newest first).
func ParseCursor(v string) (store.PlayedCursor, error) {
	if v == "" {
		return store.PlayedCursor{}, nil
	}
	parts := strings.SplitN(v, ".", 3)
	if len(parts) != 3 || parts[2] == "" {
		return store.PlayedCursor{}, errBadCursor
	}
	ms, err1 := strconv.ParseInt(parts[0], 10, 64)
	no, err2 := strconv.Atoi(parts[1])
	if err1 != nil || err2 != nil || no < 1 {
		return store.PlayedCursor{}, errBadCursor
	}
	return store.PlayedCursor{Created: time.UnixMilli(ms), Table: parts[2], No: no}, nil
}

var errBadCursor = errors.New("history: not a cursor")
