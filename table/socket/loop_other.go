//go:build !unix

package socket

import "github.com/lesismal/nbio/nbhttp"

// awaitLoop does nothing where nbio has no event loop of its own (it
// reads with a goroutine a connection).
func awaitLoop(*nbhttp.Engine) error { return nil }
