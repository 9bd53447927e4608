// Package server is Tapis's web table: an HTTP lobby to create and join
// tables, and a WebSocket per player through which each seat is sent only
// what it may see and sends its moves.
//
// One goroutine owns each table (its state, seats and connections); HTTP
// handlers and connection readers only hand it functions to run. Every
// applied move is made durable in the store before anyone is told of it,
// and on start every unfinished table is rebuilt by replaying its moves.
package server

import (
	"context"
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"log/slog"
	"net/http"
	"runtime"
	"sync"
	"sync/atomic"
	"time"

	"tapis/account"
	"tapis/cluster"
	"tapis/game"
	"tapis/games"
	"tapis/history"
	"tapis/limit"
	"tapis/lobby"
	"tapis/metrics"
	"tapis/rating/leaderboard"
	"tapis/store"
	"tapis/web"
)

// Config sets up a Server. Zero fields take the defaults given.
type Config struct {
	// Store keeps the tables; required.
	Store store.Store
	// Games are the games offered (default games.All()).
	Games []game.Game
	// BotDelay is the least time a bot takes to move, thinking included,
	// so that people can follow (default 700ms; a negative value means
	// none).
	BotDelay time.Duration
	// Levels maps a bot level a table may seat to the bot that plays it
	// (bot.New's names; default: each level plays as itself). Tests give
	// the search levels small iteration budgets.
	Levels map[string]string
	// Thinkers bounds the bot searches that run at once, over all tables
	// (default GOMAXPROCS-1, at least 1): a table's bot waits its turn in
	// the pool, so that bots never take every core from people's moves,
	// which each table applies on its own goroutine, outside the pool.
	Thinkers int
	// BotSearchStarted, when set, is called as each bot search begins,
	// with the number of searches running, itself included (for tests).
	BotSearchStarted func(running int)
	// BotSearched, when set, is called after each bot search with the CPU
	// time it took (its thread's, where the system tells it, else the
	// wall time it held its place in the pool): for metrics.
	BotSearched func(cpu time.Duration)
	// Rate and Burst bound the messages a connection may send: Rate per
	// second, in bursts of Burst (default 20 and 40; a negative Rate
	// disables the limit).
	Rate  float64
	Burst int
	// Proxies are the reverse proxies trusted to say, in
	// X-Forwarded-For, which client a request comes from; a request from
	// anywhere else is its peer's address (default: none).
	Proxies limit.Proxies
	// Limits bound what one client may make the server spend.
	Limits Limits
	// Timeouts bound slow and idle HTTP connections.
	Timeouts Timeouts
	// Presence is how long a connection may neither send anything nor
	// answer a ping before it is taken as gone and closed (default 40s,
	// and at least twice Ping, so that a socket that answers every ping
	// is never taken as gone). A browser answers pings by itself, however
	// long its tab stays hidden; the web client closes its socket when
	// its page is put away (pagehide), so that its seat's stand-in comes.
	Presence time.Duration
	// Ping is how often the server pings each WebSocket, dropping one
	// whose peer does not answer within as long again (default 25s).
	Ping time.Duration
	// MaxMessage is the largest client message answered normally (default
	// 4096 bytes); a larger one gets an error, and one 16 times larger
	// closes the connection.
	MaxMessage int
	// MaxTables bounds the tables held in memory (default 10000).
	MaxTables int
	// AwayAfter is how long a human seat that must act may stay without a
	// connection before a stand-in bot (the easy level) plays for it,
	// until the player comes back (default 45s; a negative value: never).
	// Its friends are not kept waiting for a closed tab.
	AwayAfter time.Duration
	// TurnUnit is what a table's "turn_seconds" counts (default a second):
	// tests make it a few milliseconds, so that a time per move of 10
	// (the least accepted) runs out at once.
	TurnUnit time.Duration
	// IdleTimeout is how long a table nobody is connected to stays in
	// memory (default 5 min); then it sleeps in the store until someone
	// comes back (lifecycle.go).
	IdleTimeout time.Duration
	// WaitingTTL is how long a table waiting for players may go without
	// anyone there before it expires (default 15 min); AbandonAfter the
	// same for an unfinished match, which is then abandoned (default
	// 24 h). SweepEvery is how often they are looked for (default 1 min).
	WaitingTTL, AbandonAfter, SweepEvery time.Duration
	// ChatRetention is how long the chat of a table done with (closed,
	// or its latest match over) is kept after a human was last seen
	// there (default 30 days; negative: for ever). The sweep deletes it
	// (chat.go).
	ChatRetention time.Duration
	// ListedFor is how long the lobby lists a public table waiting for
	// players after anyone seated there was last connected (default
	// 1 min; a table nobody seated has connected to is never listed): a
	// table its host never opened, or left, is not offered
	// to newcomers who would play a stand-in (players.go).
	ListedFor time.Duration
	// Seed draws each match's seed (default: crypto/rand, so that nobody
	// can predict the deals).
	Seed func() uint64
	// Secret keys the seeds of the bots and the device cookies (revoke.go).
	// A bot's seed is a keyed hash of the match's seed, its seat and
	// move, never a function of the match's seed alone: a random bot's
	// choices can betray its seed, which must then betray nothing about
	// the deal. Default: the store's (store.Secrets), made once and kept
	// there, so that a restarted server has the same bots and honours the
	// device cookies it issued, and so do the other nodes of a cluster.
	// Tests set it; it is never logged.
	Secret []byte
	// Static is the web client (default web.Files()).
	Static fs.FS
	// OriginPatterns are other origins allowed to open a WebSocket (the
	// page's own origin always is).
	OriginPatterns []string
	// Accounts sets up players and sessions (package account); the server
	// gives it the store and the trusted proxies.
	Accounts account.Config
	// QueueEvery is how often the quick-match queue is looked at when
	// nothing wakes it (default 1s): waits run out between requests.
	QueueEvery time.Duration
	// Logger receives the server's log (default slog.Default()).
	Logger *slog.Logger
	// Metrics, if not nil, is told what the server does (package
	// metrics); it serves this server only. Nil: no metrics, at no cost.
	Metrics *metrics.Metrics
	// Cluster, if not nil, makes the server one node of a cluster
	// (owner.go): it owns a table while it holds its lease in Leases,
	// and relays the others' requests to their owners. Leases is then
	// required: the store that all the nodes share.
	Cluster *cluster.Node
	Leases  store.Leases
	// LeaseTTL is how long a table's lease lasts unless renewed (default
	// 5s): how long a paused or cut-off owner may hold a table it can no
	// longer play.
	LeaseTTL time.Duration
}

