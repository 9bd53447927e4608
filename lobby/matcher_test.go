package lobby

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"tapis/games"
	"tapis/store"
)

// builder builds tables as the server would, for tests: ids numbered with
// a prefix, people in the first seats, bots in the rest, a start with a
// seed.
type builder struct {
	prefix string
	n      atomic.Int64
}

func (b *builder) build(g string, players int, people []store.Entry, level string) (store.Table, *store.Start, error) {
	if len(people) > players {
		return store.Table{}, nil, fmt.Errorf("test: %d people for %d seats", len(people), players)
	}
	t := store.Table{ID: fmt.Sprintf("%s%d", b.prefix, b.n.Add(1)), Game: g, Players: players,
		Options: []byte("{}"), Created: t0, Seats: make([]store.Seat, players), Host: -1, Public: false}
	for i := range t.Seats {
		if i < len(people) {
			t.Seats[i] = store.Seat{Name: people[i].Name, Player: people[i].Player, TokenHash: "h" + people[i].Player}
		} else {
			t.Seats[i] = store.Seat{Name: level, Bot: level}
		}
	}
	return t, &store.Start{No: 1, Seed: uint64(b.n.Load())}, nil
}

func matcher(q store.Queue, prefix string) *Matcher {
	b := &builder{prefix: prefix}
	return &Matcher{Queue: q, Games: games.All(), Build: b.build}
}

func enqueue(t *testing.T, q store.Queue, es ...store.Entry) {
	t.Helper()
	for _, e := range es {
		if err := q.Enqueue(context.Background(), e); err != nil {
			t.Fatal(err)
		}
	}
}

func queueEntry(t *testing.T, q store.Queue, player string) store.Entry {
	t.Helper()
	e, err := q.QueueEntry(context.Background(), player)
	if err != nil {
		t.Fatalf("QueueEntry(%s): %v", player, err)
	}
	return e
}

func TestStepSeatsTwoAnyPlayersTogether(t *testing.T) {
	ctx := context.Background()
	q := store.NewMemory()
	enqueue(t, q, entry("a", 0, DefaultWait, 0), entry("b", 0, DefaultWait, 1))
	tables, err := matcher(q, "t").Step(ctx, t0.Add(2*time.Second))
	if err != nil {
		t.Fatal(err)
	}
	if len(tables) != 1 || tables[0].Players != 2 {
		t.Fatalf("Step seated %+v, want one table of 2", tables)
	}
	a, b := queueEntry(t, q, "a"), queueEntry(t, q, "b")
	if a.Table != tables[0].ID || b.Table != tables[0].ID || a.Seat == b.Seat {
		t.Fatalf("entries at %s/%d and %s/%d, want both at %s, in two seats", a.Table, a.Seat, b.Table, b.Seat, tables[0].ID)
	}
	saved, err := q.Load(ctx, a.Table)
	if err != nil {
		t.Fatal(err)
	}
	if saved.Match == nil || saved.Seats[a.Seat].Player != "a" || saved.Seats[b.Seat].Player != "b" {
		t.Fatalf("stored table: match %v, seats %+v", saved.Match, saved.Seats)
	}
	if left, _ := q.Queued(ctx, ""); len(left) != 0 {
		t.Fatalf("still queued: %+v", left)
	}
}

