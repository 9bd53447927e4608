package papayoo

import (
	"runtime"
	"syscall"
	"testing"
	"time"

	"tapis/game"
)

func cpuNow() time.Duration {
	var ru syscall.Rusage
	syscall.Getrusage(syscall.RUSAGE_THREAD, &ru)
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

func TestZZSpeed(t *testing.T) {
	runtime.LockOSThread()
	for _, n := range []int{3, 4, 5, 8} {
		start, _ := NewState(game.Config{Players: n, Seed: 7})
		st := *start
		seed := uint64(0)
		rng := game.NewRNG(1)
		buf := make([]game.Move, 0, 1024)
		const N = 30_000_000
		t0 := cpuNow()
		for i := 0; i < N; i++ {
			if st.Over() {
				st = *start
				seed++
				st.rng = game.NewRNG(seed)
			}
			to := st.ToMove()
			seat := to.Nth(rng.IntN(to.Len()))
			buf = st.Legal(seat, buf[:0])
			if err := st.Apply(seat, buf[rng.IntN(len(buf))], nil); err != nil {
				t.Fatal(err)
			}
		}
		d := cpuNow() - t0
		t.Logf("%dp: %.1f M moves per CPU second (%.1f ns)", n, N/d.Seconds()/1e6, float64(d.Nanoseconds())/N)
	}
}
