package server

import (
	"fmt"
	"net/http"
	"net/netip"
	"time"

	"golang.org/x/time/rate"

	"tapis/api"
	"tapis/limit"
)

// Limits bound what one client, known by its address (an IPv6 client by
// its /64), may make the server spend, so that one script cannot fill the
// server for everyone. Zero fields take the defaults given; a negative
// one means no limit.
type Limits struct {
	// CreateEvery and CreateBurst: one table created every CreateEvery
	// on average, in bursts of CreateBurst (default 6s and 10).
	CreateEvery time.Duration
	CreateBurst int
	// JoinEvery and JoinBurst: the same for taking seats (default 1s
	// and 20).
	JoinEvery time.Duration
	JoinBurst int
	// Waiting is how many of its tables one client may have waiting for
	// players at once (default 10).
	Waiting int
	// Conns is how many WebSockets one client may hold open (default
	// 64); Watchers how many spectators one table may have (default
	// 200); SeatConns how many connections one seat may have (default 4:
	// a phone and a laptop, a tab reloading).
	Conns, Watchers, SeatConns int
	// ChatEvery and ChatBurst: one chat line every ChatEvery on average,
	// in bursts of ChatBurst, per writer and table (default 2s and 5; a
	// negative ChatEvery: no limit on the chat at all). A writer is a
	// signed-in player, a seat, or an anonymous spectator's address (its
	// /64), never a connection: reconnecting does not refill it. Lines
	// beyond are refused, not queued.
	ChatEvery time.Duration
	ChatBurst int
	// ChatNetEvery and ChatNetBurst: the same per network (IPv4 /24, IPv6
	// /48) and table, which all the writers of one network share
	// (default 1s and 10: two people behind one address chat freely; a
	// negative ChatNetEvery: no limit per network).
	ChatNetEvery time.Duration
	ChatNetBurst int

	// The budgets of a network (limit.Network: an IPv4 /24, an IPv6
	// /48), which all its clients share: a flood from many addresses of
	// one network spends no more of the server than these (issue 24,
	// finding 5: 970 addresses filled MaxTables in 3 s). Each aggregates
	// a per-client limit above: when that one is off (negative), so is
	// its network's unless set here.
	//
	// NetCreateEvery and NetCreateBurst: the tables one network may
	// create, quick-match entries included (default one every 1s, in
	// bursts of 50: five clients' worth).
	NetCreateEvery time.Duration
	NetCreateBurst int
	// NetWaiting is how many tables created from one network may wait
	// for players at once (default 100: ten clients' worth).
	NetWaiting int
	// NetTables is how many of the tables held in memory one network's
	// clients may have created (default MaxTables/10, at least 20): it
	// takes ten networks to fill the server.
	NetTables int
	// NetConns is how many WebSockets one network's clients may hold open
	// at once (default 1024: sixteen clients' worth; off with Conns unless
	// set). Issue 24: 10,000 spectator sockets from one /24 raised the
	// server's memory by 245 MB.
	NetConns int
	// TotalConns is how many WebSockets the whole server holds open at
	// once (default 50,000, about 1.25 GB at ~25 KB each; negative: no
	// bound).
	TotalConns int
	// BusyIdle is how long a table nobody is connected to stays in
	// memory while the server is busy, its tables in memory at 3/4 of
	// MaxTables or more (default 30s, instead of Config.IdleTimeout): a
	// waiting table is then closed as expired, another goes to sleep in
	// the store.
	BusyIdle time.Duration

	// ConnectEvery and ConnectBurst pace the WebSockets opened to one
	// table from one network (an IPv4 /24, an IPv6 /48): one every
	// ConnectEvery on average, in bursts of ConnectBurst (default 500ms
	// and 10). Each connection costs the table's goroutine its welcome;
	// beyond, 429 with Retry-After.
	ConnectEvery time.Duration
	ConnectBurst int
}

// maxClients bounds the clients the rate limits remember at once.
const maxClients = 100_000

func (l *Limits) defaults() {
	for _, d := range []struct {
		f *time.Duration
		v time.Duration
	}{{&l.CreateEvery, 6 * time.Second}, {&l.JoinEvery, time.Second}, {&l.ChatEvery, 2 * time.Second}, {&l.ChatNetEvery, time.Second},
		{&l.ConnectEvery, 500 * time.Millisecond}} {
		if *d.f == 0 {
			*d.f = d.v
		}
	}
	for _, d := range []struct {
		f *int
		v int
	}{{&l.CreateBurst, 10}, {&l.JoinBurst, 20}, {&l.Waiting, 10}, {&l.Conns, 64}, {&l.Watchers, 200}, {&l.SeatConns, 4}, {&l.ChatBurst, 5}, {&l.ChatNetBurst, 10},
		{&l.ConnectBurst, 10}} {
		if *d.f == 0 {
			*d.f = d.v
		}
	}
}