func TestStepGivesBotsAfterTheWait(t *testing.T) {
	ctx := context.Background()
	q := store.NewMemory()
	enqueue(t, q, entry("a", 3, 5*time.Second, 0))
	m := matcher(q, "t")
	for _, at := range []time.Duration{0, time.Second, 4*time.Second + 999*time.Millisecond} {
		tables, err := m.Step(ctx, t0.Add(at))
		if err != nil || len(tables) != 0 {
			t.Fatalf("at %v: Step seated %+v, %v; want nothing before the wait is over", at, tables, err)
		}
		if e := queueEntry(t, q, "a"); e.Table != "" {
			t.Fatalf("at %v: seated at %s", at, e.Table)
		}
	}
	tables, err := m.Step(ctx, t0.Add(5*time.Second))
	if err != nil {
		t.Fatal(err)
	}
	if len(tables) != 1 {
		t.Fatalf("at 5s: Step seated %+v, want one table", tables)
	}
	bots := 0
	for _, s := range tables[0].Seats {
		if s.Bot == "easy" {
			bots++
		}
	}
	if tables[0].Players != 3 || bots != 2 {
		t.Fatalf("table of %d with %d easy bots, want 3 with 2: %+v", tables[0].Players, bots, tables[0].Seats)
	}
	if e := queueEntry(t, q, "a"); e.Table != tables[0].ID {
		t.Fatalf("entry at %q, want %q", e.Table, tables[0].ID)
	}
}

func TestStepLeavesOtherGamesAndSkipsChangedGroups(t *testing.T) {
	ctx := context.Background()
	q := store.NewMemory()
	chess := entry("c", 0, 0, 0)
	chess.Game = "chess"
	enqueue(t, q, chess, entry("a", 2, DefaultWait, 0), entry("b", 2, DefaultWait, 0))
	m := matcher(q, "t")
	// b leaves between the plan and the write: the group is skipped
	// without an error, and nothing is written.
	build := m.Build
	m.Build = func(g string, n int, people []store.Entry, level string) (store.Table, *store.Start, error) {
		if err := q.LeaveQueue(ctx, "b"); err != nil {
			t.Fatal(err)
		}
		return build(g, n, people, level)
	}
	tables, err := m.Step(ctx, t0.Add(time.Second))
	if err != nil || len(tables) != 0 {
		t.Fatalf("Step seated %+v, %v; want nothing, no error", tables, err)
	}
	if ids, _ := q.Tables(ctx); len(ids) != 0 {
		t.Fatalf("tables written: %v", ids)
	}
	if e := queueEntry(t, q, "a"); e.Table != "" {
		t.Fatalf("a seated at %s", e.Table)
	}
	if e := queueEntry(t, q, "c"); e.Table != "" {
		t.Fatalf("an entry for a game the matcher lacks was seated at %s", e.Table)
	}
}

func TestStepReportsBuildErrors(t *testing.T) {
	q := store.NewMemory()
	enqueue(t, q, entry("a", 2, DefaultWait, 0), entry("b", 2, DefaultWait, 0))
	m := matcher(q, "t")
	m.Build = func(string, int, []store.Entry, string) (store.Table, *store.Start, error) {
		return store.Table{}, nil, fmt.Errorf("test: no seed")
	}
	if _, err := m.Step(context.Background(), t0.Add(time.Second)); err == nil {
		t.Fatal("Step hid a Build error")
	}
	if e := queueEntry(t, q, "a"); e.Table != "" {
		t.Fatalf("a seated at %s", e.Table)
	}
}

