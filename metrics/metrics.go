// Package metrics is what a Tapis server tells its operators: Prometheus
// collectors for its moves, tables, connections, store writes, refusals
// and bots, on a registry of its own, served (with the Go runtime's and
// the process's collectors, and pprof) on an address apart from the
// public one (Handler).
//
// The server calls a Metrics through a few hooks; every hook does nothing
// on a nil *Metrics, so that a server without metrics pays nothing but a
// nil check.
package metrics

import (
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
)

// Statuses are the values of tapis_tables' status label, always reported
// (at 0 when no table has it): a loaded table's game status, or dormant
// for an open table that lives only in the store until someone comes.
var Statuses = []string{"waiting", "playing", "over", "dormant"}

// Stages of a move's handling, the values of tapis_move_seconds' stage
// label: each is the time from when the move was read (a person's, from
// the WebSocket; a bot's, when its choice was handed to the table) until
// the rules had applied it, the store had saved it, and every connection
// of the table had been sent its state.
const (
	StageApplied = "applied"
	StageSaved   = "saved"
	StageSent    = "sent"
)

// Metrics holds one server's collectors. A Metrics serves one Server.
type Metrics struct {
	reg          *prometheus.Registry
	moves        prometheus.Counter
	moveSeconds  *prometheus.HistogramVec
	conns        *prometheus.GaugeVec
	refused      *prometheus.CounterVec
	appendSecs   prometheus.Histogram
	appendErrors prometheus.Counter
	think        *prometheus.HistogramVec
	botCPU       prometheus.Counter
}

// latency are the buckets of the server's own latencies (a move's
// handling, a store write), in seconds: from half a millisecond, where an
// embedded store on a fast disk answers, to seconds, where something is
// wrong.
var latency = []float64{.0005, .001, .0025, .005, .01, .025, .05, .1, .25, .5, 1, 2.5, 5}

// thinking are the buckets of a bot's thought, in seconds: a random
// player's microseconds up to a search bot's seconds.
var thinking = []float64{.0001, .001, .01, .05, .1, .25, .5, 1, 2.5, 5, 10}

// New returns a Metrics with its collectors, and the Go runtime's and the
// process's, registered on a registry of its own: tests start many servers
// in one process, which the global registry would not allow.
func New() *Metrics {
	m := &Metrics{
		reg: prometheus.NewRegistry(),
		moves: prometheus.NewCounter(prometheus.CounterOpts{
			Name: "tapis_moves_total",
			Help: "Moves applied and saved, people's and bots' (stand-ins' included); a match restored from the store is not counted again.",
		}),
		moveSeconds: prometheus.NewHistogramVec(prometheus.HistogramOpts{
			Name:    "tapis_move_seconds",
			Help:    "Time from when a move was read to when it was applied, saved, and sent to the table's connections (label stage).",
			Buckets: latency,
		}, []string{"stage"}),
		conns: prometheus.NewGaugeVec(prometheus.GaugeOpts{
			Name: "tapis_connections",
			Help: "Open WebSocket connections at tables, by role: seat (a player's) or spectator.",
		}, []string{"role"}),
		refused: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "tapis_refused_total",
			Help: "Error messages sent to clients, by code (the protocol's error code) and message (the type of the client message refused, or none when it could not be read as one).",
		}, []string{"code", "message"}),
		appendSecs: prometheus.NewHistogram(prometheus.HistogramOpts{
			Name:    "tapis_store_append_seconds",
			Help:    "Time the store took to append a move durably (failed appends included).",
			Buckets: latency,
		}),
		appendErrors: prometheus.NewCounter(prometheus.CounterOpts{
			Name: "tapis_store_append_errors_total",
			Help: "Moves the store failed to append (the move is then undone and refused with code store).",
		}),
		think: prometheus.NewHistogramVec(prometheus.HistogramOpts{
			Name:    "tapis_bot_think_seconds",
			Help:    "Time bots spent choosing a move, by game and level (a stand-in's is its level, easy); the sum is the CPU time bots cost.",
			Buckets: thinking,
		}, []string{"game", "level"}),
		botCPU: prometheus.NewCounter(prometheus.CounterOpts{
			Name: "tapis_bot_search_cpu_seconds_total",
			Help: "CPU time the bots' searches took (normal and hard, in the server's bounded pool), measured on the searching thread.",
		}),
	}
	m.reg.MustRegister(m.moves, m.moveSeconds, m.conns, m.refused, m.appendSecs, m.appendErrors, m.think, m.botCPU,
		collectors.NewGoCollector(), collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}))
	// Both roles are shown from the start, at 0.
	m.conns.WithLabelValues(RoleSeat)
	m.conns.WithLabelValues(RoleSpectator)
	return m
}