// Server serves the lobby, the tables and the web client.
type Server struct {
	cfg Config
	log *slog.Logger
	// lobbyGen counts the seat changes at this node's tables, so that
	// the lobby's list is read again at once (lobby.Host).
	lobbyGen atomic.Int64
	games    map[string]game.Game
	memRules map[string]func(game.Event) any // the games' memory rules (recall.go)
	mux      http.Handler
	guard    *guard
	// history serves the finished matches, board the leaderboards and
	// profiles, hall the lobby and quick match (rooms.go).
	history *history.Service
	board   *leaderboard.Service
	hall    *lobby.Service
	// chatPruned is when the sweep last pruned the chat (chat.go); it
	// belongs to the sweep's goroutine.
	chatPruned time.Time
	// thinkers bounds the bot searches running at once (think.go).
	thinkers *thinkers
	// acc tells who a request's player is (package account).
	acc identity
	// own says which node holds a table: this one (single), or the
	// holder of its lease in a cluster (leased, owner.go).
	own ownership
	// ctx is the connections' life: the context given to New. Tables
	// live on tctx, which ends only once every connection reader has
	// handed its last message to its table (stop), so that stopping the
	// server never drops a move it has read.
	ctx  context.Context
	tctx context.Context

	// tables is every table this node holds, loaded or dormant, and the
	// one way a table moves between the two (tableset.go).
	tables *tableSet

	mu      sync.Mutex
	closing bool           // ctx has ended: no new connection reader
	readers sync.WaitGroup // connection readers, under mu while !closing
	wg      sync.WaitGroup // table goroutines
}