// TestMatchersRace: two matchers (two nodes) stepping one queue at once
// seat each player exactly once. Run it with -race.
func TestMatchersRace(t *testing.T) {
	ctx := context.Background()
	q := store.NewMemory()
	var all []string
	for i := range 60 {
		e := entry(fmt.Sprintf("p%02d", i), []int{0, 2, 3, 4}[i%4], []time.Duration{0, DefaultWait, Never}[i%3], i%5)
		e.Game = []string{"cabo", "dacapo", "limits"}[i%3]
		enqueue(t, q, e)
		all = append(all, e.Player)
	}
	now := t0.Add(time.Hour)
	// Both matchers read the queue before either writes, on their first
	// pass, so that they plan the same groups and race for them.
	var both sync.WaitGroup
	both.Add(2)
	var conflicts atomic.Int64
	var mu sync.Mutex
	seatedAt := map[string][]string{} // player -> tables
	var wg sync.WaitGroup
	for _, prefix := range []string{"x", "y"} {
		m := matcher(&racer{Queue: q, both: &both, conflicts: &conflicts}, prefix)
		wg.Go(func() {
			for range 5 {
				tables, err := m.Step(ctx, now)
				if err != nil {
					t.Error(err)
				}
				mu.Lock()
				for _, tab := range tables {
					for _, s := range tab.Seats {
						if s.Player != "" {
							seatedAt[s.Player] = append(seatedAt[s.Player], tab.ID)
						}
					}
				}
				mu.Unlock()
			}
		})
	}
	wg.Wait()
	left, err := q.Queued(ctx, "")
	if err != nil {
		t.Fatal(err)
	}
	waiting := map[string]bool{}
	for _, e := range left {
		waiting[e.Player] = true
	}
	for _, p := range all {
		e := queueEntry(t, q, p)
		switch at := seatedAt[p]; {
		case len(at) > 1:
			t.Errorf("%s seated at %v", p, at)
		case len(at) == 1 && e.Table != at[0]:
			t.Errorf("%s seated at %s, its entry says %q", p, at[0], e.Table)
		case len(at) == 0 && !waiting[p]:
			t.Errorf("%s neither seated by a matcher nor waiting: entry at %q", p, e.Table)
		}
	}
	// Only "never" entries may wait an hour on: the others' waits are
	// over, so they were seated, with bots if need be.
	for _, e := range left {
		if e.Wait >= 0 {
			t.Errorf("%s (wait %v) still waiting after an hour", e.Player, e.Wait)
		}
	}
	if conflicts.Load() == 0 {
		t.Error("no SeatQueued lost a race: the test shows nothing")
	}
	if len(seatedAt) < 30 {
		t.Errorf("only %d players seated: the race shows little", len(seatedAt))
	}
}

// TestRunWakes: Run makes a pass at once, then another when poked, long
// before its period.
func TestRunWakes(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	q := store.NewMemory()
	enqueue(t, q, entry("a", 0, DefaultWait, 0), entry("b", 0, DefaultWait, 0))
	seated := make(chan store.Table, 4)
	m := matcher(q, "t")
	m.Now = func() time.Time { return t0.Add(time.Second) }
	m.Seated = func(tab store.Table, _ *store.Start) { seated <- tab }
	wake := make(chan struct{}, 1)
	done := make(chan struct{})
	go func() {
		m.Run(ctx, time.Hour, wake)
		close(done)
	}()
	got := func(want string) {
		t.Helper()
		select {
		case tab := <-seated:
			if tab.Seats[0].Player != want {
				t.Fatalf("seated %+v, want %s first", tab.Seats, want)
			}
		case <-time.After(10 * time.Second):
			t.Fatalf("%s not seated", want)
		}
	}
	got("a")
	enqueue(t, q, entry("c", 0, DefaultWait, 0), entry("d", 0, DefaultWait, 0))
	wake <- struct{}{}
	got("c")
	cancel()
	select {
	case <-done:
	case <-time.After(10 * time.Second):
		t.Fatal("Run did not return once its context was done")
	}
}

// racer is a queue that holds a matcher's first read until the other
// matcher has read too, and counts the writes that lost a race.
type racer struct {
	store.Queue
	both      *sync.WaitGroup
	once      sync.Once
	conflicts *atomic.Int64
}

func (r *racer) Queued(ctx context.Context, game string) ([]store.Entry, error) {
	es, err := r.Queue.Queued(ctx, game)
	r.once.Do(func() {
		r.both.Done()
		r.both.Wait()
	})
	return es, err
}

func (r *racer) SeatQueued(ctx context.Context, players []string, t store.Table, start *store.Start) error {
	err := r.Queue.SeatQueued(ctx, players, t, start)
	if errors.Is(err, store.ErrQueueChanged) {
		r.conflicts.Add(1)
	}
	return err
}
