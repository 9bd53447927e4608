// Package server is Tapis's web server: its configuration, the guards
// every request passes (per client and per network), and the wiring of
// the rooms, each of which registers its own routes: the table host
// (package table), accounts, the lobby and quick match, the history, the
// leaderboards; and the web client's files.
package server

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"log/slog"
	"net/http"
	"sync"
	"time"

	"tapis/account"
	"tapis/analysis"
	"tapis/cluster"
	"tapis/email"
	"tapis/friend"
	"tapis/game"
	"tapis/history"
	"tapis/limit"
	"tapis/lobby"
	"tapis/metrics"
	"tapis/notify"
	"tapis/push"
	"tapis/rating/leaderboard"
	"tapis/store"
	"tapis/table"
	"tapis/web"
)

// Config sets up a Server. Zero fields take the defaults given.
type Config struct {
	// Store keeps the tables; required.
	Store store.Store
	// Notify sets up notifications (package notify, issue 29): the
	// channels' Senders (none: the inbox only) and the outbox's timings;
	// the server gives it its store, sessions and logger.
	Notify notify.Config
	// Mail, when its SMTP is set, sends notifications by e-mail (package
	// email): the mail server, the From address and the site's URL; the
	// server gives it its store, secret and sessions.
	Mail email.Config
	// Push, when its Subscriber is set, sends notifications by Web Push
	// (package push); the server gives it its store, secret and sessions.
	Push push.Config
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
	// comes back (table/lifecycle.go).
	IdleTimeout time.Duration
	// WaitingTTL is how long a table waiting for players may go without
	// anyone there before it expires (default 15 min); AbandonAfter the
	// same for an unfinished match, which is then abandoned (default
	// 24 h). SweepEvery is how often they are looked for (default 1 min).
	WaitingTTL, AbandonAfter, SweepEvery time.Duration
	// ChatRetention is how long the chat of a table done with (closed,
	// or its latest match over) is kept after a human was last seen
	// there (default 30 days; negative: for ever). The sweep deletes it
	// (table/chat.go).
	ChatRetention time.Duration
	// ListedFor is how long the lobby lists a public table waiting for
	// players after anyone seated there was last connected (default
	// 1 min; a table nobody seated has connected to is never listed): a
	// table its host never opened, or left, is not offered
	// to newcomers who would play a stand-in (table/players.go).
	ListedFor time.Duration
	// Seed draws each match's seed (default: crypto/rand, so that nobody
	// can predict the deals).
	Seed func() uint64
	// Secret keys the seeds of the bots and the device cookies (sessions.go).
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
	// NoPoll reads each of this node's sockets by a goroutine of its
	// own instead of holding them on an event loop (table/socket's
	// Poller), which costs a fifth less memory and CPU a move
	// (docs/performance.md). A socket the loop cannot take (TLS, a
	// cluster's relay) is read by a goroutine either way.
	NoPoll bool
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
	// (package table/lease): it owns a table while it holds its lease in Leases,
	// and relays the others' requests to their owners. Leases is then
	// required: the store that all the nodes share.
	Cluster *cluster.Node
	Leases  store.Leases
	// LeaseTTL is how long a table's lease lasts unless renewed (default
	// 5s): how long a paused or cut-off owner may hold a table it can no
	// longer play.
	LeaseTTL time.Duration
	// Now is the time of the turn-based tables' clocks (default
	// time.Now; package table's deadline.go): a test moves it to pass a
	// deadline without waiting.
	Now func() time.Time
}

// Server serves the lobby, the tables and the web client.
type Server struct {
	cfg   Config
	log   *slog.Logger
	mux   http.Handler
	guard *guard
	// host runs this node's tables (package table); history serves the
	// finished matches, board the leaderboards and profiles, hall the
	// lobby and quick match (rooms.go).
	host    *table.Host
	history *history.Service
	// analyses computes the finished matches' analyses (package analysis).
	analyses *analysis.Worker
	board    *leaderboard.Service
	hall     *lobby.Service
	// friends is the friends list, notes the notifications (packages
	// friend and notify, issue 29); sending is done when the outbox's
	// sender has stopped.
	friends *friend.Service
	notes   *notify.Service
	mail    *email.Service // nil without a mail server
	push    *push.Service  // nil without a subscriber
	sending sync.WaitGroup
}

