package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"math/rand/v2"
	"os"
	"os/signal"
	"runtime/debug"
	"slices"
	"strings"
	"sync"
	"syscall"
	"time"

	"tapis/client"
)

// runLoadtest is `tapis loadtest`: tables created through the public API,
// each person's seat a WebSocket client playing random legal moves after
// a think time, for a while; it prints how many moves were played and how
// long the server took to answer them.
func runLoadtest(args []string, stdout, stderr io.Writer) int {
	fl := flags("loadtest", `Measures a running server: --tables tables created through its public API,
each person's seat a WebSocket client playing random legal moves after a
think time, for --duration; then prints the moves played and how long the
server took to answer them. Exit 1 if anything went wrong, 2 for a bad
command line or a server that does not answer.

Each table's requests say they come from an address of its own
(X-Forwarded-For): a server started with --trusted-proxy naming this
machine then applies its per-client limits to each table apart; any other
server sees one client, and may refuse it as too fast (429).`)
	var o loadOptions
	fl.StringVar(&o.url, "url", "", "the server's address (http://127.0.0.1:8080), or several nodes' of a cluster, comma-separated: table i and its clients go to the i-th, round robin, as a load balancer would send them; required")
	fl.StringVar(&o.game, "game", "cabo", "the game the tables play")
	fl.IntVar(&o.players, "players", 2, "seats at each table, bots included")
	fl.IntVar(&o.tables, "tables", 1, "tables played at once")
	fl.DurationVar(&o.think, "think", 500*time.Millisecond, "a client's think time before each move: drawn from 0.5 to 1.5 times this")
	fl.DurationVar(&o.duration, "duration", 30*time.Second, "how long the clients play, table creation included")
	fl.StringVar(&o.bots, "bots", "", `a bot level ("random", "easy", "normal", "hard") for every seat but the first: each table then has one client and players-1 of the server's bots`)
	fl.DurationVar(&o.warmup, "warmup", 0, "leave the round trips of moves sent in the run's first DURATION out of p50/p99/max (the tables being made and joined), to measure the steady state; moves are all counted")
	fl.BoolVar(&o.reconnect, "reconnect", false, "dial a seat's lost connection again (a server restarted during the run) until it is back, and report how long seats were away, instead of counting the loss as an error")
	fl.DurationVar(&o.progress, "progress", 5*time.Second, "how often to say on stderr how the run is going: tables, moves, errors, refusals (0: never)")
	asJSON := fl.Bool("json", false, "print the figures as one JSON object")
	if status, ok := parse(fl, args, stdout, stderr); !ok {
		return status
	}
	if fl.NArg() > 0 {
		fail(stderr, "loadtest", "unexpected %q: every setting is a flag (tapis loadtest -h)", fl.Arg(0))
		return 2
	}
	if err := o.check(); err != nil {
		fail(stderr, "loadtest", "%v", err)
		return 2
	}
	// The load generator's own collections pause its readers, and the
	// pause would be counted as the server's round trip: with 16,000
	// sockets on one core, its marks of some 300 MB every 12 s took the
	// p99 from about 120 ms to 300-500 ms (docs/performance.md, "8,000
	// tables"). It collects four times less often, unless GOGC says.
	if os.Getenv("GOGC") == "" {
		debug.SetGCPercent(400)
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	if err := preflight(ctx, o); err != nil {
		fail(stderr, "loadtest", "%v", err)
		return 2
	}
	rep := loadtest(ctx, o, stderr)
	if *asJSON {
		enc := json.NewEncoder(stdout)
		enc.SetIndent("", "  ")
		enc.Encode(rep)
	} else {
		rep.print(stdout)
	}
	if rep.Errors > 0 {
		return 1
	}
	return 0
}

// loadOptions are loadtest's flags.
type loadOptions struct {
	url, game, bots string
	players, tables int
	think, duration time.Duration
	progress        time.Duration // how often to print how the run goes
	reconnect       bool          // dial lost connections again (--reconnect)
	warmup          time.Duration // round trips left out of the quantiles at first (--warmup)
	steadyFrom      time.Time     // the run's start + warmup: set by loadtest
	drain           time.Duration // how long to wait for the last moves' answers
}

// urls are the servers of --url.
func (o *loadOptions) urls() []string {
	us := strings.Split(o.url, ",")
	for i, u := range us {
		us[i] = strings.TrimSpace(u)
	}
	return us
}

func (o *loadOptions) check() error {
	switch {
	case o.url == "":
		return errors.New("--url is required")
	case o.players < 1 || o.tables < 1:
		return errors.New("--players and --tables must be at least 1")
	case o.think < 0 || o.duration <= 0:
		return errors.New("--think must be 0 or more and --duration more than 0")
	case o.warmup < 0 || o.warmup >= o.duration:
		return errors.New("--warmup must be 0 or more and less than --duration")
	case o.bots != "" && o.players < 2:
		return errors.New("--bots needs --players 2 or more: the first seat is the client's")
	}
	for _, u := range o.urls() {
		if _, err := client.New(u); err != nil {
			return fmt.Errorf("--url %q: want http://host:port or https://host (several: comma-separated)", u)
		}
	}
	if o.drain == 0 {
		o.drain = 5 * time.Second
	}
	return nil
}

// loadReport is what a load test measured. Times are in milliseconds.
type loadReport struct {
	Game    string  `json:"game"`
	Players int     `json:"players"`
	Tables  int     `json:"tables"`
	Bots    string  `json:"bots,omitempty"`
	ThinkMS float64 `json:"think_ms"`
	// WarmupS is --warmup: the round trips of moves sent before it are
	// left out of the quantiles.
	WarmupS  float64 `json:"warmup_s,omitempty"`
	Duration float64 `json:"duration_s"`
	// Moves are the clients' moves the server applied; MovesPerSecond
	// divides them by the duration.
	Moves          int     `json:"moves"`
	MovesPerSecond float64 `json:"moves_per_second"`
	// P50MS, P99MS and MaxMS are the round trips of those moves: from
	// sending a move to receiving the state that follows it.
	P50MS float64 `json:"p50_ms"`
	P99MS float64 `json:"p99_ms"`
	MaxMS float64 `json:"max_ms"`
	// Stale counts moves the server refused because another seat had
	// moved first (a simultaneous phase): the protocol's answer, not a
	// fault; the client then plays from the newer state.
	Stale int `json:"stale"`
	// Matches counts the matches that ended (each table then plays again).
	Matches int `json:"matches"`
	// Errors counts everything else that went wrong: tables not created
	// or joined, connections lost, refusals, moves never answered.
	Errors int `json:"errors"`
	// TooFast counts the server's refusals for going too fast (429, and
	// too_fast over a WebSocket): its per-client limits (--trusted-proxy).
	TooFast int `json:"too_fast"`
	// BotMoves and the bot times: from a state in which a bot must act to
	// the state that follows its move, as the table's client sees it
	// (the server's --bot-delay included).
	BotMoves int     `json:"bot_moves,omitempty"`
	BotP50MS float64 `json:"bot_p50_ms,omitempty"`
	BotP99MS float64 `json:"bot_p99_ms,omitempty"`
	BotMaxMS float64 `json:"bot_max_ms,omitempty"`
	// Reconnects counts the seats' connections lost and dialled again
	// (--reconnect), and the Away times how long each was gone: from the
	// loss to the seat's welcome on its new connection.
	Reconnects int     `json:"reconnects,omitempty"`
	AwayP50MS  float64 `json:"away_p50_ms,omitempty"`
	AwayP99MS  float64 `json:"away_p99_ms,omitempty"`
	AwayMaxMS  float64 `json:"away_max_ms,omitempty"`
}

func (r *loadReport) print(w io.Writer) {
	fmt.Fprintf(w, "%d tables of %s, %d players", r.Tables, r.Game, r.Players)
	if r.Bots != "" {
		fmt.Fprintf(w, " (one client, %d %s bots)", r.Players-1, r.Bots)
	}
	fmt.Fprintf(w, ", think %.0f ms, %.1f s", r.ThinkMS, r.Duration)
	if r.WarmupS > 0 {
		fmt.Fprintf(w, " (round trips from the %.0fth second)", r.WarmupS)
	}
	fmt.Fprintln(w)
	fmt.Fprintf(w, "moves             %d\nmoves_per_second  %.1f\np50_ms            %.1f\np99_ms            %.1f\nmax_ms            %.1f\n",
		r.Moves, r.MovesPerSecond, r.P50MS, r.P99MS, r.MaxMS)
	fmt.Fprintf(w, "stale             %d\nmatches           %d\nerrors            %d\n", r.Stale, r.Matches, r.Errors)
	if r.TooFast > 0 {
		fmt.Fprintf(w, "too_fast          %d (refused by the server's per-client limits: see tapis serve --trusted-proxy)\n", r.TooFast)
	}
	if r.BotMoves > 0 {
		fmt.Fprintf(w, "bot_moves         %d\nbot_p50_ms        %.1f\nbot_p99_ms        %.1f\nbot_max_ms        %.1f\n",
			r.BotMoves, r.BotP50MS, r.BotP99MS, r.BotMaxMS)
	}
	if r.Reconnects > 0 {
		fmt.Fprintf(w, "reconnects        %d\naway_p50_ms       %.1f\naway_p99_ms       %.1f\naway_max_ms       %.1f\n",
			r.Reconnects, r.AwayP50MS, r.AwayP99MS, r.AwayMaxMS)
	}
}

// tally gathers the clients' measurements.
type tally struct {
	mu         sync.Mutex
	rtts, bots []time.Duration
	steady     []time.Duration // the round trips of moves sent after --warmup
	stale      int
	matches    int
	errors     int
	refused    int // refusals for going too fast (tooFast)
	playing    int // tables whose clients are all connected, now
	away       int // seats whose connection is lost and being dialled again, now
	aways      []time.Duration
	log        io.Writer
}

// fail counts an error; the first few are told on the log.
func (t *tally) fail(format string, args ...any) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.errors++
	if t.errors <= 10 {
		fmt.Fprintf(t.log, "tapis loadtest: "+format+"\n", args...)
	} else if t.errors == 11 {
		fmt.Fprintln(t.log, "tapis loadtest: more errors follow; only their count is kept")
	}
}

