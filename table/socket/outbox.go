package socket

import (
	"context"
	"sync"
	"time"

	"github.com/coder/websocket"

	"tapis/cluster"
)

// Outbox holds a connection's messages waiting to be written, and writes
// them from a goroutine that runs only while some wait: an idle
// connection costs no goroutine and no buffer (issue 28: a parked writer
// and a 256-slot channel were a fifth of a table's memory). Send frames
// each message into a pooled buffer, so the sender may reuse its own at
// once (a table encodes its state messages into one pooled buffer a
// move); the messages waiting when the writer wakes go out together, in
// one system call on a socket of this node (Accept): a move's state and
// what came with it cost one write.
type Outbox struct {
	ws  cluster.Socket
	raw *raw // nil for a relayed socket: one ws.Write a message
	ctx context.Context
	max int
	// stuck closes the socket when a write outlasts WriteTimeout: one
	// timer for the connection's life, armed for each write, rather
	// than a context per write.
	stuck *time.Timer

	mu sync.Mutex
	// pend holds the frames of the n messages waiting, in a buffer of
	// frameBufs (nil: none waits).
	pend *[]byte
	n    int
	// busy: a writer runs, or the outbox is held until Start.
	busy bool
	// closing: Close was called; code is its close code. failed: a
	// write failed, the socket is closed and what is sent is dropped.
	closing, failed bool
	code            websocket.StatusCode
	done            chan struct{}
	// runs is run as a func value made once: a method value made at
	// each go statement would be an allocation a write.
	runs func()
}

// NewOutbox returns ws's outbox, which queues up to max messages; a
// sender that finds max waiting has a client too slow to take them. It
// writes nothing until Start. A socket's end (a server stop, ctx) cuts
// its closing short: no closing handshake.
func NewOutbox(ctx context.Context, ws cluster.Socket, max int) *Outbox {
	o := &Outbox{ws: ws, ctx: ctx, max: max, busy: true, done: make(chan struct{})}
	if l, ok := ws.(interface{ lean() *raw }); ok {
		o.raw = l.lean()
	}
	o.runs = o.run
	if !o.direct() {
		// A Poller's socket never blocks a write: what its client does
		// not take waits in the Poller, up to a bound, and its pings go
		// unanswered (Presence closes it).
		o.stuck = time.AfterFunc(WriteTimeout, func() { ws.CloseNow() })
		o.stuck.Stop()
	}
	return o
}

// Start writes first, then whatever was sent before, and from then on
// every message as it is sent.
func (o *Outbox) Start(first []byte) {
	o.mu.Lock()
	bp := frameBufs.Get().(*[]byte)
	b := appendFrame((*bp)[:0], first)
	if o.pend != nil {
		b = append(b, *o.pend...)
		putFrames(o.pend)
	}
	*bp = b
	o.pend = bp
	o.n++
	if o.direct() {
		o.busy = false
		o.flush()
		o.mu.Unlock()
		return
	}
	o.mu.Unlock()
	go o.runs()
}

// direct reports whether the outbox writes at Send: its socket is a
// Poller's, which never blocks a write.
func (o *Outbox) direct() bool { return o.raw != nil && o.raw.nonblocking }

// flush writes what waits, with o.mu held: a direct outbox's Send.
func (o *Outbox) flush() {
	frames := o.pend
	o.pend, o.n = nil, 0
	if frames == nil {
		return
	}
	if !o.failed {
		if _, err := o.raw.Write(*frames); err != nil {
			o.failed = true
			o.ws.CloseNow()
		}
	}
	putFrames(frames)
}

// Send queues a copy of b; it returns false, queueing nothing, when max
// messages wait already. After Close it does nothing.
func (o *Outbox) Send(b []byte) bool {
	o.mu.Lock()
	if o.closing || o.failed {
		o.mu.Unlock()
		return true
	}
	if o.n >= o.max {
		o.mu.Unlock()
		return false
	}
	if o.pend == nil {
		o.pend = frameBufs.Get().(*[]byte)
		*o.pend = (*o.pend)[:0]
	}
	*o.pend = appendFrame(*o.pend, b)
	o.n++
	if !o.busy && o.direct() {
		o.flush()
		o.mu.Unlock()
		return true
	}
	start := !o.busy
	o.busy = true
	o.mu.Unlock()
	if start {
		go o.runs()
	}
	return true
}

// Close closes the socket, with code (0: a normal closure), once what
// waits is written. It may be called more than once: the first code
// holds.
func (o *Outbox) Close(code websocket.StatusCode) {
	o.mu.Lock()
	if o.closing {
		o.mu.Unlock()
		return
	}
	o.closing, o.code = true, code
	if !o.busy && o.direct() {
		o.busy = true
		failed := o.failed
		o.mu.Unlock()
		o.finish(failed)
		return
	}
	start := !o.busy
	o.busy = true
	o.mu.Unlock()
	if start {
		go o.runs()
	}
}

// Done is closed once Close has closed the socket.
func (o *Outbox) Done() <-chan struct{} { return o.done }

// run writes what waits until nothing does, then ends, or closes the
// socket if Close was called.
func (o *Outbox) run() {
	for {
		o.mu.Lock()
		if o.pend == nil {
			closing, failed := o.closing, o.failed
			o.busy = closing
			o.mu.Unlock()
			if closing {
				o.finish(failed)
			}
			return
		}
		frames := o.pend
		o.pend, o.n = nil, 0
		failed := o.failed
		o.mu.Unlock()
		var err error
		if !failed {
			err = o.write(*frames)
		}
		putFrames(frames)
		if err != nil {
			o.mu.Lock()
			o.failed = true
			o.mu.Unlock()
		}
		if err != nil {
			o.ws.CloseNow()
		}
	}
}

// write writes frames, in one system call when the socket is this
// node's, else a message at a time.
func (o *Outbox) write(frames []byte) error {
	o.stuck.Reset(WriteTimeout)
	var err error
	if o.raw != nil {
		_, err = o.raw.Write(frames)
	} else {
		for len(frames) > 0 && err == nil {
			var msg []byte
			msg, frames = nextFrame(frames)
			err = o.ws.Write(context.Background(), websocket.MessageText, msg)
		}
	}
	// Stop fails when the timer fired: the socket is closed, whether
	// or not the write got through in time.
	if !o.stuck.Stop() && err == nil {
		err = context.DeadlineExceeded
	}
	return err
}

// finish closes the socket as Close asked.
func (o *Outbox) finish(failed bool) {
	defer close(o.done)
	if o.stuck != nil {
		o.stuck.Stop()
	}
	if failed || o.ctx.Err() != nil {
		// No closing handshake: it would wait up to 5 s for the
		// client's answer, and the server's stop (a cluster's hand-over
		// of its tables) with it; the reader closes the socket at once,
		// and the client reconnects.
		o.ws.CloseNow()
		return
	}
	if o.code != 0 {
		o.ws.Close(o.code, "reconnecting")
	} else {
		o.ws.Close(websocket.StatusNormalClosure, "")
	}
}
