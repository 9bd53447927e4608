package server

import (
	"encoding/json"
	"errors"
	"net/http"
	"slices"
	"time"

	"tapis/account"
	"tapis/api"
	"tapis/lobby"
	"tapis/store"
)

// The quick-match queue's HTTP side (docs/API.md): a player joins, looks
// and leaves; package lobby's matcher, running on every node against the
// store, seats them. Nothing of the queue is held here.

// defaultQueueBot is the level of the bots a queue request gets when it
// names none: the middle one, a fair opponent for most.
const defaultQueueBot = "normal"

// queueReq asks to join the quick-match queue.
type queueReq struct {
	Game    string `json:"game"`
	Players int    `json:"players"`
	Bot     string `json:"bot"`
	// WaitSeconds is how long to wait for people before bots take the
	// free seats: nil for lobby.DefaultWait, -1 for never.
	WaitSeconds *int `json:"wait_seconds"`
	// Name makes a guest of a request without a player.
	Name string `json:"name"`
}

// entryResp is a queue entry as its player sees it.
type entryResp struct {
	Game        string    `json:"game"`
	Players     int       `json:"players"`
	Bot         string    `json:"bot"`
	WaitSeconds int       `json:"wait_seconds"`
	Joined      time.Time `json:"joined"`
	Table       string    `json:"table"`
	Seat        int       `json:"seat"`
}

func entryOf(e store.Entry) *entryResp {
	wait := -1
	if e.Wait >= 0 {
		wait = int(e.Wait / time.Second)
	}
	seat := e.Seat
	if e.Table == "" {
		seat = -1
	}
	return &entryResp{Game: e.Game, Players: e.Players, Bot: e.Bot, WaitSeconds: wait, Joined: e.Joined, Table: e.Table, Seat: seat}
}

// enqueue answers POST /api/queue.
func (s *Server) enqueue(w http.ResponseWriter, r *http.Request) {
	var req queueReq
	if !api.Read(w, r, &req) {
		return
	}
	// An entry may make a table (bots fill the seats nobody takes): it
	// spends a table creation of its client and network, as POST
	// /api/tables does.
	if !s.guard.allowCreate(w, r) {
		return
	}
	g := s.games[req.Game]
	if g == nil {
		api.Error(w, http.StatusBadRequest, api.CodeBadGame, "server: unknown game "+req.Game)
		return
	}
	if req.Bot == "" {
		req.Bot = defaultQueueBot
	}
	wait := lobby.DefaultWait
	if req.WaitSeconds != nil {
		wait = time.Duration(*req.WaitSeconds) * time.Second
	}
	if err := lobby.Check(g, req.Players, req.Bot, wait); err != nil {
		api.Refuse(w, http.StatusBadRequest, api.CodeBadQueue, err)
		return
	}
	p, ok := s.player(r)
	if !ok {
		name := account.CleanName(req.Name)
		if name == "" {
			api.Error(w, http.StatusBadRequest, api.CodeBadName, "server: a name is needed to play")
			return
		}
		var err error
		if p, err = s.acc.Ensure(w, r, name); err != nil {
			s.ensureFailed(w, err)
			return
		}
	}
	e := store.Entry{Player: p.ID, Name: p.Name, Game: g.Name(), Players: req.Players, Bot: req.Bot, Wait: wait, Joined: time.Now(), Seat: -1}
	if err := s.cfg.Store.Enqueue(r.Context(), e); err != nil {
		s.log.Error("enqueue", "err", err)
		api.Error(w, http.StatusInternalServerError, api.CodeStore, "server: the queue could not be joined")
		return
	}
	s.pokeMatcher()
	api.Write(w, http.StatusOK, map[string]any{"entry": entryOf(e)})
}

// queued answers GET /api/queue: the player's entry, waiting or seated.
// A seated entry is told to every request until the player leaves the
// queue (the web client does once it follows the entry to its table) or
// joins it again, or its table is no longer among their unfinished ones:
// told once, it was lost to whichever of a page's requests came first
// (issue 24, finding 16: a first visit's guest making raced the queue's
// poll). A page opened later offers the table rather than going there.
func (s *Server) queued(w http.ResponseWriter, r *http.Request) {
	p, ok := s.player(r)
	if !ok {
		api.Write(w, http.StatusOK, map[string]any{"entry": nil})
		return
	}
	e, err := s.cfg.Store.QueueEntry(r.Context(), p.ID)
	switch {
	case errors.Is(err, store.ErrNotFound):
		api.Write(w, http.StatusOK, map[string]any{"entry": nil})
		return
	case err != nil:
		s.log.Error("queue entry", "err", err)
		api.Error(w, http.StatusInternalServerError, api.CodeStore, "server: the queue could not be read")
		return
	}
	if e.Table != "" && !s.unfinished(r, p.ID, e.Table) {
		if err := s.cfg.Store.LeaveQueue(r.Context(), p.ID); err != nil {
			s.log.Error("leave queue", "err", err)
		}
		api.Write(w, http.StatusOK, map[string]any{"entry": nil})
		return
	}
	api.Write(w, http.StatusOK, map[string]any{"entry": entryOf(e)})
}

// unfinished reports whether table is among player's unfinished tables
// (true when the store cannot tell: the entry is kept, not lost).
func (s *Server) unfinished(r *http.Request, player, table string) bool {
	ts, err := s.cfg.Store.PlayerTables(r.Context(), player)
	if err != nil {
		s.log.Error("player tables", "err", err)
		return true
	}
	return slices.ContainsFunc(ts, func(t store.PlayerTable) bool { return t.ID == table })
}

// dequeue answers POST /api/queue/leave.
func (s *Server) dequeue(w http.ResponseWriter, r *http.Request) {
	var req struct{}
	if !api.Read(w, r, &req) {
		return
	}
	if p, ok := s.player(r); ok {
		if err := s.cfg.Store.LeaveQueue(r.Context(), p.ID); err != nil {
			s.log.Error("leave queue", "err", err)
			api.Error(w, http.StatusInternalServerError, api.CodeStore, "server: the queue could not be left")
			return
		}
	}
	api.Write(w, http.StatusOK, map[string]any{"entry": nil})
}

// pokeMatcher wakes the matcher at once rather than at its next round.
func (s *Server) pokeMatcher() {
	select {
	case s.wakeQueue <- struct{}{}:
	default:
	}
}

// buildQueued makes the table the matcher seats queued people at: the
// game's default options, the people in the first seats in the order the
// matcher gives them (the longest waiting first, who hosts), bots of the
// level asked in the others, and its first match started in the same
// write. A person's seat gets a token nobody holds: their session is
// their way in.
func (s *Server) buildQueued(gameName string, players int, people []store.Entry, level string) (store.Table, *store.Start, error) {
	now := time.Now()
	tab := store.Table{ID: randomID(), Game: gameName, Players: players, Options: json.RawMessage("{}"), Created: now, Active: now,
		Seats: make([]store.Seat, players), Host: 0, Creator: "queue"}
	for i, e := range people {
		tab.Seats[i] = store.Seat{Name: e.Name, Player: e.Player, TokenHash: hashToken(randomToken())}
	}
	for i := len(people); i < players; i++ {
		tab.Seats[i] = store.Seat{Name: level, Bot: level}
	}
	return tab, &store.Start{No: 1, Seed: s.cfg.Seed()}, nil
}