func (t *tally) add(f func(t *tally)) {
	t.mu.Lock()
	defer t.mu.Unlock()
	f(t)
}

// loadtest runs the tables until o.duration has passed (or ctx ends, or
// every table has given up), then waits for the answers to the moves in
// flight and reports. It says how the run goes on log every o.progress.
func loadtest(ctx context.Context, o loadOptions, log io.Writer) *loadReport {
	start := time.Now()
	o.steadyFrom = start.Add(o.warmup)
	play, stop := context.WithTimeout(ctx, o.duration)
	defer stop()
	t := &tally{log: log}
	var wg sync.WaitGroup
	for i := range o.tables {
		wg.Go(func() { runTable(play, o, i, t) })
	}
	ended := make(chan struct{})
	go func() {
		wg.Wait()
		close(ended)
	}()
	pctx, stopProgress := context.WithCancel(play)
	progressDone := make(chan struct{})
	go func() {
		defer close(progressDone)
		progress(pctx, t, o.tables, o.progress, log)
	}()
	select {
	case <-play.Done():
	case <-ended:
		// Every table failed before the end: waiting on would only
		// print zeros later.
	}
	elapsed := time.Since(start)
	stopProgress()
	<-progressDone
	stop()
	<-ended
	rep := &loadReport{Game: o.game, Players: o.players, Tables: o.tables, Bots: o.bots,
		ThinkMS: ms(o.think), Duration: elapsed.Seconds(), Moves: len(t.rtts),
		MovesPerSecond: float64(len(t.rtts)) / elapsed.Seconds(),
		Stale:          t.stale, Matches: t.matches, Errors: t.errors, TooFast: t.refused, BotMoves: len(t.bots)}
	rep.P50MS, rep.P99MS, rep.MaxMS = quantiles(t.rtts)
	if o.warmup > 0 {
		rep.WarmupS = o.warmup.Seconds()
		rep.P50MS, rep.P99MS, rep.MaxMS = quantiles(t.steady)
	}
	rep.BotP50MS, rep.BotP99MS, rep.BotMaxMS = quantiles(t.bots)
	rep.Reconnects = len(t.aways)
	rep.AwayP50MS, rep.AwayP99MS, rep.AwayMaxMS = quantiles(t.aways)
	return rep
}

