// Package socket is what the table host does with a WebSocket beside
// reading its messages: accepting it with small buffers (Accept), writing
// a table's messages with a bound on each and every waiting one in one
// system call (Outbox), pinging the client, watching that it is still
// there (it sends, or answers pings), and reading each message into a
// pooled buffer.
package socket

import (
	"context"
	"io"
	"math"
	"sync"
	"sync/atomic"
	"time"

	"github.com/coder/websocket"

	"tapis/cluster"
)

// WriteTimeout is how long one write may take to reach a client's
// socket; a client that takes longer is dropped.
const WriteTimeout = 10 * time.Second

// KeepPinging pings the client every period from a timer of its own
// (coder/websocket lets a ping run beside a write), closing the socket
// when a pong does not come within the period, and calling ponged when
// one does. Stop ends it.
//
// A browser answers pings itself, below the page's scripts: a tab in the
// background, whose timers the browser throttles (Chrome runs them once a
// minute), answers at once all the same. So the pongs, not a heartbeat
// the page would send from a timer, are what keeps its seat present
// (issue 24, finding 14).
func KeepPinging(ctx context.Context, ws cluster.Socket, period time.Duration, ponged func()) *time.Timer {
	var t *time.Timer
	var mu sync.Mutex // t is set before the first ping reads it
	mu.Lock()
	defer mu.Unlock()
	t = time.AfterFunc(period, func() {
		pctx, cancel := context.WithTimeout(ctx, period)
		err := ws.Ping(pctx)
		cancel()
		if err != nil {
			ws.CloseNow()
			return
		}
		ponged()
		mu.Lock()
		t.Reset(period)
		mu.Unlock()
	})
	return t
}

// readBufs holds the buffers messages are read into, only while one is
// decoded: a connection waiting for its client holds none.
var readBufs = sync.Pool{New: func() any { b := make([]byte, 0, 512); return &b }}

// Read reads the next message into a buffer of readBufs, which the
// caller puts back (PutBuf) once done with it.
func Read(ws cluster.Socket) (websocket.MessageType, *[]byte, error) {
	typ, r, err := ws.Reader(context.Background())
	if err != nil {
		return 0, nil, err
	}
	bp := readBufs.Get().(*[]byte)
	b := (*bp)[:0]
	for {
		if len(b) == cap(b) {
			b = append(b, 0)[:len(b)]
		}
		n, err := r.Read(b[len(b):cap(b)])
		b = b[:len(b)+n]
		if err == io.EOF {
			break
		}
		if err != nil {
			return 0, nil, err
		}
	}
	*bp = b
	return typ, bp, nil
}

// PutBuf gives back a buffer of Read's, unless a rare large
// message grew it (the read limit is several times MaxMessage).
func PutBuf(bp *[]byte) {
	if cap(*bp) <= 64<<10 {
		readBufs.Put(bp)
	}
}

// Presence closes a connection whose client has been silent for its
// period, neither sending a message nor answering a ping: one timer for the connection's life, which looks at when the
// client was last heard when it fires and sleeps again for what is left,
// so that hearing a message is only a clock reading.
type Presence struct {
	ws     cluster.Socket
	period time.Duration
	start  time.Time
	last   atomic.Int64 // since start, when the client was last heard
	timer  *time.Timer
	done   atomic.Bool
}

// WatchPresence watches ws for period.
func WatchPresence(ws cluster.Socket, period time.Duration) *Presence {
	p := &Presence{ws: ws, period: period, start: time.Now()}
	p.timer = time.AfterFunc(time.Duration(math.MaxInt64), p.check)
	p.timer.Reset(period) // armed once p.timer is set, which check uses
	return p
}

// Heard notes that the client sent something, or answered a ping.
func (p *Presence) Heard() { p.last.Store(int64(time.Since(p.start))) }

func (p *Presence) check() {
	if p.done.Load() {
		return
	}
	left := p.period - (time.Since(p.start) - time.Duration(p.last.Load()))
	if left > 0 {
		p.timer.Reset(left)
		return
	}
	p.ws.CloseNow()
}

// Stop ends the watch.
func (p *Presence) Stop() {
	p.done.Store(true)
	p.timer.Stop()
}
