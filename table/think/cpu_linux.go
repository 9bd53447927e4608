package think

import (
	"runtime"
	"syscall"
	"time"
	"unsafe"
)

// measureCPU runs f on a thread of its own and returns the CPU time that
// thread spent on it: a search's cost, not the time it waited for a core.
func measureCPU(f func()) time.Duration {
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	before, ok := threadCPU()
	if !ok {
		start := time.Now()
		f()
		return time.Since(start)
	}
	f()
	after, _ := threadCPU()
	return after - before
}

// clockThreadCPUTime is Linux's CLOCK_THREAD_CPUTIME_ID.
const clockThreadCPUTime = 3

func threadCPU() (time.Duration, bool) {
	var ts syscall.Timespec
	_, _, errno := syscall.Syscall(syscall.SYS_CLOCK_GETTIME, clockThreadCPUTime, uintptr(unsafe.Pointer(&ts)), 0)
	if errno != 0 {
		return 0, false
	}
	return time.Duration(ts.Nano()), true
}
