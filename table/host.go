// Package table is Tapis's table host: the tables this node runs, their
// seats, sockets, stand-ins and clocks, the one path a move takes, and
// each table's life from creation to sleep, hand-over or close.
//
// One goroutine owns each table (its state, seats and connections); HTTP
// handlers and connection readers only hand it functions to run. Every
// applied move is made durable in the store before anyone is told of it,
// and a table asleep in the store is rebuilt by replaying its moves when
// someone needs it (lifecycle.go). Package server builds the Host from
// its configuration, wraps its routes in the guards, and wires the rooms
// that need a hook into it (lobby, history, account).
package table

import (
	"context"
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"runtime"
	"sync"
	"sync/atomic"
	"time"

	"tapis/cluster"
	"tapis/game"
	"tapis/games"
	"tapis/limit"
	"tapis/metrics"
	"tapis/store"
	"tapis/table/lease"
	"tapis/table/socket"
	"tapis/table/tableset"
	"tapis/table/think"
)

// Config sets up a Host: the table host's part of package server's
// Config, whose fields of the same names say what they are. Zero fields
// take the defaults Defaults gives.
type Config struct {
	// Store keeps the tables; required. Leases, with Cluster, is the
	// store all the nodes share (package lease).
	Store   store.Store
	Cluster *cluster.Node
	Leases  store.Leases
	// Guard spends the per-client and per-network limits; required.
	Guard Guard
	// Proxies tell a request's client (chat budgets, invite links).
	Proxies limit.Proxies
	Games   []game.Game
	// BotDelay: a negative value means none.
	BotDelay         time.Duration
	Levels           map[string]string
	Thinkers         int
	BotSearchStarted func(running int)
	BotSearched      func(cpu time.Duration)
	Rate             float64
	Burst            int
	Presence, Ping   time.Duration
	MaxMessage       int
	MaxTables        int
	// Watchers and SeatConns bound the connections of a table's
	// spectators and of one seat (package server's Limits; 0: none).
	Watchers, SeatConns int
	// BusyIdle is Limits.BusyIdle: how long a table nobody is at stays
	// in memory while the host is busy.
	BusyIdle                             time.Duration
	AwayAfter, TurnUnit, IdleTimeout     time.Duration
	WaitingTTL, AbandonAfter, SweepEvery time.Duration
	ChatRetention, ListedFor, LeaseTTL   time.Duration
	Seed                                 func() uint64
	Secret                               []byte
	OriginPatterns                       []string
	// NoPoll reads each socket by a goroutine of its own instead of on
	// an event loop (socket.Poller): the way before issue 28, kept to
	// compare the two.
	NoPoll  bool
	Logger  *slog.Logger
	Metrics *metrics.Metrics
	// Now is the time of the turn-based tables' clocks (default
	// time.Now): a test moves it to pass a deadline without waiting.
	Now func() time.Time
}

// Defaults sets the fields left zero to their defaults. New calls it;
// package server calls it first too, for the rooms that share a value
// (the games, TurnUnit, ListedFor, MaxTables, BusyIdle).
func (c *Config) Defaults() {
	if c.Games == nil {
		c.Games = games.All()
	}
	switch {
	case c.BotDelay == 0:
		c.BotDelay = 700 * time.Millisecond
	case c.BotDelay < 0:
		c.BotDelay = -1 // none; stays none if Defaults runs again
	}
	if c.Thinkers <= 0 {
		c.Thinkers = max(runtime.GOMAXPROCS(0)-1, 1)
	}
	if c.Rate == 0 {
		c.Rate = 20
	}
	if c.Burst <= 0 {
		c.Burst = 40
	}
	if c.Presence <= 0 {
		c.Presence = 40 * time.Second
	}
	if c.Ping <= 0 {
		c.Ping = 25 * time.Second
	}
	if c.Presence < 2*c.Ping {
		// Pongs come every Ping (a ping waits as long for its answer):
		// a shorter Presence would drop sockets that answer them all.
		c.Presence = 2 * c.Ping
	}
	if c.MaxMessage <= 0 {
		c.MaxMessage = 4096
	}
	if c.MaxTables <= 0 {
		c.MaxTables = 10000
	}
	if c.AwayAfter == 0 {
		c.AwayAfter = 45 * time.Second
	}
	if c.TurnUnit <= 0 {
		c.TurnUnit = time.Second
	}
	if c.ChatRetention == 0 {
		c.ChatRetention = 30 * 24 * time.Hour
	}
	for _, d := range []struct {
		f *time.Duration
		v time.Duration
	}{{&c.IdleTimeout, 5 * time.Minute}, {&c.WaitingTTL, 15 * time.Minute},
		{&c.AbandonAfter, 24 * time.Hour}, {&c.SweepEvery, time.Minute}, {&c.ListedFor, time.Minute},
		{&c.BusyIdle, 30 * time.Second}, {&c.LeaseTTL, 5 * time.Second}} {
		if *d.f <= 0 {
			*d.f = d.v
		}
	}
	if c.Seed == nil {
		c.Seed = randomSeed
	}
	if c.Logger == nil {
		c.Logger = slog.Default()
	}
	if c.Now == nil {
		c.Now = time.Now
	}
}