// netDefaults sets the network budgets left zero, once the per-client
// ones and maxTables are known.
func (l *Limits) netDefaults(maxTables int) {
	off := func(client bool, f *int, v int) {
		switch {
		case *f != 0:
		case client:
			*f = -1
		default:
			*f = v
		}
	}
	creatingOff := l.CreateEvery < 0 || l.CreateBurst < 0
	if l.NetCreateEvery == 0 {
		l.NetCreateEvery = time.Second
		if creatingOff {
			l.NetCreateEvery = -1
		}
	}
	off(creatingOff, &l.NetCreateBurst, 50)
	off(creatingOff, &l.NetTables, max(maxTables/10, 20))
	off(l.Waiting < 0, &l.NetWaiting, 100)
	off(l.Conns < 0, &l.NetConns, 1024)
	if l.TotalConns == 0 {
		l.TotalConns = 50_000
	}
}

// guard holds the per-client and per-network limits' state. It is the
// table host's table.Guard: the host spends its limits through the
// methods below, which answer a request they refuse themselves.
type guard struct {
	limits     Limits
	proxies    limit.Proxies
	creates    *limit.Rates
	netCreates *limit.Rates
	joins      *limit.Rates
	conns      *limit.Counts
	// netConns counts the WebSockets open per network, totalConns all
	// of them (Limits.NetConns, Limits.TotalConns).
	netConns, totalConns *limit.Counts
	waiting              *limit.Counts
	netWaiting           *limit.Counts
	// netTables counts the tables in memory by their creator's network,
	// from creation until they go (Limits.NetTables).
	netTables *limit.Counts
	// chats and chatNets pace the chat per writer and per network, each
	// at each table (package table/chat).
	chats, chatNets *limit.Rates
	// connects paces the WebSockets opened per table and network
	// (table/welcome.go).
	connects *limit.Rates
}

func newGuard(cfg *Config) *guard {
	cfg.Limits.defaults()
	cfg.Limits.netDefaults(cfg.MaxTables)
	l := cfg.Limits
	rates := func(every time.Duration, burst int) *limit.Rates {
		if every < 0 || burst < 0 {
			return limit.NewRates(rate.Inf, 1, 1)
		}
		return limit.NewRates(rate.Every(every), burst, maxClients)
	}
	g := &guard{
		limits:     l,
		proxies:    cfg.Proxies,
		creates:    rates(l.CreateEvery, l.CreateBurst),
		netCreates: rates(l.NetCreateEvery, l.NetCreateBurst),
		joins:      rates(l.JoinEvery, l.JoinBurst),
		conns:      limit.NewCounts(l.Conns, 0),
		netConns:   limit.NewCounts(l.NetConns, 0),
		totalConns: limit.NewCounts(0, l.TotalConns),
		waiting:    limit.NewCounts(l.Waiting, 0),
		netWaiting: limit.NewCounts(l.NetWaiting, 0),
		netTables:  limit.NewCounts(l.NetTables, 0),
		chats:      rates(l.ChatEvery, l.ChatBurst),
		chatNets:   rates(l.ChatNetEvery, l.ChatNetBurst),
		connects:   rates(l.ConnectEvery, l.ConnectBurst),
	}
	if l.ChatEvery < 0 {
		g.chatNets = rates(-1, 0)
	}
	return g
}

// Client is the limit key of the request's client.
func (g *guard) Client(r *http.Request) string { return limit.Key(g.proxies.Client(r)) }

// network is the limit key of the request's client's network.
func (g *guard) network(r *http.Request) string { return limit.Network(g.proxies.Client(r)) }

// networkOf returns the network of a client's limit key (limit.Key: an
// IPv4 address or an IPv6 /64), as a table's creator is stored; a key
// that is neither (the quick-match queue's "queue", "" for a client
// without an address) has none, "".
func networkOf(key string) string {
	if a, err := netip.ParseAddr(key); err == nil {
		return limit.Network(a)
	}
	if p, err := netip.ParsePrefix(key); err == nil {
		return limit.Network(p.Addr())
	}
	return ""
}

// AllowCreate spends one table creation of the request's client and of
// its network, or answers 429 with Retry-After and returns false. A table
// is made by POST /api/tables and by a quick-match entry alike (issue 24,
// finding 13: quick match made tables 4–6× faster on the join budget).
func (g *guard) AllowCreate(w http.ResponseWriter, r *http.Request) bool {
	if !allow(w, g.creates, g.Client(r), "new tables") {
		return false
	}
	retry, ok := g.netCreates.Allow(g.network(r))
	if !ok {
		w.Header().Set("Retry-After", limit.RetryAfter(retry))
		api.Error(w, http.StatusTooManyRequests, api.CodeTooFastNetwork,
			fmt.Sprintf("server: too many new tables from your network; try again in %s", retry.Round(time.Second)))
	}
	return ok
}

// AllowJoin spends one of the seats the request's client may take, or
// answers 429 with Retry-After and returns false.
func (g *guard) AllowJoin(w http.ResponseWriter, r *http.Request) bool {
	return allow(w, g.joins, g.Client(r), "seats taken")
}

