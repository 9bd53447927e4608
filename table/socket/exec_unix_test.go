//go:build unix

package socket

import (
	"syscall"
	"testing"
)

// A polled socket's descriptor is close-on-exec: a process started while
// it is open (a test's browser) must not hold a copy, which would keep it
// in the event loop's epoll set after the loop closed it, and wake the
// loop for it without end.
func TestPolledSocketIsCloseOnExec(t *testing.T) {
	flags := make(chan int, 1)
	_, _, err := pollOne(t, []string{"elsewhere.example"}, 1<<10, newEcho(), func(ps *Polled) {
		sc, _ := ps.raw.conn.(syscall.Conn)
		if sc == nil {
			t.Error("the polled socket's connection has no descriptor")
			flags <- -1
			return
		}
		rc, err := sc.SyscallConn()
		if err != nil {
			t.Error(err)
		}
		rc.Control(func(fd uintptr) {
			f, _, errno := syscall.Syscall(syscall.SYS_FCNTL, fd, syscall.F_GETFD, 0)
			if errno != 0 {
				t.Error(errno)
			}
			flags <- int(f)
		})
	})
	if err != nil {
		t.Fatal(err)
	}
	if f := <-flags; f&syscall.FD_CLOEXEC == 0 {
		t.Errorf("the polled socket's descriptor flags are %#x: not close-on-exec", f)
	}
}
