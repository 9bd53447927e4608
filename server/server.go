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
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"log/slog"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"sync"
	"time"

	"tapis/bot"
	"tapis/game"
	"tapis/games"
	"tapis/limit"
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
	// Presence is how long a connection may send nothing before it is
	// taken as gone and closed (default 40s): the web client sends a
	// heartbeat every 15 s while its page is shown, so a tab left in the
	// back/forward cache lets its seat's stand-in come.
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
	// Seed draws each match's seed (default: crypto/rand, so that nobody
	// can predict the deals).
	Seed func() uint64
	// Secret keys the seeds of the bots (default: 32 random bytes). A
	// bot's seed is a keyed hash of the match's seed, its seat and move,
	// never a function of the match's seed alone: a random bot's choices
	// can betray its seed, which must then betray nothing about the deal.
	// Keep it to have the same bots after a restart.
	Secret []byte
	// Static is the web client (default web.Files()).
	Static fs.FS
	// OriginPatterns are other origins allowed to open a WebSocket (the
	// page's own origin always is).
	OriginPatterns []string
	// Logger receives the server's log (default slog.Default()).
	Logger *slog.Logger
}

// Server serves the lobby, the tables and the web client.
type Server struct {
	cfg   Config
	log   *slog.Logger
	games map[string]game.Game
	mux   *http.ServeMux
	guard *guard
	// ctx is the connections' life: the context given to New. Tables
	// live on tctx, which ends only once every connection reader has
	// handed its last message to its table (stop), so that stopping the
	// server never drops a move it has read.
	ctx  context.Context
	tctx context.Context

	mu      sync.Mutex
	tables  map[string]*table   // loaded
	dormant map[string]*dormant // open, only in the store (lifecycle.go)
	closing bool                // ctx has ended: no new connection reader
	readers sync.WaitGroup      // connection readers, under mu while !closing
	wg      sync.WaitGroup      // table goroutines
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
		cfg.Secret = make([]byte, 32)
		rand.Read(cfg.Secret)
	}
	if cfg.Static == nil {
		cfg.Static = web.Files()
	}
	if cfg.Logger == nil {
		cfg.Logger = slog.Default()
	}
	s := &Server{cfg: cfg, ctx: ctx, log: cfg.Logger, games: map[string]game.Game{}, tables: map[string]*table{},
		dormant: map[string]*dormant{}}
	s.guard = newGuard(&s.cfg)
	for _, g := range cfg.Games {
		s.games[g.Name()] = g
	}
	tctx, stopTables := context.WithCancel(context.WithoutCancel(ctx))
	s.tctx = tctx
	if err := s.restore(ctx); err != nil {
		stopTables()
		return nil, err
	}
	s.routes()
	go s.stop(stopTables)
	go s.sweep()
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

func (s *Server) routes() {
	m := http.NewServeMux()
	m.HandleFunc("GET /api/games", s.listGames)
	m.HandleFunc("POST /api/tables", s.createTable)
	m.HandleFunc("GET /api/tables/{id}", s.getTable)
	m.HandleFunc("POST /api/tables/{id}/join", s.joinTable)
	m.HandleFunc("GET /api/tables/{id}/ws", s.serveWS)
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
	s.mux = m
}

// gameInfo describes a game for the table-creation form.
type gameInfo struct {
	Name    string        `json:"name"`
	Min     int           `json:"min"`
	Max     int           `json:"max"`
	Options []game.Option `json:"options"`
	Bots    []string      `json:"bots"`
	// MemoryAid: the game has private looks, so a table may be created
	// with the memory aid (memory.go).
	MemoryAid bool `json:"memory_aid"`
}

func (s *Server) listGames(w http.ResponseWriter, r *http.Request) {
	out := []gameInfo{}
	for _, g := range s.cfg.Games {
		lo, hi := g.Players()
		gi := gameInfo{Name: g.Name(), Min: lo, Max: hi, Options: g.Options(), Bots: []string{}, MemoryAid: forgetters[g.Name()] != nil}
		for _, b := range bot.Offered {
			if _, err := bot.New(g, b, 0, 1); err == nil {
				gi.Bots = append(gi.Bots, b)
			}
		}
		out = append(out, gi)
	}
	writeJSON(w, http.StatusOK, out)
}

// createReq asks for a new table. Bots has one entry per seat: "" for a
// human, else a bot's name. The creator, if Name is given, takes the first
// human seat.
type createReq struct {
	Game    string          `json:"game"`
	Players int             `json:"players"`
	Options json.RawMessage `json:"options"`
	Bots    []string        `json:"bots"`
	Name    string          `json:"name"`
	// TurnSeconds is the time per move: 0 (none, the default) or from
	// minTurn to maxTurn seconds.
	TurnSeconds int `json:"turn_seconds"`
	// MemoryAid is a table option, off by default: a player's log then
	// repeats the cards they looked at privately (memory.go). Only for
	// the games where memory is a rule (forgetters).
	MemoryAid bool `json:"memory_aid"`
}

