//go:build unix

package socket

import (
	"errors"
	"fmt"
	"net"
	"os"
	"syscall"
	"time"

	"github.com/lesismal/nbio"
	"github.com/lesismal/nbio/nbhttp"
)

// loopStart bounds the wait for a new event loop's first turn.
const loopStart = time.Minute

// awaitLoop returns once e's event loop has begun to run. nbio's loop
// clears its stop flag as it begins: a Stop that came before then is
// forgotten, and the loop, woken by the stop's event for ever, spins a
// core and never ends, nor does Stop (a test that stopped its Poller at
// once hung CI for 30 minutes). A probe socket's byte, read on the loop,
// shows the loop is past that point.
func awaitLoop(e *nbhttp.Engine) error {
	fds, err := syscall.Socketpair(syscall.AF_UNIX, syscall.SOCK_STREAM, 0)
	if err != nil {
		return fmt.Errorf("socket: the loop's probe: %v", err)
	}
	syscall.CloseOnExec(fds[1])
	f := os.NewFile(uintptr(fds[0]), "loop probe")
	nc, err := net.FileConn(f) // a close-on-exec copy
	f.Close()
	if err != nil {
		syscall.Close(fds[1])
		return fmt.Errorf("socket: the loop's probe: %v", err)
	}
	defer syscall.Close(fds[1])
	// nbio copies the descriptor again, without close-on-exec (see Accept).
	syscall.ForkLock.RLock()
	c, err := nbio.NBConn(nc)
	if err == nil {
		err = closeOnExec(c)
	}
	syscall.ForkLock.RUnlock()
	if err != nil {
		nc.Close()
		return fmt.Errorf("socket: the loop's probe: %v", err)
	}
	read := make(chan struct{})
	c.OnData(func(*nbio.Conn, []byte) {
		select {
		case <-read:
		default:
			close(read)
		}
	})
	if err := e.AddTransferredConn(c); err != nil {
		return fmt.Errorf("socket: the loop's probe: %v", err)
	}
	defer c.Close()
	if _, err := syscall.Write(fds[1], []byte{1}); err != nil {
		return fmt.Errorf("socket: the loop's probe: %v", err)
	}
	select {
	case <-read:
		return nil
	case <-time.After(loopStart):
		return errors.New("socket: the event loop did not start")
	}
}
