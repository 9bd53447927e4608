package store

import (
	"context"
	"encoding/json"
	"fmt"
	"path/filepath"
	"runtime"
	"slices"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"
)

// benchTables numbers the tables benchmarks create: a benchmark function
// runs several times on the same store, each time on new tables.
var benchTables atomic.Int64

// BenchmarkAppendMove appends moves to each store: one table at a time
// (a move's latency), and 1,000 tables at once (a busy server's
// throughput, as in the load benchmark). moves/s is the rate.
func BenchmarkAppendMove(b *testing.B) {
	move := Move{Seat: 1, Move: json.RawMessage(`{"type":"swap","slot":2}`)}
	for _, name := range []string{"memory", "sqlite", "postgres"} {
		k := stores(b)[name]
		b.Run(name, func(b *testing.B) {
			s := k.open(b)
			defer s.Close()
			b.Run("1-table", func(b *testing.B) {
				id := benchTable(b, s, 1)[0]
				b.ReportAllocs()
				b.ResetTimer()
				for i := 0; i < b.N; i++ {
					if err := s.AppendMove(context.Background(), id, 1, i, move); err != nil {
						b.Fatal(err)
					}
				}
				b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "moves/s")
			})
			b.Run("1000-tables", func(b *testing.B) {
				// RunParallel starts parallelism × GOMAXPROCS goroutines,
				// each appending to a table of its own.
				procs := runtime.GOMAXPROCS(0)
				b.SetParallelism((1000 + procs - 1) / procs)
				ids := benchTable(b, s, (1000+procs-1)/procs*procs)
				var next atomic.Int64
				b.ReportAllocs()
				b.ResetTimer()
				b.RunParallel(func(pb *testing.PB) {
					id := ids[next.Add(1)-1]
					for i := 0; pb.Next(); i++ {
						if err := s.AppendMove(context.Background(), id, 1, i, move); err != nil {
							b.Error(err)
							return
						}
					}
				})
				b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "moves/s")
			})
		})
	}
}

// benchTable creates n tables with a match started and returns their ids;
// several at once, which makes it quicker on a server.
func benchTable(b *testing.B, s Store, n int) []string {
	ctx := context.Background()
	ids := make([]string, n)
	for i := range ids {
		ids[i] = fmt.Sprintf("bench%d", benchTables.Add(1))
	}
	var wg sync.WaitGroup
	todo := make(chan string)
	for w := 0; w < 16; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for id := range todo {
				if err := s.CreateTable(ctx, Table{ID: id, Game: "cabo", Players: 2, Seats: []Seat{{}, {Bot: "random"}}}, nil); err != nil {
					b.Error(err)
				} else if err := s.StartMatch(ctx, id, 1, 1); err != nil {
					b.Error(err)
				}
			}
		}()
	}
	for _, id := range ids {
		todo <- id
	}
	close(todo)
	wg.Wait()
	if b.Failed() {
		b.FailNow()
	}
	return ids
}