// New starts a server whose tables live until ctx is cancelled. It rebuilds
// every unfinished table of the store first.
func New(ctx context.Context, cfg Config) (*Server, error) {
	if cfg.Store == nil {
		return nil, errors.New("server: no store")
	}
	if cfg.Games == nil {
		cfg.Games = games.All()
	}
	switch {
	case cfg.BotDelay == 0:
		cfg.BotDelay = 700 * time.Millisecond
	case cfg.BotDelay < 0:
		cfg.BotDelay = 0
	}
	if cfg.Thinkers <= 0 {
		cfg.Thinkers = max(runtime.GOMAXPROCS(0)-1, 1)
	}
	if cfg.Rate == 0 {
		cfg.Rate = 20
	}
	if cfg.Burst <= 0 {
		cfg.Burst = 40
	}
	for _, d := range []struct {
		f *time.Duration
		v time.Duration
	}{{&cfg.Timeouts.Header, 10 * time.Second}, {&cfg.Timeouts.Request, 20 * time.Second},
		{&cfg.Timeouts.Write, 30 * time.Second}, {&cfg.Timeouts.Idle, 60 * time.Second}} {
		if *d.f <= 0 {
			*d.f = d.v
		}
	}
	if cfg.Presence <= 0 {
		cfg.Presence = 40 * time.Second
	}
	if cfg.Ping <= 0 {
		cfg.Ping = 25 * time.Second
	}
	if cfg.Presence < 2*cfg.Ping {
		// Pongs come every Ping (a ping waits as long for its answer):
		// a shorter Presence would drop sockets that answer them all.
		cfg.Presence = 2 * cfg.Ping
	}
	if cfg.MaxMessage <= 0 {
		cfg.MaxMessage = 4096
	}
	if cfg.MaxTables <= 0 {
		cfg.MaxTables = 10000
	}
	if cfg.AwayAfter == 0 {
		cfg.AwayAfter = 45 * time.Second
	}
	if cfg.TurnUnit <= 0 {
		cfg.TurnUnit = time.Second
	}
	if cfg.ChatRetention == 0 {
		cfg.ChatRetention = 30 * 24 * time.Hour
	}
	for _, d := range []struct {
		f *time.Duration
		v time.Duration
	}{{&cfg.IdleTimeout, 5 * time.Minute}, {&cfg.WaitingTTL, 15 * time.Minute},
		{&cfg.AbandonAfter, 24 * time.Hour}, {&cfg.SweepEvery, time.Minute}} {
		if *d.f <= 0 {
			*d.f = d.v
		}
	}
	if cfg.Seed == nil {
		cfg.Seed = randomSeed
	}
	if len(cfg.Secret) == 0 {
		sec, err := cfg.Store.Secret(ctx)
		if err != nil {
			return nil, fmt.Errorf("server: reading the secret of bots and device cookies: %w", err)
		}
		cfg.Secret = sec
	}
	if cfg.Static == nil {
		cfg.Static = web.Files()
	}
	if cfg.Logger == nil {
		cfg.Logger = slog.Default()
	}
	if cfg.QueueEvery <= 0 {
		cfg.QueueEvery = time.Second
	}
	// The store's appends of moves are timed by a wrapper, so that the
	// stores need know nothing of metrics.
	cfg.Store = cfg.Metrics.Store(cfg.Store)
	if searched := cfg.BotSearched; cfg.Metrics != nil {
		// The bots' CPU goes to /metrics, and to the hook if one is set.
		cfg.BotSearched = func(cpu time.Duration) {
			cfg.Metrics.Searched(cpu)
			if searched != nil {
				searched(cpu)
			}
		}
	}
	s := &Server{cfg: cfg, ctx: ctx, log: cfg.Logger, games: map[string]game.Game{}, tables: newTableSet(cfg.Logger),
		thinkers: newThinkers(cfg.Thinkers, cfg.BotSearchStarted, cfg.BotSearched)}
	ac := cfg.Accounts
	ac.Players, ac.Proxies, ac.Changed, ac.Moved = cfg.Store, cfg.Proxies, s.playerChanged, s.seatsMoved
	s.sessionHooks(&ac) // revoke.go
	acc, err := account.New(ac)
	if err != nil {
		return nil, err
	}
	s.acc = acc
	s.guard = newGuard(&s.cfg)
	for _, g := range cfg.Games {
		s.games[g.Name()] = g
	}
	s.memRules = forgetters(cfg.Games)
	s.rooms(acc)
	if cfg.Cluster != nil {
		if cfg.Leases == nil {
			return nil, errors.New("server: a cluster needs a store with leases (PostgreSQL)")
		}
		if cfg.LeaseTTL <= 0 {
			cfg.LeaseTTL = 5 * time.Second
		}
		s.cfg.LeaseTTL = cfg.LeaseTTL
		s.own = &leased{s: s, node: cfg.Cluster, leases: cfg.Leases, ttl: cfg.LeaseTTL, held: map[string]store.Lease{}}
	} else {
		s.own = single{st: cfg.Store}
	}
	tctx, stopTables := context.WithCancel(context.WithoutCancel(ctx))
	s.tctx = tctx
	if err := s.restore(ctx); err != nil {
		stopTables()
		return nil, err
	}
	s.routes(acc)
	if err := s.own.start(); err != nil {
		stopTables()
		return nil, err
	}
	cfg.Metrics.CountTables(s.countTables)
	go s.stop(stopTables)
	go s.sweep()
	go s.hall.Run(ctx, cfg.QueueEvery)
	return s, nil
}