// quantiles returns the median, the 99th percentile (nearest rank) and
// the maximum of ds, in milliseconds; it sorts ds.
func quantiles(ds []time.Duration) (p50, p99, max float64) {
	if len(ds) == 0 {
		return 0, 0, 0
	}
	slices.Sort(ds)
	rank := func(p float64) time.Duration {
		return ds[int(math.Ceil(p*float64(len(ds))))-1]
	}
	return ms(rank(0.50)), ms(rank(0.99)), ms(ds[len(ds)-1])
}

func ms(d time.Duration) float64 { return math.Round(float64(d)/float64(time.Microsecond)) / 1000 }

// runTable creates table i, seats its clients and plays until ctx ends.
// Its requests say they come from an address of the table's own
// (X-Forwarded-For 10.x.y.1, loadAddr): a server that trusts the load test's
// machine as a proxy (`tapis serve --trusted-proxy 127.0.0.1/32`) then
// applies its per-address limits to each table apart, as it would to
// people at their own machines; any other server ignores the header.
func runTable(ctx context.Context, o loadOptions, i int, t *tally) {
	n := i + 1
	urls := o.urls()
	c, err := client.New(urls[i%len(urls)], client.WithHeader("X-Forwarded-For", loadAddr(n)))
	if err != nil {
		t.fail("%v", err)
		return
	}
	people := o.players
	bots := make([]string, o.players)
	if o.bots != "" {
		people = 1
		for s := 1; s < o.players; s++ {
			bots[s] = o.bots
		}
	}
	var seats []client.Seat
	seat, err := retry(ctx, t, func() (client.Seat, error) {
		return c.Create(ctx, client.NewTable{Game: o.game, Players: o.players, Bots: bots, Name: "Load 0"})
	})
	if err != nil {
		if ctx.Err() == nil {
			t.fail("table %d: %v", i, err)
		}
		return
	}
	seats = append(seats, seat)
	for p := 1; p < people; p++ {
		s, err := retry(ctx, t, func() (client.Seat, error) { return c.Join(ctx, seat.Table, fmt.Sprintf("Load %d", p)) })
		if err != nil {
			if ctx.Err() == nil {
				t.fail("table %d: join: %v", i, err)
			}
			return
		}
		seats = append(seats, s)
	}
	var wg sync.WaitGroup
	dialed := 0
	for p, s := range seats {
		conn, err := c.Dial(ctx, s.Table, s.Token)
		if err != nil {
			if ctx.Err() == nil {
				if dialTooFast.MatchString(err.Error()) {
					t.tooFast("429 on the WebSocket")
				}
				t.fail("table %d seat %d: %v", i, s.Seat, err)
			}
			break
		}
		dialed++
		pl := &seatPlayer{conn: conn, o: o, t: t, host: p == 0, rng: rand.New(rand.NewPCG(uint64(i), uint64(p))),
			dial: func(ctx context.Context) (*client.Conn, error) { return c.Dial(ctx, s.Table, s.Token) }}
		wg.Go(func() { pl.play(ctx) })
	}
	if dialed == len(seats) {
		t.add(func(t *tally) { t.playing++ })
		defer t.add(func(t *tally) { t.playing-- })
	}
	wg.Wait()
}

// loadAddr is table n's client address: 10.x.y.1, one IPv4 /24 network
// a table, so that the server's per-network budgets (tables created,
// tables held, sockets) treat each table as people on networks of their
// own, as its per-address ones do. With four tables a /24 (10.0.0.n) the
// network budgets refused most creations of a 1,000-table run, whose
// clients then connected over the run's first minute.
func loadAddr(n int) string { return fmt.Sprintf("10.%d.%d.1", n>>8&255, n&255) }

// retry calls f until it is not refused for going too fast, waiting as
// the server asks, or until ctx ends; it counts the refusals in t.
func retry(ctx context.Context, t *tally, f func() (client.Seat, error)) (client.Seat, error) {
	for {
		s, err := f()
		wait, fast := client.IsTooFast(err)
		if !fast {
			return s, err
		}
		var api *client.APIError
		errors.As(err, &api)
		t.tooFast(fmt.Sprintf("%d %s", api.Status, api.Code))
		select {
		case <-ctx.Done():
			return s, err
		case <-time.After(max(wait, 100*time.Millisecond)):
		}
	}
}
