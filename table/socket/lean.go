package socket

import (
	"bufio"
	"encoding/binary"
	"net"
	"net/http"
	"sync"

	"github.com/coder/websocket"

	"tapis/cluster"
)

// Accept upgrades a request to a WebSocket as cluster.Upgrade does, and,
// for a client's own socket on this node, leanly: coder/websocket reads
// through a small buffer of its own instead of net/http's 4 KB one and
// writes its control frames (pongs, pings, closes) through a small one
// instead of another 4 KB, and the Outbox writes the table's messages
// to the connection itself, every message waiting in one system call
// (issue 28). A relayed socket (a cluster's other node has the client)
// is cluster.Upgrade's.
func Accept(w http.ResponseWriter, r *http.Request, opts *websocket.AcceptOptions) (cluster.Socket, error) {
	hj, ok := w.(http.Hijacker)
	if !ok {
		return cluster.Upgrade(w, r, opts)
	}
	lw := &leanWriter{ResponseWriter: w, hj: hj}
	ws, err := cluster.Upgrade(lw, r, opts)
	if err != nil || lw.raw == nil {
		return ws, err
	}
	c, ok := ws.(*websocket.Conn)
	if !ok {
		return ws, nil
	}
	return &leanConn{Conn: c, raw: lw.raw}, nil
}

// readBuffer is the size of a lean socket's read buffer: a client's
// messages are small (a move is under 200 bytes), so most are read in
// one system call, and a larger one is read past the buffer.
const readBuffer = 512

// controlBuffer is the size of the buffer coder/websocket writes its
// own frames through. A control frame (at most 125 bytes of payload and
// a 2-byte header) fits whole, so each reaches raw in one Write, which
// is what lets raw put the Outbox's frames between two of them. Nothing
// else may write a data frame through coder/websocket on a lean socket.
const controlBuffer = 256

// leanWriter is the ResponseWriter Accept hands coder/websocket: its
// Hijack gives the connection with small buffers.
type leanWriter struct {
	http.ResponseWriter
	hj  http.Hijacker
	raw *raw
}

func (w *leanWriter) Hijack() (net.Conn, *bufio.ReadWriter, error) {
	c, brw, err := w.hj.Hijack()
	if err != nil {
		return c, brw, err
	}
	br := brw.Reader
	if br.Buffered() == 0 {
		// What net/http read ahead, rarely anything, stays in its own
		// buffer; coder/websocket reads it first.
		br = bufio.NewReaderSize(c, readBuffer)
	}
	w.raw = &raw{conn: c}
	return c, bufio.NewReadWriter(br, bufio.NewWriterSize(w.raw, controlBuffer)), nil
}

// leanConn is a lean socket: coder/websocket's, and its connection for
// the Outbox.
type leanConn struct {
	*websocket.Conn
	raw *raw
}

func (c *leanConn) lean() *raw { return c.raw }

// raw is a lean socket's connection, written by coder/websocket's
// control frames and by the Outbox's messages, one whole write at a
// time.
type raw struct {
	mu   sync.Mutex
	conn net.Conn
	// nonblocking: a Poller's connection, whose Write never waits (what
	// the client does not take at once waits in the Poller), so an
	// Outbox writes to it at Send, from the sender's goroutine.
	nonblocking bool
}

// Write writes what coder/websocket flushes (whole control frames) and
// what an Outbox gathered (whole data frames).
func (r *raw) Write(p []byte) (int, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.conn.Write(p)
}

// frameBufs holds the buffers an Outbox frames its messages into, only
// while they wait.
var frameBufs = sync.Pool{New: func() any { b := make([]byte, 0, 4096); return &b }}

// putFrames gives back a buffer of frameBufs, unless a rare burst grew it
// past 64 KB.
func putFrames(bp *[]byte) {
	if cap(*bp) <= 64<<10 {
		*bp = (*bp)[:0]
		frameBufs.Put(bp)
	}
}

// appendFrame appends p as one unmasked, final text frame (RFC 6455
// 5.2: a server's frames are not masked).
func appendFrame(b, p []byte) []byte {
	const finText = 0x80 | 0x1
	switch n := len(p); {
	case n <= 125:
		b = append(b, finText, byte(n))
	case n <= 0xFFFF:
		b = append(b, finText, 126)
		b = binary.BigEndian.AppendUint16(b, uint16(n))
	default:
		b = append(b, finText, 127)
		b = binary.BigEndian.AppendUint64(b, uint64(n))
	}
	return append(b, p...)
}

// nextFrame returns the payload of the first frame in b, which
// appendFrame wrote, and what follows it.
func nextFrame(b []byte) (payload, rest []byte) {
	n, at := int(b[1]), 2
	switch n {
	case 126:
		n, at = int(binary.BigEndian.Uint16(b[2:])), 4
	case 127:
		n, at = int(binary.BigEndian.Uint64(b[2:])), 10
	}
	return b[at : at+n], b[at+n:]
}