// stop waits for the end of ctx, then for the connection readers to hand
// over what they have read, then stops the tables, which apply it first.
func (s *Server) stop(stopTables context.CancelFunc) {
	<-s.ctx.Done()
	s.mu.Lock()
	s.closing = true
	s.mu.Unlock()
	s.readers.Wait()
	stopTables()
	s.own.stop()
}

// reader registers a connection reader; false once the server stops.
func (s *Server) reader() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closing {
		return false
	}
	s.readers.Add(1)
	return true
}

// stopping reports whether the server is stopping: it then starts nothing
// new (a table, a seat), which it could not finish.
func (s *Server) stopping() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.closing
}

var errStopping = errors.New("server: the server is stopping; try again in a moment")

// storeTimeout bounds one store write.
const storeTimeout = 30 * time.Second

// persist returns the context of a store write. It is cancelled neither
// by the request or connection that caused the write nor by the server
// stopping: a write that has begun must finish, or a table is left half
// written (seats taken, no match) or a player's move is lost. It is
// bounded, so that a hung database cannot hold a table forever.
func (s *Server) persist() (context.Context, context.CancelFunc) {
	return context.WithTimeout(context.WithoutCancel(s.ctx), storeTimeout)
}

func (s *Server) launch(t *table) {
	s.wg.Add(1)
	go func() {
		defer s.wg.Done()
		t.run(s.tctx)
	}()
}

// Wait returns once every table's goroutine has stopped (after the
// context given to New is cancelled).
func (s *Server) Wait() { s.wg.Wait() }

// Timeouts bound how long a client may hold an HTTP connection by sending
// its request slowly or keeping it idle (HTTPServer). WebSockets lift the
// read and write limits for themselves and are watched by pings and
// heartbeats instead (serveWS).
type Timeouts struct {
	Header  time.Duration // a request's headers (default 10s)
	Request time.Duration // the whole request, body included (default 20s)
	Write   time.Duration // the answer (default 30s)
	Idle    time.Duration // a keep-alive connection between requests (default 60s)
}

