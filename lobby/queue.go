package lobby

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

// The quick-match queue's HTTP side (docs/API.md): a player joins, looks
// and leaves; the Matcher, running on every node against the store, seats
// them. Nothing of the queue is held in memory.

// defaultQueueBot is the level of the bots a queue request gets when it
// names none: the middle one, a fair opponent for most.
const defaultQueueBot = "normal"

// queueReq asks to join the quick-match queue.
type queueReq struct {
	Game    string `json:"game"`
	Players int    `json:"players"`
	Bot     string `json:"bot"`
	// WaitSeconds is how long to wait for people before bots take the
	// free seats: nil for DefaultWait, -1 for never.
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

// Enqueue answers POST /api/queue.
func (s *Service) Enqueue(w http.ResponseWriter, r *http.Request) {
	var req queueReq
	if !api.Read(w, r, &req) {
		return
	}
	// An entry may make a table (bots fill the seats nobody takes): it
	// spends a table creation of its client and network, as POST
	// /api/tables does.
	if !s.cfg.AllowCreate(w, r) {
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
	wait := DefaultWait
	if req.WaitSeconds != nil {
		wait = time.Duration(*req.WaitSeconds) * time.Second
	}
	if err := Check(g, req.Players, req.Bot, wait); err != nil {
		api.Refuse(w, http.StatusBadRequest, api.CodeBadQueue, err)
		return
	}
	p, ok := s.cfg.Accounts.Current(r)
	if !ok {
		name := account.CleanName(req.Name)
		if name == "" {
			api.Error(w, http.StatusBadRequest, api.CodeBadName, "server: a name is needed to play")
			return
		}
		var err error
		if p, err = s.cfg.Accounts.Ensure(w, r, name); err != nil {
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

// Queued answers GET /api/queue: the player's entry, waiting or seated.
// A seated entry is told to every request until the player leaves the
// queue (the web client does once it follows the entry to its table) or
// joins it again, or its table is no longer among their unfinished ones:
// told once, it was lost to whichever of a page's requests came first
// (issue 24, finding 16: a first visit's guest making raced the queue's
// poll). A page opened later offers the table rather than going there.
func (s *Service) Queued(w http.ResponseWriter, r *http.Request) {
	p, ok := s.cfg.Accounts.Current(r)
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
func (s *Service) unfinished(r *http.Request, player, table string) bool {
	ts, err := s.cfg.Store.PlayerTables(r.Context(), player)
	if err != nil {
		s.log.Error("player tables", "err", err)
		return true
	}
	return slices.ContainsFunc(ts, func(t store.PlayerTable) bool { return t.ID == table })
}

// Dequeue answers POST /api/queue/leave.
func (s *Service) Dequeue(w http.ResponseWriter, r *http.Request) {
	var req struct{}
	if !api.Read(w, r, &req) {
		return
	}
	if p, ok := s.cfg.Accounts.Current(r); ok {
		if err := s.cfg.Store.LeaveQueue(r.Context(), p.ID); err != nil {
			s.log.Error("leave queue", "err", err)
			api.Error(w, http.StatusInternalServerError, api.CodeStore, "server: the queue could not be left")
			return
		}
	}
	api.Write(w, http.StatusOK, map[string]any{"entry": nil})
}

// pokeMatcher wakes the matcher at once rather than at its next round.
func (s *Service) pokeMatcher() {
	select {
	case s.wake <- struct{}{}:
	default:
	}
}

// ensureFailed answers a request whose guest could not be made.
func (s *Service) ensureFailed(w http.ResponseWriter, err error) {
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