// BenchmarkOpen lists the open tables of a SQLite store that holds 10,000
// of them (half waiting with a seat free, half playing with 30 moves) and
// as many that a server must not load (finished, or closed): what a
// server reads when it starts. The rows go in as the store writes them,
// in one transaction to keep the set-up short.
func BenchmarkOpen(b *testing.B) {
	const open, other, moves = 10000, 10000, 30
	s, err := OpenSQLite(filepath.Join(b.TempDir(), "open.db"))
	if err != nil {
		b.Fatal(err)
	}
	defer s.Close()
	tx, err := s.db.Begin()
	if err != nil {
		b.Fatal(err)
	}
	exec := func(q string, args ...any) {
		if _, err := tx.Exec(q, args...); err != nil {
			b.Fatal(err)
		}
	}
	for i := 0; i < open+other; i++ {
		id := fmt.Sprintf("t%05d", i)
		closed := ""
		if i >= open && i%2 == 0 {
			closed = string(Abandoned)
		}
		exec(`INSERT INTO tapis_tables (id, game, players, options, created, turn_ms, creator, active, closed) VALUES (?, 'cabo', 3, '{}', ?, 0, '192.0.2.1', ?, ?)`,
			id, i, i, closed)
		exec(`INSERT INTO tapis_seats VALUES (?, 0, 'Ann', '', 'h'), (?, 1, 'random', 'random', ''), (?, 2, '', '', '')`, id, id, id)
		if i < open/2 {
			continue // waiting
		}
		exec(`INSERT INTO tapis_matches (table_id, no, seed, over) VALUES (?, 1, ?, ?)`, id, i, i >= open && i%2 == 1)
		for m := 0; m < moves; m++ {
			exec(`INSERT INTO tapis_moves VALUES (?, 1, ?, ?, '{"type":"draw"}')`, id, m, m%3)
		}
	}
	if err := tx.Commit(); err != nil {
		b.Fatal(err)
	}
	ctx := context.Background()
	b.ReportAllocs()
	for b.Loop() {
		got, err := s.Open(ctx)
		if err != nil {
			b.Fatal(err)
		}
		if len(got) != open || got[0].Seated != 2 || !got[open-1].Started {
			b.Fatalf("%d open tables (first %+v, last %+v), want %d", len(got), got[0], got[len(got)-1], open)
		}
	}
}

// BenchmarkAppendPaced is a busy server's steady load, not a saturated
// one: pacedTables tables each make a move every pacedTables/pacedRate
// seconds (a Cabo table about every half second, 2,000 moves/s in all),
// each table waiting for its own move's commit before sleeping until its
// next. b.N is the number of moves. It reports the process's CPU per move
// (user and system, the store's own cost plus the benchmark's small one;
// for PostgreSQL only the client's) and the appends' latency.
func BenchmarkAppendPaced(b *testing.B) {
	const pacedTables, pacedRate = 1000, 2000
	move := Move{Seat: 1, Move: json.RawMessage(`{"type":"swap","slot":2}`)}
	// memory is the benchmark's own cost: goroutines, timers.
	for _, name := range []string{"memory", "sqlite", "postgres"} {
		k := stores(b)[name]
		b.Run(name, func(b *testing.B) {
			s := k.open(b)
			defer s.Close()
			ids := benchTable(b, s, pacedTables)
			period := time.Duration(pacedTables) * time.Second / pacedRate
			lat := make([][]time.Duration, pacedTables)
			var claimed atomic.Int64
			var wg sync.WaitGroup
			runtime.GC()
			b.ResetTimer()
			cpu0 := benchCPU(b)
			start := time.Now()
			for t := range ids {
				wg.Add(1)
				go func() {
					defer wg.Done()
					// Tables are spread evenly over the period, as
					// tables started at random moments would be.
					next := start.Add(period * time.Duration(t) / pacedTables)
					for i := 0; claimed.Add(1) <= int64(b.N); i++ {
						time.Sleep(time.Until(next))
						t0 := time.Now()
						if err := s.AppendMove(context.Background(), ids[t], 1, i, move); err != nil {
							b.Error(err)
							return
						}
						lat[t] = append(lat[t], time.Since(t0))
						next = next.Add(period)
					}
				}()
			}
			wg.Wait()
			elapsed := time.Since(start)
			cpu := benchCPU(b) - cpu0
			b.StopTimer()
			var all []time.Duration
			for _, l := range lat {
				all = append(all, l...)
			}
			slices.Sort(all)
			if len(all) == 0 {
				return
			}
			b.ReportMetric(float64(cpu)/float64(time.Microsecond)/float64(len(all)), "cpu-µs/move")
			b.ReportMetric(float64(all[len(all)/2])/float64(time.Microsecond), "p50-µs")
			b.ReportMetric(float64(all[len(all)*99/100])/float64(time.Microsecond), "p99-µs")
			b.ReportMetric(float64(len(all))/elapsed.Seconds(), "moves/s")
		})
	}
}

// benchCPU is the user and system CPU time this process has used.
func benchCPU(b *testing.B) time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		b.Fatal(err)
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
