//go:build !unix

package socket

import "net"

// closeOnExec does nothing where descriptors are not inherited by exec.
func closeOnExec(net.Conn) error { return nil }