// New starts a server whose tables live until ctx is cancelled. It rebuilds
// every unfinished table of the store first.
func New(ctx context.Context, cfg Config) (*Server, error) {
	if cfg.Store == nil {
		return nil, errors.New("server: no store")
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
	// The table host's fields take their defaults there; the rooms and
	// the guards read those they share from it.
	tc := hostConfig(&cfg)
	tc.Defaults()
	cfg.Games, cfg.MaxTables, cfg.TurnUnit, cfg.ListedFor = tc.Games, tc.MaxTables, tc.TurnUnit, tc.ListedFor
	cfg.Limits.BusyIdle = tc.BusyIdle
	s := &Server{cfg: cfg, log: cfg.Logger}
	s.guard = newGuard(&s.cfg) // the limits' defaults
	tc.Guard, tc.Watchers, tc.SeatConns = s.guard, s.cfg.Limits.Watchers, s.cfg.Limits.SeatConns
	host, err := table.New(ctx, tc)
	if err != nil {
		return nil, err
	}
	s.host = host
	ac := cfg.Accounts
	ac.Players, ac.Proxies, ac.Changed, ac.Moved = cfg.Store, cfg.Proxies, host.PlayerChanged, host.SeatsMoved
	sessionHooks(&ac, host, cfg.Secret) // sessions.go
	acc, err := account.New(ac)
	if err != nil {
		return nil, err
	}
	if err := s.rooms(acc); err != nil {
		return nil, err
	}
	s.routes(acc)
	if err := host.Start(acc, s); err != nil {
		return nil, err
	}
	go s.hall.Run(ctx, cfg.QueueEvery)
	go s.analyses.Run(ctx)
	s.sending.Go(func() { s.notes.Run(ctx) })
	return s, nil
}

// hostConfig is the table host's part of cfg.
func hostConfig(cfg *Config) table.Config {
	return table.Config{Store: cfg.Store, Cluster: cfg.Cluster, Leases: cfg.Leases, Proxies: cfg.Proxies,
		Games: cfg.Games, BotDelay: cfg.BotDelay, Levels: cfg.Levels, Thinkers: cfg.Thinkers,
		BotSearchStarted: cfg.BotSearchStarted, BotSearched: cfg.BotSearched, Rate: cfg.Rate, Burst: cfg.Burst,
		Presence: cfg.Presence, Ping: cfg.Ping, MaxMessage: cfg.MaxMessage, MaxTables: cfg.MaxTables,
		BusyIdle: cfg.Limits.BusyIdle, AwayAfter: cfg.AwayAfter, TurnUnit: cfg.TurnUnit, IdleTimeout: cfg.IdleTimeout,
		WaitingTTL: cfg.WaitingTTL, AbandonAfter: cfg.AbandonAfter, SweepEvery: cfg.SweepEvery,
		ChatRetention: cfg.ChatRetention, ListedFor: cfg.ListedFor, LeaseTTL: cfg.LeaseTTL, Seed: cfg.Seed,
		Secret: cfg.Secret, OriginPatterns: cfg.OriginPatterns, NoPoll: cfg.NoPoll, Logger: cfg.Logger, Metrics: cfg.Metrics, Now: cfg.Now}
}

// Wait returns once every table's goroutine has stopped (after the
// context given to New is cancelled).
func (s *Server) Wait() {
	s.host.Wait()
	s.sending.Wait()
}

// Timeouts bound how long a client may hold an HTTP connection by sending
// its request slowly or keeping it idle (HTTPServer). WebSockets lift the
// read and write limits for themselves and are watched by pings and
// heartbeats instead (package table's serveWS).
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
	for _, room := range []interface{ Routes(*http.ServeMux) }{acc, s.host, s.hall, s.board, s.history, s.friends, s.notes} {
		room.Routes(m)
	}
	if s.mail != nil {
		s.mail.Routes(m)
	}
	if s.push != nil {
		s.push.Routes(m)
	}
	m.HandleFunc("GET /api/games", s.listGames)
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
	// "My games": the player's finished matches (package history).
	m.HandleFunc("GET /games", index)
	// Issue 29: friends, the inbox, the notifications' settings; and the
	// service worker, at the root, since a worker's scope is at most the
	// folder it is served from and it must cover the whole site.
	m.HandleFunc("GET /friends", index)
	m.HandleFunc("GET /inbox", index)
	m.HandleFunc("GET /notifications", index)
	m.HandleFunc("GET /sw.js", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Cache-Control", "no-cache")
		http.ServeFileFS(w, r, s.cfg.Static, "sw.js")
	})
	// Nothing another site's page sends changes anything here.
	s.mux = account.SameOrigin(s.cfg.Proxies, m)
}