// The time per move a table may have, in seconds.
const minTurn, maxTurn = 10, 600

// seatResp gives a seat and its secret token to the one who took it.
type seatResp struct {
	Table string    `json:"table"`
	Seat  game.Seat `json:"seat"`
	Token string    `json:"token,omitempty"`
	URL   string    `json:"url"`
	// Invite is the table's link for guests, absolute: built from the
	// name the request reached the server under (or a trusted proxy's
	// forwarded one), since the server cannot know what name its players
	// use, and "localhost" reaches nobody else.
	Invite string `json:"invite"`
}

// invite returns the absolute invite link of table id for a response to r.
func (s *Server) invite(r *http.Request, id string) string {
	scheme, host := s.cfg.Proxies.Origin(r)
	return (&url.URL{Scheme: scheme, Host: host, Path: "/t/" + id}).String()
}

func (s *Server) createTable(w http.ResponseWriter, r *http.Request) {
	var req createReq
	if !readJSON(w, r, &req) {
		return
	}
	if s.stopping() {
		httpError(w, http.StatusServiceUnavailable, "stopping", errStopping.Error())
		return
	}
	client := s.guard.client(r)
	if !allow(w, s.guard.creates, client, "new tables") {
		return
	}
	g := s.games[req.Game]
	if g == nil {
		httpError(w, http.StatusBadRequest, "bad_game", fmt.Sprintf("server: unknown game %q", req.Game))
		return
	}
	if err := game.CheckPlayers(g, req.Players); err != nil {
		httpError(w, http.StatusBadRequest, "bad_players", err.Error())
		return
	}
	if len(req.Bots) > req.Players {
		httpError(w, http.StatusBadRequest, "bad_bots", "server: more bots than seats")
		return
	}
	if t := req.TurnSeconds; t != 0 && (t < minTurn || t > maxTurn) {
		httpError(w, http.StatusBadRequest, "bad_turn_seconds",
			fmt.Sprintf("server: turn_seconds is %d: it must be 0 (no time per move) or from %d to %d", t, minTurn, maxTurn))
		return
	}
	if req.MemoryAid && forgetters[g.Name()] == nil {
		httpError(w, http.StatusBadRequest, "bad_memory_aid",
			fmt.Sprintf("server: %s has no private looks to remember: the memory aid is for Cabo", g.Name()))
		return
	}
	opts := req.Options
	if len(opts) == 0 || string(opts) == "null" {
		opts = json.RawMessage("{}")
	}
	if _, err := g.New(game.Config{Players: req.Players, Options: opts, Seed: 1}); err != nil {
		httpError(w, http.StatusBadRequest, "bad_options", err.Error())
		return
	}
	tab := store.Table{ID: randomID(), Game: g.Name(), Players: req.Players, Options: opts, Created: time.Now(),
		Seats: make([]store.Seat, req.Players), TurnTime: time.Duration(req.TurnSeconds) * s.cfg.TurnUnit,
		MemoryAid: req.MemoryAid, Host: -1}
	for i, b := range req.Bots {
		if b == "" {
			continue
		}
		if !seatable(b) {
			httpError(w, http.StatusBadRequest, "bad_bots", fmt.Sprintf("server: no bot %q to seat (have %v)", b, bot.Offered))
			return
		}
		if _, err := bot.New(g, b, game.Seat(i), 1); err != nil {
			httpError(w, http.StatusBadRequest, "bad_bots", err.Error())
			return
		}
		tab.Seats[i] = store.Seat{Name: b, Bot: b}
	}
	// A table of bots alone would play on, costing CPU and disk, with
	// nobody to play for: `tapis sim` is the place for bots against bots.
	if len(req.Bots) == req.Players && !slices.Contains(req.Bots, "") {
		httpError(w, http.StatusBadRequest, "no_human", "server: a table needs at least one seat for a person; bots play each other with `tapis sim`")
		return
	}
	resp := seatResp{Table: tab.ID, Seat: game.Spectator, URL: "/t/" + tab.ID, Invite: s.invite(r, tab.ID)}
	if name := cleanName(req.Name); name != "" {
		for i := range tab.Seats {
			if tab.Seats[i].Bot == "" {
				resp.Seat, resp.Token = game.Seat(i), randomToken()
				tab.Seats[i] = store.Seat{Name: name, TokenHash: hashToken(resp.Token)}
				// The creator's seat is the host's (a table created
				// without a name has none).
				tab.Host = i
				break
			}
		}
	}
	s.mu.Lock()
	full := len(s.tables) >= s.cfg.MaxTables
	s.mu.Unlock()
	if full {
		httpError(w, http.StatusServiceUnavailable, "busy", "server: too many tables; try again later")
		return
	}
	// A table waiting for players holds one of its creator's places
	// until it starts or goes.
	unwait := func() {}
	if !seated(tab.Seats) {
		var ok bool
		if unwait, ok = s.guard.waiting.Acquire(client); !ok {
			httpError(w, http.StatusTooManyRequests, "too_many_waiting",
				fmt.Sprintf("server: %d of your tables are waiting for players already; start or leave one first", s.cfg.Limits.Waiting))
			return
		}
	}
	// A table created full starts in the same write.
	var start *store.Start
	if seated(tab.Seats) {
		start = &store.Start{No: 1, Seed: s.cfg.Seed()}
	}
	tab.Creator = client
	ctx, cancel := s.persist()
	defer cancel()
	if err := s.cfg.Store.CreateTable(ctx, tab, start); err != nil {
		unwait()
		s.log.Error("create table", "err", err)
		httpError(w, http.StatusInternalServerError, "store", "server: the table could not be saved")
		return
	}
	t := newTable(s, tab)
	t.unwait = unwait
	if start != nil {
		// Before anyone can reach it: nobody else is told.
		t.open(start.No, start.Seed)
	}
	s.mu.Lock()
	s.tables[t.id] = t
	s.mu.Unlock()
	s.launch(t)
	writeJSON(w, http.StatusCreated, resp)
}

