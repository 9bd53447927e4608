package storetest

import (
	"context"
	"encoding/json"
	"fmt"
	"runtime"
	"slices"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"tapis/store"
)

// benchTables numbers the tables benchmarks create: a benchmark function
// runs several times on the same store, each time on new tables.
var benchTables atomic.Int64

// BenchAppendMove appends moves to s: one table at a time (a move's
// latency), and 1,000 tables at once (a busy server's throughput, as in
// the load benchmark). moves/s is the rate. Each store's
// BenchmarkAppendMove runs it.
func BenchAppendMove(b *testing.B, s store.Store) {
	move := store.Move{Seat: 1, Move: json.RawMessage(`{"type":"swap","slot":2}`)}
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
}

// benchTable creates n tables with a match started and returns their ids;
// several at once, which makes it quicker on a server.
func benchTable(b *testing.B, s store.Store, n int) []string {
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
				if err := s.CreateTable(ctx, store.Table{ID: id, Game: "cabo", Players: 2, Seats: []store.Seat{{}, {Bot: "random"}}}, nil); err != nil {
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

// BenchAppendPaced is a busy server's steady load, not a saturated
// one: pacedTables tables each make a move every pacedTables/pacedRate
// seconds (a Cabo table about every half second, 2,000 moves/s in all),
// each table waiting for its own move's commit before sleeping until its
// next. b.N is the number of moves. It reports the process's CPU per move
// (user and system, the store's own cost plus the benchmark's small one;
// for PostgreSQL only the client's) and the appends' latency.
// Memory's is the benchmark's own cost: goroutines, timers. Each store's
// BenchmarkAppendPaced runs it on s.
func BenchAppendPaced(b *testing.B, s store.Store) {
	const pacedTables, pacedRate = 1000, 2000
	move := store.Move{Seat: 1, Move: json.RawMessage(`{"type":"swap","slot":2}`)}
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
}

// benchCPU is the user and system CPU time this process has used.
func benchCPU(b *testing.B) time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		b.Fatal(err)
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// leaseBenchTables numbers the tables BenchFencedAppendMove creates.
var leaseBenchTables atomic.Int64

// BenchFencedAppendMove measures what the fence costs a move: one table's
// moves appended one after another, as its goroutine does, without a lease
// and under one. Each store with leases runs it as its
// BenchmarkFencedAppendMove.
func BenchFencedAppendMove(b *testing.B, s LeaseStore) {
	ctx := context.Background()
	for _, fenced := range []bool{false, true} {
		b.Run(fmt.Sprintf("fenced=%v", fenced), func(b *testing.B) {
			// A table of its own each time the benchmark is run.
			id := fmt.Sprint("lease-bench-", leaseBenchTables.Add(1))
			if err := s.CreateTable(ctx, store.Table{ID: id, Game: "cabo", Players: 2, Seats: []store.Seat{{}, {}}, Host: -1}, &store.Start{No: 1, Seed: 1}); err != nil {
				b.Fatal(err)
			}
			w := store.Unfenced(s, id)
			if fenced {
				l, err := s.Acquire(ctx, id, "A", time.Hour)
				if err != nil {
					b.Fatal(err)
				}
				w = s.Fenced(l)
			}
			m := store.Move{Seat: 0, Move: json.RawMessage(`{"type":"draw"}`)}
			b.ResetTimer()
			for i := range b.N {
				if err := w.AppendMove(ctx, 1, i, m); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
