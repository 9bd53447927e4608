package server

import (
	"encoding/json"
	"errors"
	"net/http"
	"time"

	"tapis/account"
	"tapis/api"
	"tapis/limit"
	"tapis/store"
)

// The table host's side of players (package account keeps them): who a
// request's player is, their unfinished tables, and the lobby of public
// tables. Everything here is read from the store, so that any node answers
// the same.

// identity is what the table host needs of accounts: a request's player,
// and a guest made for a name when there is none.
type identity interface {
	Current(r *http.Request) (store.Player, bool)
	Ensure(w http.ResponseWriter, r *http.Request, name string) (store.Player, error)
}

// player returns the signed-in player of r, if any.
func (s *Server) player(r *http.Request) (store.Player, bool) {
	if s.acc == nil {
		return store.Player{}, false
	}
	return s.acc.Current(r)
}

// myTable is one of a player's unfinished tables.
type myTable struct {
	ID      string    `json:"id"`
	Game    string    `json:"game"`
	Players int       `json:"players"`
	Seat    int       `json:"seat"`
	Status  string    `json:"status"` // "waiting" or "playing"
	Created time.Time `json:"created"`
}

// myTables answers GET /api/me/tables: the signed-in player's unfinished
// tables, whichever device they were taken on.
func (s *Server) myTables(w http.ResponseWriter, r *http.Request) {
	out := struct {
		Tables []myTable `json:"tables"`
	}{Tables: []myTable{}}
	p, ok := s.player(r)
	if !ok {
		api.Write(w, http.StatusOK, out)
		return
	}
	ts, err := s.cfg.Store.PlayerTables(r.Context(), p.ID)
	if err != nil {
		s.log.Error("player tables", "err", err)
		api.Error(w, http.StatusInternalServerError, api.CodeStore, "server: your tables could not be read")
		return
	}
	for _, t := range ts {
		st := "waiting"
		if t.Started {
			st = "playing"
			if s.settle(r.Context(), t.ID) {
				continue // its match had ended before a crash (settle.go)
			}
		}
		out.Tables = append(out.Tables, myTable{ID: t.ID, Game: t.Game, Players: t.Players, Seat: t.Seat, Status: st, Created: t.Created})
	}
	api.Write(w, http.StatusOK, out)
}

// lobbySeat is a seat as the lobby shows it.
type lobbySeat struct {
	Name string `json:"name"`
	Bot  string `json:"bot,omitempty"`
	Free bool   `json:"free"`
}

// lobbyTable is a public table waiting for players.
type lobbyTable struct {
	ID          string          `json:"id"`
	Game        string          `json:"game"`
	Players     int             `json:"players"`
	Options     json.RawMessage `json:"options"`
	TurnSeconds int             `json:"turn_seconds"`
	Lang        string          `json:"lang"`
	Rated       bool            `json:"rated"`
	Seats       []lobbySeat     `json:"seats"`
	Created     time.Time       `json:"created"`
}

// lobbyLimit is the most tables the lobby lists at once.
const lobbyLimit = 100

// lobby answers GET /api/lobby[?game=cabo]: the public tables waiting for
// players where someone seated is connected or was within
// Config.ListedFor, newest first. The store says when a person was last
// at each (Table.Active), as the node holding the table keeps it (listNow
// at a seated person's first connection, then keepListed), so that every
// node of a cluster lists the same tables; a table nobody seated has
// opened yet is not listed at all.
func (s *Server) lobby(w http.ResponseWriter, r *http.Request) {
	g := r.URL.Query().Get("game")
	if g != "" && s.games[g] == nil {
		api.Error(w, http.StatusBadRequest, api.CodeBadGame, "server: unknown game "+g)
		return
	}
	// Every open home page asks every few seconds: one read of the store
	// a second per game serves them all, unless a table's seats changed.
	s.lobbyMu.Lock()
	defer s.lobbyMu.Unlock()
	gen := s.lobbyGen.Load()
	if c, ok := s.lobbyCache[g]; ok && c.gen == gen && time.Since(c.at) < lobbyFresh {
		w.Header().Set("Content-Type", "application/json")
		w.Write(c.body)
		return
	}
	ts, err := s.cfg.Store.WaitingTables(r.Context(), g, time.Now().Add(-s.listedFor()), lobbyLimit)
	if err != nil {
		s.log.Error("lobby", "err", err)
		api.Error(w, http.StatusInternalServerError, api.CodeStore, "server: the lobby could not be read")
		return
	}
	out := struct {
		Tables []lobbyTable `json:"tables"`
	}{Tables: []lobbyTable{}}
	for _, t := range ts {
		lt := lobbyTable{ID: t.ID, Game: t.Game, Players: t.Players, Options: t.Options,
			TurnSeconds: int(t.TurnTime / s.cfg.TurnUnit), Lang: t.Lang, Rated: t.Rated, Created: t.Created, Seats: []lobbySeat{}}
		for _, st := range t.Seats {
			lt.Seats = append(lt.Seats, lobbySeat{Name: st.Name, Bot: st.Bot, Free: st.Bot == "" && st.TokenHash == ""})
		}
		out.Tables = append(out.Tables, lt)
	}
	body, _ := json.Marshal(out)
	body = append(body, '\n')
	s.lobbyCache[g] = lobbyPage{body: body, at: time.Now(), gen: gen}
	w.Header().Set("Content-Type", "application/json")
	w.Write(body)
}

