package analysis

import (
	"context"
	"encoding/json"
	"errors"
	"log/slog"
	"runtime"
	"sync"
	"time"

	"tapis/game"
	"tapis/store"
)

// Store is what the worker reads and writes of the store.
type Store interface {
	// Match returns a table with match no (store.Store's).
	Match(ctx context.Context, table string, no int) (store.Saved, error)
	SaveAnalysis(ctx context.Context, table string, no int, report []byte, at time.Time) error
	Analysis(ctx context.Context, table string, no int) ([]byte, error)
}

// Config sets up a Worker. Store and Games are required.
type Config struct {
	Store Store
	Games []game.Game
	// Spare runs one search in the bot pool if a place is free at once,
	// and reports false without running it otherwise (the table host's
	// Spare): the analysis takes a place only when no bot waits for one.
	// Nil runs searches at once (tests, tools).
	Spare func(search func()) bool
	// Retry is how long the worker waits for the pool to have a free
	// place again (default 50ms).
	Retry time.Duration
	// Queue bounds the matches waiting to be analysed (default 256): a
	// match that finds it full is analysed when its analysis is asked
	// for.
	Queue int
	// Playouts is a decision's budget (0: Budget of the game and table size).
	Playouts int
	Logger   *slog.Logger
}

// Worker analyses finished matches, one at a time, and keeps each report
// in the store: a match is analysed once, whoever asks and however often.
type Worker struct {
	cfg   Config
	games map[string]game.Game
	jobs  chan job
	log   *slog.Logger

	mu     sync.Mutex
	queued map[job]bool // waiting or being analysed
	// done is closed and replaced when a job ends (tests wait on it).
	done chan struct{}
}

type job struct {
	table string
	no    int
}

// NewWorker returns the worker of c; Run does its work.
func NewWorker(c Config) *Worker {
	if c.Retry <= 0 {
		c.Retry = 50 * time.Millisecond
	}
	if c.Queue <= 0 {
		c.Queue = 256
	}
	w := &Worker{cfg: c, games: map[string]game.Game{}, jobs: make(chan job, c.Queue), log: c.Logger,
		queued: map[job]bool{}, done: make(chan struct{})}
	if w.log == nil {
		w.log = slog.Default()
	}
	for _, g := range c.Games {
		w.games[g.Name()] = g
	}
	return w
}

// Queue asks for match no of a table to be analysed, without waiting: a
// match already waiting or being analysed is not queued twice, and one
// that finds the queue full is not queued (false).
func (w *Worker) Queue(table string, no int) bool {
	j := job{table, no}
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.queued[j] {
		return true
	}
	select {
	case w.jobs <- j:
		w.queued[j] = true
		return true
	default:
		return false
	}
}

// Pending reports whether match no of a table waits to be analysed or is
// being analysed.
func (w *Worker) Pending(table string, no int) bool {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.queued[job{table, no}]
}

// Report returns the analysis kept for match no of a table, as JSON; when
// there is none yet it queues the match and returns an error wrapping
// store.ErrNotFound. The caller has checked that the match is over.
func (w *Worker) Report(ctx context.Context, table string, no int) ([]byte, error) {
	b, err := w.cfg.Store.Analysis(ctx, table, no)
	if errors.Is(err, store.ErrNotFound) {
		w.Queue(table, no)
	}
	return b, err
}

// Run analyses the queued matches until ctx ends.
func (w *Worker) Run(ctx context.Context) {
	for {
		select {
		case <-ctx.Done():
			return
		case j := <-w.jobs:
			w.analyse(ctx, j)
			w.mu.Lock()
			delete(w.queued, j)
			close(w.done)
			w.done = make(chan struct{})
			w.mu.Unlock()
		}
	}
}

// Ended returns a channel closed when the next analysis ends (tests).
func (w *Worker) Ended() <-chan struct{} {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.done
}

// analyse computes and keeps the report of job j, unless one is kept
// already or the match is not over.
func (w *Worker) analyse(ctx context.Context, j job) {
	if _, err := w.cfg.Store.Analysis(ctx, j.table, j.no); err == nil {
		return
	}
	sv, err := w.cfg.Store.Match(ctx, j.table, j.no)
	if err != nil || sv.Match == nil || !sv.Match.Over {
		w.log.Debug("analysis: not a finished match", "table", j.table, "match", j.no, "err", err)
		return
	}
	g := w.games[sv.Game]
	if g == nil {
		return
	}
	a := Analyzer{Playouts: w.cfg.Playouts, Yield: runtime.Gosched, Think: w.think(ctx)}
	rep, err := a.Analyze(g, sv)
	if err != nil {
		if !errors.Is(err, ErrStopped) {
			w.log.Error("analysis", "table", j.table, "match", j.no, "err", err)
		}
		return
	}
	b, err := json.Marshal(rep)
	if err == nil {
		err = w.cfg.Store.SaveAnalysis(ctx, j.table, j.no, b, time.Now())
	}
	if err != nil {
		w.log.Error("analysis: save", "table", j.table, "match", j.no, "err", err)
	}
}

// think runs a search in the pool's spare place, waiting for one while
// the bots hold them all; false once ctx ends.
func (w *Worker) think(ctx context.Context) func(func()) bool {
	return func(search func()) bool {
		if w.cfg.Spare == nil {
			search()
			return true
		}
		for !w.cfg.Spare(search) {
			select {
			case <-ctx.Done():
				return false
			case <-time.After(w.cfg.Retry):
			}
		}
		return true
	}
}
