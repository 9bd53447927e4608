package store

import (
	"context"
	"encoding/json"
	"fmt"
	"runtime"
	"sync"
	"sync/atomic"
	"testing"
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
				if err := s.CreateTable(ctx, Table{ID: id, Game: "cabo", Players: 2, Seats: []Seat{{}, {Bot: "random"}}}); err != nil {
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