// botDelay is Config.BotDelay, none being 0.
func (c *Config) botDelay() time.Duration { return max(c.BotDelay, 0) }

// Guard is what the host spends of the limits that guard every request
// (package server's guard): each method that is given the response
// answers 429, with Retry-After where it has one, when it refuses.
type Guard interface {
	// Client is the limit key of r's client (limit.Key), as a table's
	// creator is stored.
	Client(r *http.Request) string
	// AllowCreate spends a table creation of r's client and network.
	AllowCreate(w http.ResponseWriter, r *http.Request) bool
	// AllowJoin spends a seat taken by r's client.
	AllowJoin(w http.ResponseWriter, r *http.Request) bool
	// HoldTable takes a place among the tables in memory for the
	// network of client, a creator's limit key, until release.
	HoldTable(w http.ResponseWriter, client string) (release func(), ok bool)
	// HoldWaiting takes a waiting table's places, its creator's and its
	// creator's network's, or says which bound refused: "client" or
	// "network". RefuseWaiting answers the request HoldWaiting refused.
	HoldWaiting(client string) (release func(), refused string)
	RefuseWaiting(w http.ResponseWriter, refused string)
	// HoldConn takes the places of a WebSocket: its client's, its
	// network's and the server's.
	HoldConn(w http.ResponseWriter, r *http.Request) (release func(), ok bool)
	// PaceConnect spends one of the WebSockets r's network may open to
	// table.
	PaceConnect(w http.ResponseWriter, r *http.Request, table string) bool
	// PaceChat spends a chat line of writer who and of network net, at
	// a table (chat.Keys), or says how long to wait.
	PaceChat(who, net string) (time.Duration, bool)
}

// Host runs this node's tables.
type Host struct {
	cfg Config
	log *slog.Logger
	// lobbyGen counts the seat changes at this node's tables, so that
	// the lobby's list is read again at once (SeatChanges).
	lobbyGen atomic.Int64
	// online counts the players' open sockets (online.go, issue 29).
	online online
	// moves paces the moves sent over HTTP (httpmove.go).
	moves movePace
	// notifier tells players away of their turns (notes.go); nil: nobody.
	notifier Notifier
	warner   Warner
	games    map[string]game.Game
	memRules map[string]func(game.Event) any // the games' memory rules (recall.go)
	guard    Guard
	// chatPruned is when the sweep last pruned the chat (chat.go); it
	// belongs to the sweep's goroutine.
	chatPruned time.Time
	// thinkers bounds the bot searches running at once (package think).
	thinkers *think.Pool
	// acc tells who a request's player is (package account).
	acc Identity
	// own says which node holds a table: this one (single), or the
	// holder of its lease in a cluster (package lease).
	own ownership
	// ctx is the connections' life: the context given to New. Tables
	// live on tctx, which ends only once every connection reader has
	// handed its last message to its table (stop), so that stopping the
	// host never drops a move it has read.
	ctx        context.Context
	tctx       context.Context
	stopTables context.CancelFunc

	// tables is every table this node holds, loaded or dormant, and the
	// one way a table moves between the two (package tableset).
	tables *tableset.Set[*table]

	mu      sync.Mutex
	closing bool           // ctx has ended: no new connection reader
	readers sync.WaitGroup // connection readers, under mu while !closing
	// poller holds this node's sockets (inbound.go), from the first
	// until the host stops.
	poller *socket.Poller
	wg     sync.WaitGroup // table goroutines, the sweep and the wake-ups
}