func (s *Server) getTable(w http.ResponseWriter, r *http.Request) {
	t := s.find(w, r.PathValue("id"))
	if t == nil {
		return
	}
	var in tableInfo
	if err := t.call(r.Context(), func() { in = t.info() }); err != nil {
		httpError(w, http.StatusServiceUnavailable, "closed", err.Error())
		return
	}
	writeJSON(w, http.StatusOK, in)
}

func (s *Server) joinTable(w http.ResponseWriter, r *http.Request) {
	t := s.find(w, r.PathValue("id"))
	if t == nil {
		return
	}
	var req struct {
		Name string `json:"name"`
	}
	if !readJSON(w, r, &req) {
		return
	}
	name := cleanName(req.Name)
	if name == "" {
		httpError(w, http.StatusBadRequest, "bad_name", "server: a name is needed to sit down")
		return
	}
	if s.stopping() {
		httpError(w, http.StatusServiceUnavailable, "stopping", errStopping.Error())
		return
	}
	if !allow(w, s.guard.joins, s.guard.client(r), "seats taken") {
		return
	}
	var seat game.Seat
	var token string
	var err error
	// Once asked, the join is done whole, whether or not the client waits.
	if cerr := t.call(context.Background(), func() { seat, token, err = t.join(name) }); cerr != nil {
		err = cerr
	}
	switch {
	case errors.Is(err, errFull):
		httpError(w, http.StatusConflict, "full", err.Error())
	case errors.Is(err, errNameTaken):
		httpError(w, http.StatusConflict, "name_taken", err.Error())
	case err != nil:
		s.log.Error("join", "table", t.id, "err", err)
		httpError(w, http.StatusInternalServerError, "store", "server: the seat could not be saved")
	default:
		writeJSON(w, http.StatusOK, seatResp{Table: t.id, Seat: seat, Token: token, URL: "/t/" + t.id, Invite: s.invite(r, t.id)})
	}
}

// maxBody is the largest request body read.
const maxBody = 16 << 10

// readJSON decodes a small request body strictly (one JSON object, no
// unknown field, nothing after it), answering errors itself.
func readJSON(w http.ResponseWriter, r *http.Request, dst any) bool {
	// JSON only: another site's plain form cannot post here, since a JSON
	// request from another origin needs a CORS preflight we never grant.
	if ct := r.Header.Get("Content-Type"); !strings.HasPrefix(ct, "application/json") {
		httpError(w, http.StatusUnsupportedMediaType, "bad_request", "server: send JSON (Content-Type: application/json)")
		return false
	}
	body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, maxBody))
	var tooLarge *http.MaxBytesError
	switch {
	case errors.As(err, &tooLarge):
		httpError(w, http.StatusRequestEntityTooLarge, "too_large", fmt.Sprintf("server: a request body may hold %d bytes", maxBody))
		return false
	case err != nil:
		httpError(w, http.StatusBadRequest, "bad_request", "server: the request body could not be read (too slow?)")
		return false
	}
	if err := game.DecodeStrict(body, dst); err != nil {
		httpError(w, http.StatusBadRequest, "bad_request", fmt.Sprintf("server: bad request: %v", err))
		return false
	}
	return true
}

func writeJSON(w http.ResponseWriter, code int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(code)
	json.NewEncoder(w).Encode(v)
}

func httpError(w http.ResponseWriter, code int, short, text string) {
	writeJSON(w, code, map[string]string{"code": short, "error": text})
}

// seatable reports whether a table may seat the bot called name: one of the
// levels offered, or "heuristic", the old name of easy. Budgets (hard@N)
// and the cheating reference bot are for measurement only.
func seatable(name string) bool {
	return name == "heuristic" || slices.Contains(bot.Offered, name)
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