// HTTPServer returns an http.Server for s with Config.Timeouts.
func (s *Server) HTTPServer() *http.Server {
	to := s.cfg.Timeouts
	return &http.Server{
		Handler:           s,
		ReadHeaderTimeout: to.Header,
		ReadTimeout:       to.Request,
		WriteTimeout:      to.Write,
		IdleTimeout:       to.Idle,
		ErrorLog:          slog.NewLogLogger(s.log.Handler(), slog.LevelWarn),
	}
}

// ServeHTTP implements http.Handler.
func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	hd := w.Header()
	hd.Set("X-Content-Type-Options", "nosniff")
	hd.Set("Referrer-Policy", "no-referrer")
	// The client is all our own files: nothing else may run or be loaded.
	hd.Set("Content-Security-Policy", "default-src 'self'; connect-src 'self'; img-src 'self' data:; style-src 'self'; frame-ancestors 'none'")
	s.mux.ServeHTTP(w, r)
}

func (s *Server) routes(acc *account.Service) {
	m := http.NewServeMux()
	// The rooms that register their own routes (rooms.go).
	for _, room := range []interface{ Routes(*http.ServeMux) }{acc, s.hall, s.board, s.history} {
		room.Routes(m)
	}
	m.HandleFunc("GET /api/games", s.listGames)
	m.HandleFunc("POST /api/tables", s.balanced(s.createTable))
	m.HandleFunc("GET /api/tables/{id}", s.owned(s.getTable))
	m.HandleFunc("POST /api/tables/{id}/join", s.owned(s.joinTable))
	m.HandleFunc("GET /api/tables/{id}/ws", s.owned(s.serveWS))
	static := http.FileServerFS(s.cfg.Static)
	m.Handle("GET /static/", http.StripPrefix("/static", static))
	index := func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Cache-Control", "no-cache")
		http.ServeFileFS(w, r, s.cfg.Static, "index.html")
	}
	m.HandleFunc("GET /{$}", index)
	m.HandleFunc("GET /t/{id}", index)
	// A game's rules, a page of the client that can be linked to.
	m.HandleFunc("GET /help/{game}", index)
	// A finished match's page: players, result, score sheet, replay.
	m.HandleFunc("GET /m/{id}/{no}", index)
	// The leaderboards (one per game) and a player's profile (package
	// rating/leaderboard).
	m.HandleFunc("GET /leaderboard", index)
	m.HandleFunc("GET /leaderboard/{game}", index)
	m.HandleFunc("GET /p/{id}", index)
	// Nothing another site's page sends changes anything here.
	s.mux = account.SameOrigin(s.cfg.Proxies, m)
}

func randomSeed() uint64 {
	var b [8]byte
	rand.Read(b[:])
	return binary.LittleEndian.Uint64(b[:])
}

// botSeed is the seed of the bot that seat s gets at move n of the match
// dealt from seed: a keyed hash (HMAC-SHA-256 with Config.Secret), so
// that a bot's seed, which its moves may betray, tells nothing of the
// deal, while a match replayed after a restart gets the same bots.
func (s *Server) botSeed(seed uint64, seat game.Seat, n int) uint64 {
	mac := hmac.New(sha256.New, s.cfg.Secret)
	fmt.Fprintf(mac, "%d/%d/%d", seed, seat, n)
	return binary.LittleEndian.Uint64(mac.Sum(nil))
}

// randomToken is a seat's secret: 128 random bits.
func randomToken() string {
	var b [16]byte
	rand.Read(b[:])
	return hex.EncodeToString(b[:])
}

// randomID names a table: 10 letters and digits that cannot be confused.
func randomID() string {
	const alphabet = "abcdefghjkmnpqrstuvwxyz23456789"
	var b [10]byte
	rand.Read(b[:])
	for i := range b {
		b[i] = alphabet[int(b[i])%len(alphabet)]
	}
	return string(b[:])
}