// New makes a host whose tables live until ctx is cancelled. It starts
// nothing: Start does, once the rooms are wired.
func New(ctx context.Context, cfg Config) (*Host, error) {
	if cfg.Store == nil {
		return nil, errors.New("server: no store")
	}
	if cfg.Guard == nil {
		return nil, errors.New("server: no guard")
	}
	cfg.Defaults()
	if searched := cfg.BotSearched; cfg.Metrics != nil {
		// The bots' CPU goes to /metrics, and to the hook if one is set.
		cfg.BotSearched = func(cpu time.Duration) {
			cfg.Metrics.Searched(cpu)
			if searched != nil {
				searched(cpu)
			}
		}
	}
	s := &Host{cfg: cfg, ctx: ctx, log: cfg.Logger, games: map[string]game.Game{}, tables: tableset.New[*table](cfg.Logger),
		guard: cfg.Guard, thinkers: think.NewPool(cfg.Thinkers, cfg.BotSearchStarted, cfg.BotSearched)}
	for _, g := range cfg.Games {
		s.games[g.Name()] = g
	}
	s.memRules = forgetters(cfg.Games)
	if cfg.Cluster != nil {
		if cfg.Leases == nil {
			return nil, errors.New("server: a cluster needs a store with leases (PostgreSQL)")
		}
		s.own = lease.New(ctx, lease.Config{Node: cfg.Cluster, Leases: cfg.Leases, TTL: cfg.LeaseTTL,
			OriginPatterns: cfg.OriginPatterns, Logger: cfg.Logger, Metrics: cfg.Metrics, Store: cfg.Store,
			Due: s.stillDue, Forget: s.forget, HandOver: s.handOver, Wait: s.Wait,
			Hear: map[string]func([]byte){reseatSubject: s.heardReseat, revokeSubject: s.heardRevoke}})
	} else {
		s.own = single{st: cfg.Store}
	}
	s.tctx, s.stopTables = context.WithCancel(context.WithoutCancel(ctx))
	return s, nil
}

// Start restores the tables the store holds open, then starts the host's
// own work: the sweep, the table count of the metrics, and in a cluster
// the ownership's (relay serves the requests other nodes relay here: the
// whole server's handler). acc tells who a request's player is. The
// host's routes (Routes) are to be registered first.
func (s *Host) Start(acc Identity, relay http.Handler) error {
	s.acc = acc
	if err := s.restore(s.ctx); err != nil {
		s.stopTables()
		return err
	}
	if err := s.own.Start(relay); err != nil {
		s.stopTables()
		return err
	}
	s.cfg.Metrics.CountTables(s.countTables)
	go s.stop()
	// The sweep and the wake-ups use the store: Wait waits for them, as
	// for the tables, so that a store closed after Wait has no read or
	// write of theirs still going (one held SQLite's file locked as its
	// connection closed after the store's Close: CI's SQLITE_BUSY).
	s.wg.Add(2)
	go func() { defer s.wg.Done(); s.sweep() }()
	go func() { defer s.wg.Done(); s.wakeDue() }() // deadline.go
	return nil
}

// stop waits for the end of ctx, then for the connection readers to hand
// over what they have read, then stops the tables, which apply it first.
func (s *Host) stop() {
	<-s.ctx.Done()
	s.mu.Lock()
	s.closing = true
	s.mu.Unlock()
	s.readers.Wait()
	s.mu.Lock()
	p := s.poller
	s.mu.Unlock()
	if p != nil {
		p.Stop()
	}
	s.stopTables()
	s.own.Stop()
}

// reader registers a connection reader; false once the host stops.
func (s *Host) reader() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closing {
		return false
	}
	s.readers.Add(1)
	return true
}

// stopping reports whether the host is stopping: it then starts nothing
// new (a table, a seat), which it could not finish.
func (s *Host) stopping() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.closing
}

var errStopping = errors.New("server: the server is stopping; try again in a moment")

// storeTimeout bounds one store write.
const storeTimeout = 30 * time.Second

// persist returns the context of a store write. It is cancelled neither
// by the request or connection that caused the write nor by the host
// stopping: a write that has begun must finish, or a table is left half
// written (seats taken, no match) or a player's move is lost. It is
// bounded, so that a hung database cannot hold a table forever.
func (s *Host) persist() (context.Context, context.CancelFunc) {
	return context.WithTimeout(context.WithoutCancel(s.ctx), storeTimeout)
}

func (s *Host) launch(t *table) {
	s.wg.Add(1)
	go func() {
		defer s.wg.Done()
		t.run(s.tctx)
	}()
}

// Wait returns once every table's goroutine, the sweep and the wake-ups
// have stopped (after the context given to New is cancelled): nothing
// of the host's uses the store after it.
func (s *Host) Wait() { s.wg.Wait() }

// SeatChanges counts the seat changes at this node's tables (lobby.Host).
func (s *Host) SeatChanges() int64 { return s.lobbyGen.Load() }

func randomSeed() uint64 {
	var b [8]byte
	rand.Read(b[:])
	return binary.LittleEndian.Uint64(b[:])
}

// botSeed is the seat s's bot's seed at move n of the match dealt from
// seed: a keyed hash (HMAC-SHA-256 with Config.Secret), so that a bot's
// seed, which its moves may betray, tells nothing of the deal, while a
// match replayed after a restart gets the same bots.
func (s *Host) botSeed(seed uint64, seat game.Seat, n int) uint64 {
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

// nothing is the release of a place never held.
func nothing() {}