// Registry is where the collectors are registered: for a test to gather,
// or for more collectors.
func (m *Metrics) Registry() *prometheus.Registry { return m.reg }

// Moved counts a move applied and saved, and observes its stages: read is
// when it was read, applied, saved and sent when each stage was done.
func (m *Metrics) Moved(read, applied, saved, sent time.Time) {
	if m == nil {
		return
	}
	m.moves.Inc()
	m.moveSeconds.WithLabelValues(StageApplied).Observe(applied.Sub(read).Seconds())
	m.moveSeconds.WithLabelValues(StageSaved).Observe(saved.Sub(read).Seconds())
	m.moveSeconds.WithLabelValues(StageSent).Observe(sent.Sub(read).Seconds())
}

// Roles of a connection, the values of tapis_connections' role label.
const (
	RoleSeat      = "seat"
	RoleSpectator = "spectator"
)

// Connected counts a connection attached to a table (delta 1) or dropped
// (delta -1), in its role.
func (m *Metrics) Connected(role string, delta int) {
	if m == nil {
		return
	}
	m.conns.WithLabelValues(role).Add(float64(delta))
}

// Refused counts an error message sent to a client: its code, and the
// type of the message it answers ("none" when there is none). Both come
// from fixed sets the server knows, never from what a client sent.
func (m *Metrics) Refused(code, message string) {
	if m == nil {
		return
	}
	m.refused.WithLabelValues(code, message).Inc()
}

// Thought adds a bot's thought: its game, its level and how long it took.
func (m *Metrics) Thought(game, level string, d time.Duration) {
	if m == nil {
		return
	}
	m.think.WithLabelValues(game, level).Observe(d.Seconds())
}

// Searched adds the CPU time of one bot search.
func (m *Metrics) Searched(cpu time.Duration) {
	if m == nil {
		return
	}
	m.botCPU.Add(cpu.Seconds())
}

// Now is the time, or the zero time without metrics: what the server's
// hooks stamp a move's stages with, at no cost when nobody reads them.
func (m *Metrics) Now() time.Time {
	if m == nil {
		return time.Time{}
	}
	return time.Now()
}

// CountTables reports tapis_tables, by status, with count, which the
// server gives and which is called at each scrape: the number of tables
// of each status (Statuses; a status count leaves out is 0).
func (m *Metrics) CountTables(count func() map[string]int) {
	if m == nil {
		return
	}
	m.reg.MustRegister(&tables{count: count, desc: prometheus.NewDesc("tapis_tables",
		"Open tables, by status: loaded ones by their game's status (waiting, playing, over), and dormant ones, kept in the store until someone comes back.",
		[]string{"status"}, nil)})
}

// tables is tapis_tables' collector: counted when scraped, so that the
// server need not keep a gauge in step with every table's life.
type tables struct {
	count func() map[string]int
	desc  *prometheus.Desc
}

func (t *tables) Describe(ch chan<- *prometheus.Desc) { ch <- t.desc }

func (t *tables) Collect(ch chan<- prometheus.Metric) {
	n := t.count()
	for _, s := range Statuses {
		ch <- prometheus.MustNewConstMetric(t.desc, prometheus.GaugeValue, float64(n[s]), s)
	}
}