// HoldTable takes one of the places among the tables in memory of the
// network of client, a table's creator's limit key, or answers 429 with
// Retry-After and returns false: one network's clients together hold no
// more than their share of the tables in memory (Limits.NetTables), from
// creation until the table goes, so that many addresses of one network
// cannot fill the server.
func (g *guard) HoldTable(w http.ResponseWriter, client string) (release func(), ok bool) {
	net := networkOf(client)
	if net == "" {
		return nothing, true
	}
	if release, ok = g.netTables.Acquire(net); !ok {
		w.Header().Set("Retry-After", limit.RetryAfter(g.limits.BusyIdle))
		api.Error(w, http.StatusTooManyRequests, api.CodeTooManyTablesNetwork,
			fmt.Sprintf("server: your network holds %d tables already, its share of this server; try again later", g.limits.NetTables))
	}
	return release, ok
}

// HoldWaiting takes a waiting table's places, its creator's and its
// creator's network's, and returns the function that gives both back; or
// says which bound refused it.
func (g *guard) HoldWaiting(client string) (release func(), refused string) {
	mine, ok := g.waiting.Acquire(client)
	if !ok {
		return nothing, "client"
	}
	net := networkOf(client)
	if net == "" {
		return mine, ""
	}
	ours, ok := g.netWaiting.Acquire(net)
	if !ok {
		mine()
		return nothing, "network"
	}
	return func() { mine(); ours() }, ""
}

// RefuseWaiting answers 429 to the creation of a table waiting for
// players that HoldWaiting refused.
func (g *guard) RefuseWaiting(w http.ResponseWriter, refused string) {
	if refused == "network" {
		w.Header().Set("Retry-After", limit.RetryAfter(g.limits.BusyIdle))
		api.Error(w, http.StatusTooManyRequests, api.CodeTooManyWaitingNetwork,
			fmt.Sprintf("server: %d tables from your network are waiting for players already; try again later", g.limits.NetWaiting))
		return
	}
	api.Error(w, http.StatusTooManyRequests, api.CodeTooManyWaiting,
		fmt.Sprintf("server: %d of your tables are waiting for players already; start or leave one first", g.limits.Waiting))
}

// HoldConn takes the places of a WebSocket, its client's, its network's
// and the server's, or answers 429 and returns false.
func (g *guard) HoldConn(w http.ResponseWriter, r *http.Request) (release func(), ok bool) {
	mine, ok := g.conns.Acquire(g.Client(r))
	if !ok {
		api.Error(w, http.StatusTooManyRequests, api.CodeTooManyConns,
			fmt.Sprintf("server: your address holds %d connections already; close some", g.limits.Conns))
		return nothing, false
	}
	ours, ok := g.netConns.Acquire(g.network(r))
	if !ok {
		mine()
		api.Error(w, http.StatusTooManyRequests, api.CodeTooManyConnsNetwork,
			fmt.Sprintf("server: your network holds %d connections already; close some", g.limits.NetConns))
		return nothing, false
	}
	all, ok := g.totalConns.Acquire("")
	if !ok {
		ours()
		mine()
		api.Error(w, http.StatusTooManyRequests, api.CodeTooManyConnsServer,
			fmt.Sprintf("server: the server holds %d connections already; try again later", g.limits.TotalConns))
		return nothing, false
	}
	return func() { all(); ours(); mine() }, true
}

// PaceConnect spends one of the connects of the request's network at
// table, or answers 429 with Retry-After and returns false (welcome.go in
// package table says why).
func (g *guard) PaceConnect(w http.ResponseWriter, r *http.Request, table string) bool {
	network := limit.Network(g.proxies.Client(r))
	retry, ok := g.connects.Allow(table + " " + network)
	if !ok {
		w.Header().Set("Retry-After", limit.RetryAfter(retry))
		api.Error(w, http.StatusTooManyRequests, api.CodeTooManyConnects,
			fmt.Sprintf("server: too many connections opened to this table from your network; try again in %s",
				max(retry, time.Second).Round(time.Second)))
	}
	return ok
}

// PaceChat spends a chat line of both of a connection's chat budgets,
// its writer's (who) and its network's (net) at its table, or says how
// long to wait. The writer's is asked first: a flooder alone at its
// network is refused there and spends nothing of the network's, which its
// neighbours share.
func (g *guard) PaceChat(who, net string) (time.Duration, bool) {
	if d, ok := g.chats.Allow(who); !ok {
		return d, false
	}
	return g.chatNets.Allow(net)
}

func nothing() {}

// allow spends one of the client's actions of rates, or answers 429 with
// Retry-After and returns false.
func allow(w http.ResponseWriter, rates *limit.Rates, client, what string) bool {
	retry, ok := rates.Allow(client)
	if !ok {
		w.Header().Set("Retry-After", limit.RetryAfter(retry))
		api.Error(w, http.StatusTooManyRequests, api.CodeTooFast,
			fmt.Sprintf("server: too many %s from your address; try again in %s", what, retry.Round(time.Second)))
	}
	return ok
}
