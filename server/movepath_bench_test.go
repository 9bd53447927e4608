//go:build unix

package server_test

import (
	"fmt"
	"path/filepath"
	"runtime"
	"syscall"
	"testing"
	"time"

	"tapis/store"
	"tapis/store/sqlite"
)

// BenchmarkMovePath measures what a move costs the server end to end:
// tables of two Cabo clients, each on its own WebSocket over loopback,
// playing random legal moves as fast as the server answers (no think
// time), with the memory store and with SQLite in a temporary file. One
// op is one move confirmed to the client that sent it.
//
// It reports the process's CPU time per move (user + system, from
// getrusage around the play), allocations and bytes per move, and moves
// per second. The clients run in the same process, so cpu-µs/move is the
// server's and the clients' together; the clients run under the pprof
// label side=client, and a CPU profile splits the two:
//
//	go test ./server -run XXX -bench MovePath -benchtime 20000x -cpuprofile cpu.out
//	go tool pprof -tags cpu.out
func BenchmarkMovePath(b *testing.B) {
	stores := []struct {
		name string
		open func(b *testing.B) store.Store
	}{
		{"memory", func(*testing.B) store.Store { return store.NewMemory() }},
		{"sqlite", func(b *testing.B) store.Store {
			st, err := sqlite.Open(filepath.Join(b.TempDir(), "movepath.db"))
			if err != nil {
				b.Fatal(err)
			}
			b.Cleanup(func() { st.Close() })
			return st
		}},
	}
	for _, s := range stores {
		for _, tables := range []int{1, 100} {
			b.Run(fmt.Sprintf("store=%s/tables=%d", s.name, tables), func(b *testing.B) {
				benchMovePath(b, s.open(b), tables)
			})
		}
	}
}

func benchMovePath(b *testing.B, st store.Store, tables int) {
	var cpu0, cpu1 time.Duration
	var m0, m1 runtime.MemStats
	measure := func(start bool) {
		if start {
			runtime.ReadMemStats(&m0)
			cpu0 = processCPU(b)
			return
		}
		cpu1 = processCPU(b)
		runtime.ReadMemStats(&m1)
	}
	r := loadRun(b, st, tables, 0, measure)
	moves := float64(r.moves)
	b.ReportMetric(float64(cpu1-cpu0)/float64(time.Microsecond)/moves, "cpu-µs/move")
	b.ReportMetric(float64(m1.Mallocs-m0.Mallocs)/moves, "allocs/move")
	b.ReportMetric(float64(m1.TotalAlloc-m0.TotalAlloc)/moves, "B/move")
	b.ReportMetric(moves/r.elapsed.Seconds(), "moves/s")
}

// processCPU is the user and system CPU time this process has used.
func processCPU(b *testing.B) time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		b.Fatal(err)
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
