package table

import (
	"context"
	"runtime"
	"sync"

	"github.com/coder/websocket"

	"tapis/table/codec"
	"tapis/table/socket"
)

// inbound is the reading side of a socket on the host's Poller: what
// read does in a goroutine of its own for a relayed socket, done here as
// each message arrives, with no goroutine while the client is quiet
// (issue 28). A message within the pace, well formed and not a chat line
// goes to the table's inbox from the Poller's loop itself. Any other (one
// to wait for, to refuse, a chat line to screen) or one the table's
// inbox has no room for waits in the connection's queue, which a
// goroutine started for the purpose hands over in order, as read would,
// and ends once the queue is empty.
type inbound struct {
	s  *Host
	ws *socket.Polled

	// Set by begin before ready; read by the loop and the drain after.
	ctx     context.Context
	cancel  context.CancelFunc
	t       *table
	c       *conn
	rd      *reading
	player  string
	release func()
	pinger  interface{ Stop() bool }
	stop    func() bool

	mu sync.Mutex
	// q holds the messages waiting, spare the drain's last batch's
	// buffers, kept for reuse.
	q, spare held
	// inBatch counts the bytes of the drain's batch not yet handed to
	// the table: they are held as much as q's, and count against
	// maxHeld with them (else a flooder whose batch the drain took
	// would have twice the bound).
	inBatch int
	// ready: begin has run (the table has the connection); draining: a
	// drain goroutine runs; gone: the socket is closed; ended: the
	// connection's end has started.
	ready, draining, gone, ended bool
}

// held is a queue of messages, their bytes one after another in buf.
type held struct {
	buf  []byte
	msgs []heldMsg
}

type heldMsg struct {
	typ websocket.MessageType
	n   int
	// paid: the message was taken from the pace already.
	paid bool
}

// maxHeld bounds the bytes a connection's queue holds: a client that
// floods faster than its pace lets the table take its messages (its
// chat lines each answered, its moves made to wait) fills it, and is
// then cut off, where read's goroutine would stop reading it and the
// system's buffers fill. 1,000 short chat lines at once fit.
const maxHeld = 64 << 10

// Message is the Poller's: one message from the client, on the loop.
func (in *inbound) Message(typ websocket.MessageType, data []byte) {
	paid := false
	in.mu.Lock()
	if in.ready && !in.draining && !in.ended && len(in.q.msgs) == 0 {
		in.mu.Unlock()
		var done bool
		done, paid = in.fast(typ, data)
		if done {
			// The table's goroutine runs the move now, on this P, rather
			// than once the loop blocks in epoll_wait holding it, which
			// only the runtime's monitor undoes, some 20 µs to 10 ms later.
			runtime.Gosched()
			return
		}
		in.mu.Lock()
	}
	full := in.inBatch+len(in.q.buf)+len(data) > maxHeld
	if !full {
		in.q.buf = append(in.q.buf, data...)
		in.q.msgs = append(in.q.msgs, heldMsg{typ: typ, n: len(data), paid: paid})
	}
	next := in.next()
	in.mu.Unlock()
	if full {
		// Not under in.mu: a socket closed may tell Closed at once.
		in.ws.Close(websocket.StatusPolicyViolation, "too many messages: slow down")
	}
	next()
}

// fast hands a move or any message within the pace that needs no
// answer of its own to the table, if its inbox has room at once. done
// says it did; paid, that the message was taken from the pace.
func (in *inbound) fast(typ websocket.MessageType, data []byte) (done, paid bool) {
	if !in.rd.lim.Allow() {
		return false, false
	}
	if len(data) > in.s.cfg.MaxMessage {
		return false, true
	}
	cm, err := codec.Decode(typ == websocket.MessageText, data) // it copies what it keeps
	if err != nil || cm.Type == "chat" {
		return false, true
	}
	in.rd.quiet.Heard()
	m := clientMsg{ClientMessage: cm}
	m.read = in.s.cfg.Metrics.Now()
	t, c := in.t, in.c
	select {
	case t.inbox <- func() { t.handle(c, m) }:
		return true, true
	default:
		return false, true
	}
}

// Closed is the Poller's: the socket is gone.
func (in *inbound) Closed() {
	in.mu.Lock()
	in.gone = true
	next := in.next()
	in.mu.Unlock()
	next()
}

// next says what is to start now, with in.mu held: a drain for what
// waits, or the connection's end once the socket is gone and nothing
// waits. Before begin, nothing: what came waits for the table to have
// the connection, and begin starts it.
func (in *inbound) next() func() {
	switch {
	case !in.ready || in.draining || in.ended:
		return nothing
	case len(in.q.msgs) > 0:
		in.draining = true
		return func() { go in.drain() }
	case in.gone:
		in.ended = true
		return func() { go in.end() }
	}
	return nothing
}

// drain hands what waits to the table, in order, until nothing does.
func (in *inbound) drain() {
	for {
		in.mu.Lock()
		if len(in.q.msgs) == 0 {
			in.draining = false
			next := in.next()
			in.mu.Unlock()
			next()
			return
		}
		batch := in.q
		in.q, in.spare = in.spare, held{}
		in.q.buf, in.q.msgs = in.q.buf[:0], in.q.msgs[:0]
		in.inBatch = len(batch.buf)
		in.mu.Unlock()
		at := 0
		for _, m := range batch.msgs {
			data := batch.buf[at : at+m.n]
			at += m.n
			ok := in.s.receive(in.ctx, in.t, in.c, in.rd, m.typ, data, m.paid)
			in.mu.Lock()
			in.inBatch -= m.n
			in.mu.Unlock()
			if !ok {
				// The table is gone, or the host stops: what is left
				// has nowhere to go.
				in.ws.CloseNow()
				break
			}
		}
		batch.buf, batch.msgs = batch.buf[:0], batch.msgs[:0]
		in.mu.Lock()
		in.inBatch = 0
		if cap(batch.buf) <= maxHeld/4 {
			in.spare = batch
		}
		in.mu.Unlock()
	}
}

// begin starts the connection once the table has attached it, as live
// does for a socket read by a goroutine: the welcome, the pings and the
// presence watch, then what the client sent meanwhile.
func (in *inbound) begin(ctx context.Context, cancel context.CancelFunc, t *table, c *conn, player string, release func()) {
	s := in.s
	in.ctx, in.cancel, in.t, in.c, in.player, in.release = ctx, cancel, t, c, player, release
	s.online.add(player, 1)
	c.out.Start(codec.Encode(c.welcome))
	c.welcome = nil
	quiet := socket.WatchPresence(in.ws, s.cfg.Presence)
	in.rd = s.newReading(quiet)
	in.pinger = socket.KeepPinging(ctx, in.ws, s.cfg.Ping, quiet.Heard)
	in.stop = context.AfterFunc(ctx, func() { in.ws.CloseNow() })
	in.mu.Lock()
	in.ready = true
	next := in.next()
	in.mu.Unlock()
	next()
}

// end gives back what serveWS held, as live does once its reading ends:
// the table forgets the connection, which closes its outbox.
func (in *inbound) end() {
	s, t, c := in.s, in.t, in.c
	defer in.release()
	defer s.readers.Done()
	defer in.cancel()
	defer s.online.add(in.player, -1)
	defer in.rd.quiet.Stop()
	defer in.pinger.Stop()
	defer in.stop()
	if t.post(context.Background(), func() { t.drop(c) }) != nil {
		in.cancel()
		c.out.Close(0) // the table is gone
	}
	<-c.out.Done()
}
