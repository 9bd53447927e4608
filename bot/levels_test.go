package bot

import (
	"fmt"
	"slices"
	"syscall"
	"testing"
	"time"

	"tapis/bot/learn"
	"tapis/game"
	"tapis/games"
)

// Every game has level budgets, hard's at least normal's, and New builds
// the levels with them: iterations, not time.
func TestLevelBudgets(t *testing.T) {
	for _, g := range games.All() {
		e, ok := game.EntryOf(g)
		b := e.Levels
		if !ok || b.Normal < 1 || b.Hard < b.Normal || Budgets(g) != b {
			t.Fatalf("%s: budgets %+v (listed: %v)", g.Name(), b, ok)
		}
		for _, c := range []struct {
			level string
			want  int
		}{{"normal", b.Normal}, {"hard", b.Hard}, {"cheat", b.Hard}, {"hard@77", 77}} {
			p, err := New(g, c.level, 0, 1)
			if err != nil {
				t.Fatal(err)
			}
			if s := p.(*Search); s.Iterations != c.want || s.Time != 0 {
				t.Errorf("%s %s: %d iterations, time %v; want %d and no time", g.Name(), c.level, s.Iterations, s.Time, c.want)
			}
			// Hard (and cheat) search fewer iterations at tables larger
			// than the game's HardSeats, a move costing about the same
			// CPU; normal and a budget given by name do not.
			lo, hi := g.Players()
			for n := lo; n <= hi; n++ {
				want := c.want
				if seats := b.HardSeats; seats > 0 && n > seats && (c.level == "hard" || c.level == "cheat") {
					want = c.want * seats / n
				}
				if got := p.(*Search).iterations(n); got != want {
					t.Errorf("%s %s at %d seats: %d iterations, want %d", g.Name(), c.level, n, got, want)
				}
			}
		}
	}
	p, err := New(games.Named("cabo"), "hard@300ms", 0, 1)
	if err != nil || p.(*Search).Iterations != 0 || p.(*Search).Time != 300*time.Millisecond {
		t.Fatalf("hard@300ms: %+v, %v", p, err)
	}
	// A game that registers no budgets (here Cabo's engine without its
	// Entry) plays with the default ones.
	if n, ok := LevelBudget(struct{ game.Game }{games.Named("cabo")}, "hard"); !ok || n != DefaultBudget.Hard {
		t.Fatalf("a game without budgets: %d %v", n, ok)
	}
	if _, ok := LevelBudget(games.Named("cabo"), "easy"); ok {
		t.Fatal("easy has a search budget")
	}
}

// A level plays the same game twice from the same seeds: its moves do not
// depend on the clock or the machine's load.
func TestLevelsAreDeterministic(t *testing.T) {
	g := games.Named("cabo")
	play := func() []game.Move {
		st, err := g.New(game.Config{Players: 2, Seed: 3})
		if err != nil {
			t.Fatal(err)
		}
		rec := &recorder{}
		p, err := New(g, "normal", 0, 9)
		if err != nil {
			t.Fatal(err)
		}
		rec.Player = p
		h, _ := New(g, "easy", 1, 10)
		if _, err := Play(st, []game.Player{rec, h}, 100000); err != nil {
			t.Fatal(err)
		}
		return rec.moves
	}
	a, b := play(), play()
	if len(a) < 10 || !slices.Equal(a, b) {
		t.Fatalf("two games from the same seeds: %d and %d moves, equal: %v", len(a), len(b), slices.Equal(a, b))
	}
}

// recorder keeps the moves of the player it wraps.
type recorder struct {
	game.Player
	moves []game.Move
}

func (r *recorder) Choose(k game.Knowledge) game.Move {
	m := r.Player.Choose(k)
	r.moves = append(r.moves, m)
	return m
}

// timer measures the moves of the player it wraps that were choices
// (more than one legal move): wall time spent in Choose.
type timer struct {
	game.Player
	buf   []game.Move
	moves int
	wall  time.Duration
}

func (t *timer) Choose(k game.Knowledge) game.Move {
	t.buf = k.Legal(t.buf[:0])
	start := time.Now()
	m := t.Player.Choose(k)
	if len(t.buf) > 1 {
		t.moves++
		t.wall += time.Since(start)
	}
	return m
}

func cpuTime() time.Duration {
	var ru syscall.Rusage
	syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// BenchmarkLevels measures what a move of each search level costs, in
// whole games against the heuristic bot (seat 0 the level, the others
// heuristic): ns/op and ms/move are the wall time of one of its choices
// (a move with more than one legal choice), cpu-ms/move the process's CPU
// time for the games divided by those choices (the heuristics' moves and
// the game's included, so a little more than the level's own). b.N is a
// number of choices; whole games are played until it is reached.
//
//	go test ./bot -run XXX -bench Levels -benchtime 200x
func BenchmarkLevels(b *testing.B) {
	for _, g := range games.All() {
		for _, n := range []int{2, 4} {
			if lo, hi := g.Players(); n < lo || n > hi {
				continue
			}
			levels := []string{"normal", "hard"}
			if learn.For(g.Name()) != nil {
				levels = append(levels, "hard+learn") // its learned evaluator
			}
			if g.Name() == "papayoo" {
				levels = append(levels, pimcLevel)    // PIMC (bot/pimc.go)
				levels = append(levels, "hard-plans") // its pass card by card, as hard before (bot/flat.go)
			}
			for _, level := range levels {
				b.Run(fmt.Sprintf("%s/%dp/%s", g.Name(), n, level), func(b *testing.B) {
					tm := &timer{}
					cpu0 := cpuTime()
					for seed := uint64(1); tm.moves < b.N; seed++ {
						st, err := g.New(game.Config{Players: n, Seed: seed})
						if err != nil {
							b.Fatal(err)
						}
						players := make([]game.Player, n)
						for s := range players {
							name := "easy"
							if s == 0 {
								name = level
							}
							if players[s], err = New(g, name, game.Seat(s), seed*10+uint64(s)); err != nil {
								b.Fatal(err)
							}
						}
						tm.Player = players[0]
						players[0] = tm
						if _, err := Play(st, players, 1_000_000); err != nil {
							b.Fatal(err)
						}
					}
					cpu := cpuTime() - cpu0
					per := float64(tm.wall) / float64(tm.moves)
					b.ReportMetric(per, "ns/op")
					b.ReportMetric(per/1e6, "ms/move")
					b.ReportMetric(float64(cpu)/float64(tm.moves)/1e6, "cpu-ms/move")
				})
			}
		}
	}
}
