//go:build !linux

package think

import "time"

// measureCPU runs f and returns its wall time: where the thread's CPU
// time is not at hand, the time a search held its place in the pool.
func measureCPU(f func()) time.Duration {
	start := time.Now()
	f()
	return time.Since(start)
}