// listedFor is Config.ListedFor, or its default.
func (s *Server) listedFor() time.Duration {
	if s.cfg.ListedFor > 0 {
		return s.cfg.ListedFor
	}
	return time.Minute
}

// keepListed tells the store that the waiting tables loaded here where a
// seated person is connected are attended now (store.Touch), so that the
// lobby, on any node, lists them for another Config.ListedFor: it runs
// every quarter of it (sweep). A table nobody seated is connected to is
// left alone, and leaves the lobby once its last touch is that old
// (issue 24, finding 17).
func (s *Server) keepListed() {
	s.mu.Lock()
	ts := make([]*table, 0, len(s.tables))
	for _, t := range s.tables {
		ts = append(ts, t)
	}
	s.mu.Unlock()
	for _, t := range ts {
		touch := func() {
			if t.st != nil || !t.seatedConnected() {
				return
			}
			// A waiting table has no moves to delay: the write is done
			// on its goroutine, in order with its others.
			ctx, cancel := s.persist()
			defer cancel()
			if err := s.cfg.Store.Touch(ctx, t.id, time.Now()); err != nil {
				s.log.Error("touch table", "table", t.id, "err", err)
			}
		}
		// A table whose inbox is full is not waited for: the next round
		// touches it, well within ListedFor.
		select {
		case t.inbox <- touch:
		default:
		}
	}
}

// listNow tells the store that a seated person has just connected to the
// waiting table t, so that the lobby lists it at once rather than at
// keepListed's next round (a table is listed only once someone seated
// there has connected). It runs in the table's goroutine.
func (s *Server) listNow(t *table) {
	ctx, cancel := s.persist()
	defer cancel()
	if err := s.cfg.Store.Touch(ctx, t.id, time.Now()); err != nil {
		s.log.Error("touch table", "table", t.id, "err", err)
	}
	s.lobbyGen.Add(1)
}

// seatedConnected reports whether a person seated at the table is
// connected. It runs in the table's goroutine.
func (t *table) seatedConnected() bool {
	for _, st := range t.seats {
		if st.Bot == "" && st.conns > 0 {
			return true
		}
	}
	return false
}

// lobbyFresh is how long a read of the lobby is served again.
const lobbyFresh = time.Second

// lobbyPage is a lobby answer as last read from the store, when, and at
// which generation of this node's seat changes (Server.lobbyGen): a change
// here is seen at once, one on another node within lobbyFresh.
type lobbyPage struct {
	body []byte
	at   time.Time
	gen  int64
}

// ensureFailed answers a request whose guest could not be made.
func (s *Server) ensureFailed(w http.ResponseWriter, err error) {
	var le *account.LimitError
	switch {
	case errors.As(err, &le):
		w.Header().Set("Retry-After", limit.RetryAfter(le.Retry))
		api.Error(w, http.StatusTooManyRequests, api.CodeTooFast, err.Error())
	case errors.Is(err, account.ErrNameEmpty):
		api.Error(w, http.StatusBadRequest, api.CodeBadName, "server: a name is needed to play")
	default:
		s.log.Error("guest", "err", err)
		api.Error(w, http.StatusInternalServerError, api.CodeStore, "server: your player could not be saved")
	}
}

// seatsMoved makes the loaded tables where guest from sat seat the account
// to instead, as the store has done (store.MoveSeats), so that the
// account's session reaches those seats at once.
func (s *Server) seatsMoved(from string, to store.Player) {
	s.reseatEverywhere(to.ID, from, to)
}

// playerChanged makes the loaded tables where a player sits show their
// new name, or none once they deleted their account (the page then says
// "deleted player"); the store has changed the seats already, for the
// tables asleep.
func (s *Server) playerChanged(p store.Player) {
	s.reseatEverywhere(p.ID, p.ID, p)
}

// reseat gives the seats of player was at the loaded tables among those
// the store lists for player to now, to p under p's name, and tells each
// table's connections.
func (s *Server) reseat(now, was string, p store.Player) {
	ctx, cancel := s.persist()
	defer cancel()
	ts, err := s.cfg.Store.PlayerTables(ctx, now)
	if err != nil {
		s.log.Error("player tables", "err", err)
		return
	}
	for _, pt := range ts {
		s.mu.Lock()
		t := s.tables[pt.ID]
		s.mu.Unlock()
		if t == nil {
			continue
		}
		t.post(ctx, func() {
			for i := range t.seats {
				if t.seats[i].Player == was && t.seats[i].Bot == "" {
					t.seats[i].Player, t.seats[i].Name = p.ID, p.Name
				}
			}
			t.broadcastInfo()
		})
	}
}
