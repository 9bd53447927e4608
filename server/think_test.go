package server_test

import (
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// gatedSearches is a BotSearchStarted hook that holds every bot search in
// its pool slot until the test lets it go, and tells the test each start
// with the number of searches then running.
type gatedSearches struct {
	started chan int
	gate    chan struct{}
	once    sync.Once
}

func newGatedSearches() *gatedSearches {
	return &gatedSearches{started: make(chan int, 1000), gate: make(chan struct{})}
}

func (g *gatedSearches) hook(running int) {
	g.started <- running
	<-g.gate
}

// openAll lets every search held and to come run.
func (g *gatedSearches) openAll() { g.once.Do(func() { close(g.gate) }) }

// botTables makes n Cabo tables of a person (connected, so that the bot
// plays) and a hard bot; in the first phase both must move, so each
// table's bot starts thinking at once.
func botTables(t *testing.T, h *harness, n int) {
	t.Helper()
	for i := 0; i < n; i++ {
		r := h.create("cabo", []string{"", "hard"}, "Ann", "")
		h.dial(r.Table, r.Token).next("state")
	}
}

// The pool runs at most Thinkers searches at once: with every search held
// in its slot, the third of eight tables' bots starts only when one
// before it lets go, and the pool is used to its bound.
func TestBotSearchesAreBounded(t *testing.T) {
	cfg := testConfig()
	cfg.Thinkers = 2
	gs := newGatedSearches()
	cfg.BotSearchStarted = gs.hook
	var cpu atomic.Int64
	cfg.BotSearched = func(d time.Duration) { cpu.Add(int64(d)) }
	h := newHarness(t, cfg)
	t.Cleanup(gs.openAll) // before the harness stops: cleanups run last first
	const tables = 8
	botTables(t, h, tables)
	most := 0
	for i := 0; i < tables; i++ {
		select {
		case running := <-gs.started:
			most = max(most, running)
			if running > cfg.Thinkers {
				t.Fatalf("%d searches at once, the pool holds %d", running, cfg.Thinkers)
			}
		case <-time.After(20 * time.Second):
			t.Fatalf("%d of %d tables' bots started thinking", i, tables)
		}
		if i >= cfg.Thinkers-1 {
			// The pool is full (or was never bounded): let one go.
			gs.gate <- struct{}{}
		}
	}
	if most != cfg.Thinkers {
		t.Fatalf("at most %d searches ran at once; the pool allows %d", most, cfg.Thinkers)
	}
	gs.openAll()
	deadline := time.Now().Add(20 * time.Second)
	for cpu.Load() == 0 && time.Now().Before(deadline) {
		time.Sleep(10 * time.Millisecond)
	}
	if cpu.Load() <= 0 {
		t.Fatal("BotSearched was never told a search's cost")
	}
}

// A person's move is applied while bots of many tables fill the pool and
// wait for it: moves are applied on their table's goroutine, and only
// searches go through the pool. The person's own table has a bot too,
// which queues behind the others; an easy bot, which does not search,
// does not queue at all.
func TestPersonMovesWhileBotsThink(t *testing.T) {
	cfg := testConfig()
	cfg.Thinkers = 1
	gs := newGatedSearches()
	cfg.BotSearchStarted = gs.hook
	h := newHarness(t, cfg)
	t.Cleanup(gs.openAll)
	botTables(t, h, 20)
	select {
	case <-gs.started: // the pool's one slot is held from now on
	case <-time.After(20 * time.Second):
		t.Fatal("no bot started thinking")
	}
	me := h.create("cabo", []string{"", "hard"}, "Me", "")
	c := h.dial(me.Table, me.Token)
	first := c.next("state")
	if len(first.Legal) == 0 {
		t.Fatalf("nothing to play: %+v", first)
	}
	sent := time.Now()
	c.send(map[string]any{"type": "move", "move": first.Legal[0]})
	for {
		m := c.next("state", "error")
		if m.Type == "error" {
			t.Fatalf("error %s: %s", m.Code, m.Error)
		}
		if m.By == me.Seat && m.N >= 1 {
			break
		}
	}
	t.Logf("the move came back in %v with the pool full", time.Since(sent))
	select {
	case running := <-gs.started:
		t.Fatalf("a second search started (%d running) while the slot was held", running)
	default:
	}
	// A heuristic bot takes no place in the pool: it moves while the pool
	// is still held.
	easy := h.create("cabo", []string{"", "easy"}, "Eve", "")
	ce := h.dial(easy.Table, easy.Token)
	for m := ce.next("state"); m.By != 1 || m.N < 1; m = ce.next("state") {
	}
	// Let the bots go: every table's bot then plays, the person's too.
	gs.openAll()
	for {
		m := c.next("state", "error")
		if m.By != me.Seat && m.N >= 1 {
			break
		}
	}
}
