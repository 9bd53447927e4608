package lobby

import (
	"context"
	"encoding/json"
	"log/slog"
	"net/http"
	"sync"
	"time"

	"tapis/api"
	"tapis/game"
	"tapis/store"
)

// The lobby's HTTP side: where a player finds a table. Everything here is
// read from the store, so that any node answers the same.

// Store is what the lobby reads and writes of the store: the public
// tables waiting for players, the quick-match queue, and a player's
// unfinished tables.
type Store interface {
	store.Lobby
	store.Queue
	// PlayerTables returns the open tables where a player has a seat.
	PlayerTables(ctx context.Context, player string) ([]store.PlayerTable, error)
}

// Host is the table host as the lobby sees it.
type Host interface {
	// Build makes the table of a group that quick match seats
	// (BuildFunc): the host's tables are made as it makes its own.
	Build(game string, players int, people []store.Entry, botLevel string) (store.Table, *store.Start, error)
	// Settle is asked about a table whose match the store holds
	// unfinished: it reports true if the match's moves had ended the
	// game (before a crash) and the host has now marked it over.
	Settle(ctx context.Context, table string) bool
	// SeatChanges is a count the host raises whenever the seats of one
	// of its tables change, so that a lobby page read before is read
	// again at once.
	SeatChanges() int64
}

// Identity is what the lobby needs of accounts (an *account.Service):
// a request's player, and a guest made for a name when there is none.
type Identity interface {
	Current(r *http.Request) (store.Player, bool)
	Ensure(w http.ResponseWriter, r *http.Request, name string) (store.Player, error)
}

// Config sets up a Service. Every field but Logger is required.
type Config struct {
	Store Store
	// Games are the games offered.
	Games []game.Game
	Host  Host
	// Accounts tells who a request's player is (package account).
	Accounts Identity
	// AllowCreate spends a table creation of the request's client and
	// network, or answers the request itself and returns false: a queue
	// entry may make a table.
	AllowCreate func(w http.ResponseWriter, r *http.Request) bool
	// ListedFor is how long the lobby lists a public table waiting for
	// players after anyone seated there was last connected.
	ListedFor time.Duration
	// TurnUnit is what a table's "turn_seconds" counts.
	TurnUnit time.Duration
	// Logger receives the errors (default slog.Default()).
	Logger *slog.Logger
}

// Service answers the lobby's requests and runs quick match's matcher.
type Service struct {
	cfg   Config
	games map[string]game.Game
	log   *slog.Logger
	// wake wakes the matcher when a player joins the queue.
	wake chan struct{}
	// cache holds each game's lobby answer for a second (List).
	mu    sync.Mutex
	cache map[string]page
}

// New returns the lobby service of c.
func New(c Config) *Service {
	s := &Service{cfg: c, games: map[string]game.Game{}, log: c.Logger, wake: make(chan struct{}, 1), cache: map[string]page{}}
	if s.log == nil {
		s.log = slog.Default()
	}
	for _, g := range c.Games {
		s.games[g.Name()] = g
	}
	return s
}

// Routes registers the lobby's API on mux:
//
//	GET  /api/lobby[?game=G]   the public tables waiting for players
//	GET  /api/me/tables        the signed-in player's unfinished tables
//	POST /api/queue            join quick match's queue
//	GET  /api/queue            the player's entry, waiting or seated
//	POST /api/queue/leave      leave the queue
//
// The POSTs need account.SameOrigin in front of them.
func (s *Service) Routes(mux *http.ServeMux) {
	mux.HandleFunc("GET /api/lobby", s.List)
	mux.HandleFunc("GET /api/me/tables", s.MyTables)
	mux.HandleFunc("POST /api/queue", s.Enqueue)
	mux.HandleFunc("GET /api/queue", s.Queued)
	mux.HandleFunc("POST /api/queue/leave", s.Dequeue)
}

// Run runs quick match's matcher (Matcher.Run) until ctx is done: a pass
// every period, and at once when a player joins the queue.
func (s *Service) Run(ctx context.Context, every time.Duration) {
	m := &Matcher{Queue: s.cfg.Store, Games: s.cfg.Games, Build: s.cfg.Host.Build, Logger: s.log}
	if b, ok := s.cfg.Store.(Blocker); ok {
		m.Blocks = b
	}
	m.Run(ctx, every, s.wake)
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

// MyTables answers GET /api/me/tables: the signed-in player's unfinished
// tables, whichever device they were taken on.
func (s *Service) MyTables(w http.ResponseWriter, r *http.Request) {
	out := struct {
		Tables []myTable `json:"tables"`
	}{Tables: []myTable{}}
	p, ok := s.cfg.Accounts.Current(r)
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
			if s.cfg.Host.Settle(r.Context(), t.ID) {
				continue // its match had ended before a crash
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

// List answers GET /api/lobby[?game=cabo]: the public tables waiting for
// players where someone seated is connected or was within
// Config.ListedFor, newest first. The store says when a person was last
// at each (Table.Active), as the node holding the table keeps it, so that
// every node of a cluster lists the same tables; a table nobody seated has
// opened yet is not listed at all.
func (s *Service) List(w http.ResponseWriter, r *http.Request) {
	g := r.URL.Query().Get("game")
	if g != "" && s.games[g] == nil {
		api.Error(w, http.StatusBadRequest, api.CodeBadGame, "server: unknown game "+g)
		return
	}
	// Every open home page asks every few seconds: one read of the store
	// a second per game serves them all, unless a table's seats changed.
	s.mu.Lock()
	defer s.mu.Unlock()
	gen := s.cfg.Host.SeatChanges()
	if c, ok := s.cache[g]; ok && c.gen == gen && time.Since(c.at) < fresh {
		w.Header().Set("Content-Type", "application/json")
		w.Write(c.body)
		return
	}
	ts, err := s.cfg.Store.WaitingTables(r.Context(), g, time.Now().Add(-s.cfg.ListedFor), lobbyLimit)
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
	s.cache[g] = page{body: body, at: time.Now(), gen: gen}
	w.Header().Set("Content-Type", "application/json")
	w.Write(body)
}

// fresh is how long a read of the lobby is served again.
const fresh = time.Second

// page is a lobby answer as last read from the store, when, and at which
// count of the host's seat changes (Host.SeatChanges): a change on this
// node is seen at once, one on another node within fresh.
type page struct {
	body []byte
	at   time.Time
	gen  int64
}
