package server

import (
	"fmt"
	"net/http"
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
	// ChatEvery and ChatBurst: one chat line every ChatEvery per
	// connection on average, in bursts of ChatBurst (default 2s and 5; a
	// negative ChatEvery: no limit). Lines beyond are refused, not queued.
	ChatEvery time.Duration
	ChatBurst int
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
	}{{&l.CreateEvery, 6 * time.Second}, {&l.JoinEvery, time.Second}, {&l.ChatEvery, 2 * time.Second},
		{&l.ConnectEvery, 500 * time.Millisecond}} {
		if *d.f == 0 {
			*d.f = d.v
		}
	}
	for _, d := range []struct {
		f *int
		v int
	}{{&l.CreateBurst, 10}, {&l.JoinBurst, 20}, {&l.Waiting, 10}, {&l.Conns, 64}, {&l.Watchers, 200}, {&l.SeatConns, 4}, {&l.ChatBurst, 5},
		{&l.ConnectBurst, 10}} {
		if *d.f == 0 {
			*d.f = d.v
		}
	}
}

// guard holds the per-client limits' state.
type guard struct {
	proxies limit.Proxies
	creates *limit.Rates
	joins   *limit.Rates
	conns   *limit.Counts
	waiting *limit.Counts
	// connects paces the WebSockets opened per table and network
	// (welcome.go).
	connects *limit.Rates
}

func newGuard(cfg *Config) *guard {
	cfg.Limits.defaults()
	l := cfg.Limits
	rates := func(every time.Duration, burst int) *limit.Rates {
		if every < 0 || burst < 0 {
			return limit.NewRates(rate.Inf, 1, 1)
		}
		return limit.NewRates(rate.Every(every), burst, maxClients)
	}
	return &guard{
		proxies:  cfg.Proxies,
		creates:  rates(l.CreateEvery, l.CreateBurst),
		joins:    rates(l.JoinEvery, l.JoinBurst),
		conns:    limit.NewCounts(l.Conns, 0),
		waiting:  limit.NewCounts(l.Waiting, 0),
		connects: rates(l.ConnectEvery, l.ConnectBurst),
	}
}

// client is the limit key of the request's client.
func (g *guard) client(r *http.Request) string { return limit.Key(g.proxies.Client(r)) }

// allow spends one of the client's actions of rates, or answers 429 with
// Retry-After and returns false.
func allow(w http.ResponseWriter, rates *limit.Rates, client, what string) bool {
	retry, ok := rates.Allow(client)
	if !ok {
		w.Header().Set("Retry-After", limit.RetryAfter(retry))
		api.Error(w, http.StatusTooManyRequests, "too_fast",
			fmt.Sprintf("server: too many %s from your address; try again in %s", what, retry.Round(time.Second)))
	}
	return ok
}
