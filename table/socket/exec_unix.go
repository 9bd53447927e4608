//go:build unix

package socket

import (
	"fmt"
	"net"
	"syscall"
)

// closeOnExec marks c's descriptor close-on-exec, as Go marks every
// descriptor it opens. The caller holds syscall.ForkLock.
func closeOnExec(c net.Conn) error {
	sc, ok := c.(syscall.Conn)
	if !ok {
		return nil
	}
	rc, err := sc.SyscallConn()
	if err != nil {
		return fmt.Errorf("socket: %v", err)
	}
	return rc.Control(func(fd uintptr) { syscall.CloseOnExec(int(fd)) })
}
