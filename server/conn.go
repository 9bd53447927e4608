package server

import (
	"context"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/hex"
	"fmt"
	"io"
	"math"
	"net/http"
	"sync"
	"sync/atomic"
	"time"

	"github.com/coder/websocket"
	"golang.org/x/time/rate"

	"tapis/api"
	"tapis/cluster"
	"tapis/game"
	"tapis/wire"
)

// conn is one WebSocket client at a table, seated or watching. Its out
// channel belongs to the table's goroutine, which alone sends on it and
// closes it; the writer goroutine drains it to the socket.
type conn struct {
	seat game.Seat
	out  chan []byte
	// player is the signed-in player's id ("" for none); name is a
	// spectator's name at the chat (chat.go): their player's, or the one
	// their "hello" gives. no numbers the table's connections (attach), so
	// that a spectator without a player id can still be muted. All three
	// belong to the table's goroutine once the connection is attached.
	player string
	name   string
	no     int
	// chatWho and chatNet are the keys of the chat budgets the
	// connection's lines spend (chat.go); they belong to the reader.
	chatWho, chatNet string
	// bye is the close code the writer sends when the table drops the
	// connection (0: a normal closure); set before out is closed.
	bye websocket.StatusCode
	// welcome is the connection's first message, which attach builds
	// and serveWS encodes and sends, off the table's goroutine.
	welcome *wire.Welcome[any]
}

// outQueue is how many messages may wait for a slow client before it is
// dropped; a whole game's burst of bot moves fits.
const outQueue = 256

// writeTimeout is how long one message may take to reach a client's
// socket; a client that takes longer is dropped.
const writeTimeout = 10 * time.Second

// serveWS upgrades a request to a WebSocket for a seat (token) or a
// spectator (no token), then reads the client's messages until it leaves.
func (s *Server) serveWS(w http.ResponseWriter, r *http.Request) {
	t := s.find(w, r.PathValue("id"))
	if t == nil || !s.paceConnect(w, r, t) {
		return
	}
	release, ok := s.guard.conns.Acquire(s.guard.client(r))
	if !ok {
		api.Error(w, http.StatusTooManyRequests, api.CodeTooManyConns,
			fmt.Sprintf("server: your address holds %d connections already; close some", s.cfg.Limits.Conns))
		return
	}
	defer release()
	releaseNet, ok := s.guard.netConns.Acquire(s.guard.network(r))
	if !ok {
		api.Error(w, http.StatusTooManyRequests, api.CodeTooManyConnsNetwork,
			fmt.Sprintf("server: your network holds %d connections already; close some", s.cfg.Limits.NetConns))
		return
	}
	defer releaseNet()
	releaseAll, ok := s.guard.totalConns.Acquire("")
	if !ok {
		api.Error(w, http.StatusTooManyRequests, api.CodeTooManyConnsServer,
			fmt.Sprintf("server: the server holds %d connections already; try again later", s.cfg.Limits.TotalConns))
		return
	}
	defer releaseAll()
	seat, full := game.Spectator, ""
	token := r.URL.Query().Get("token")
	// Without a token, a signed-in player who sits at the table is their
	// seat (on any device); anyone else watches.
	p, _ := s.player(r)
	if err := t.call(r.Context(), func() {
		if token != "" {
			if seat, ok = t.seatOf(token); !ok {
				return
			}
		} else if ps, in := t.seatOfPlayer(p.ID); in {
			seat = ps
		}
		full = t.admit(seat)
	}); err != nil {
		api.Error(w, http.StatusServiceUnavailable, api.CodeClosed, err.Error())
		return
	}
	switch {
	case !ok:
		api.Error(w, http.StatusForbidden, api.CodeBadToken, "server: this seat token is not valid at this table")
		return
	case full != "":
		api.Error(w, http.StatusServiceUnavailable, api.CodeCrowded, full)
		return
	}
	// Until attached, the place admit holds is given back on every way out.
	attached := false
	defer func() {
		if !attached {
			t.post(context.Background(), func() { t.leave(seat) })
		}
	}()
	if !s.reader() {
		api.Error(w, http.StatusServiceUnavailable, api.CodeClosed, "server: stopping")
		return
	}
	defer s.readers.Done()
	// The HTTP server's read and write deadlines would cut a long-lived
	// socket; heartbeats and pings watch it instead.
	rc := http.NewResponseController(w)
	rc.SetReadDeadline(time.Time{})
	rc.SetWriteDeadline(time.Time{})
	ws, err := cluster.Upgrade(w, r, &websocket.AcceptOptions{OriginPatterns: s.cfg.OriginPatterns})
	if err != nil {
		return // Accept has answered the request
	}
	// The socket lives until the client leaves or the server stops; the
	// request's context is not cancelled by a server shutdown.
	ctx, cancel := context.WithCancel(s.ctx)
	defer cancel()
	ws.SetReadLimit(int64(s.cfg.MaxMessage) * 16)
	c := &conn{seat: seat, out: make(chan []byte, outQueue), player: p.ID}
	c.chatWho, c.chatNet = s.chatKeys(r, t.id, seat, p.ID)
	if seat < 0 {
		// A signed-in spectator chats under their player's name.
		c.name = p.Name
	}
	if err := t.call(ctx, func() { t.attach(c) }); err != nil {
		ws.Close(websocket.StatusGoingAway, "table closed")
		return
	}
	attached = true
	// The welcome first, before the writer sends what the table queued.
	wctx, wcancel := context.WithTimeout(ctx, writeTimeout)
	err = ws.Write(wctx, websocket.MessageText, encode(c.welcome))
	wcancel()
	c.welcome = nil
	if err != nil {
		ws.CloseNow()
		t.post(context.Background(), func() { t.drop(c) })
		return
	}
	done := make(chan struct{})
	// The pinger tells the reader's presence watch of each pong: a
	// socket that answers pings is present, however quiet its page.
	pongs := watchPresence(ws, s.cfg.Presence)
	defer pongs.stop()
	go func() {
		defer close(done)
		s.write(ctx, ws, c, pongs)
	}()
	s.read(ctx, ws, t, c, pongs)
	// Whatever ended the reading, the table forgets the connection, which
	// closes out and so ends the writer.
	if t.post(context.Background(), func() { t.drop(c) }) != nil {
		cancel()
	}
	<-done
}

// write sends the table's messages to the socket until out is closed,
// and pings the client now and then: a peer that does not answer is gone
// (a dropped network leaves no one to close the socket), and the traffic
// keeps proxies from closing a quiet connection.
func (s *Server) write(ctx context.Context, ws cluster.Socket, c *conn, quiet *presence) {
	// Pings run from a timer rather than a ticker in the select below: a
	// timer's channel in a select costs every wait for a message.
	pinger := keepPinging(ctx, ws, s.cfg.Ping, quiet.heard)
	defer pinger.Stop()
	// Writes get no context: coder/websocket arms a context's cancellation
	// around every frame it writes (context.AfterFunc, an allocation and
	// a lock each), which was a good part of a move's cost. One timer for
	// the connection's life, armed for each write, closes the socket when
	// a write outlasts writeTimeout, which ends that write and drops the
	// client; the server's end closes the socket too (read).
	stuck := time.AfterFunc(writeTimeout, func() { ws.CloseNow() })
	stuck.Stop()
	defer stuck.Stop()
	for {
		select {
		case b, ok := <-c.out:
			if !ok {
				if c.bye != 0 {
					ws.Close(c.bye, "reconnecting")
				} else {
					ws.Close(websocket.StatusNormalClosure, "")
				}
				return
			}
			stuck.Reset(writeTimeout)
			err := ws.Write(context.Background(), websocket.MessageText, b)
			// Stop fails when the timer fired: the socket is closed,
			// whether or not this write got through in time.
			if !stuck.Stop() || err != nil {
				ws.CloseNow()
				return
			}
		case <-ctx.Done():
			// No closing handshake: it would wait up to 5 s for the
			// client's answer, and the server's stop (a cluster's
			// hand-over of its tables) with it; the reader closes the
			// socket at once (read), and the client reconnects.
			ws.CloseNow()
			return
		}
	}
}

// keepPinging pings the client every period from a timer of its own
// (coder/websocket lets a ping run beside a write), closing the socket
// when a pong does not come within the period, and calling ponged when
// one does. Stop ends it.
//
// A browser answers pings itself, below the page's scripts: a tab in the
// background, whose timers the browser throttles (Chrome runs them once a
// minute), answers at once all the same. So the pongs, not a heartbeat
// the page would send from a timer, are what keeps its seat present
// (issue 24, finding 14).
func keepPinging(ctx context.Context, ws cluster.Socket, period time.Duration, ponged func()) *time.Timer {
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

// read decodes the client's messages and hands them to the table. Bad
// messages are answered with an error and change nothing; a client that
// sends too fast is made to wait. A client that neither sends anything
// nor answers a ping for Config.Presence is gone (quiet, which the pinger
// tells of pongs), so its seat counts as away.
func (s *Server) read(ctx context.Context, ws cluster.Socket, t *table, c *conn, quiet *presence) {
	lim := rate.NewLimiter(rate.Limit(s.cfg.Rate), s.cfg.Burst)
	if s.cfg.Rate < 0 {
		lim.SetLimit(rate.Inf)
	}
	var warned time.Time
	// Reads get no context either (see write): the server's end closes
	// the socket, which ends a read, and so does a presence timer, for
	// the connection's life rather than a context.WithTimeout per read.
	stop := context.AfterFunc(ctx, func() { ws.CloseNow() })
	defer stop()
	for {
		typ, data, err := readMessage(ws)
		if err != nil {
			return
		}
		// Allow first: a Reservation is an allocation, needed only to
		// know how long to wait.
		wait := time.Duration(0)
		if !lim.Allow() {
			wait = lim.Reserve().Delay()
		}
		if wait > 0 {
			// Said once a second at most, so that warnings do not add to
			// the flood.
			if now := time.Now(); now.Sub(warned) >= time.Second {
				warned = now
				t.post(ctx, func() { t.sendError(c, wire.CodeTooFast, "server: too many messages: slow down", nil) })
			}
			select {
			case <-time.After(wait):
			case <-ctx.Done():
				return
			}
		}
		// Heard now, as the wait for the pace is not the client's silence.
		quiet.heard()
		if len(*data) > s.cfg.MaxMessage {
			text := fmt.Sprintf("server: a message may hold %d bytes, not %d", s.cfg.MaxMessage, len(*data))
			putReadBuf(data)
			t.post(ctx, func() { t.sendError(c, wire.CodeTooLarge, text, nil) })
			continue
		}
		m, err := decodeClient(typ, *data)
		putReadBuf(data) // decodeClient copies what it keeps
		m.read = s.cfg.Metrics.Now()
		if err != nil {
			text := err.Error()
			t.post(ctx, func() { t.sendError(c, wire.CodeBadMessage, text, m.ID) })
			continue
		}
		// A chat line is checked and paced here, before the table sees
		// it: a flood costs its own reader, not the table's moves.
		if m.Type == "chat" && !s.screenChat(ctx, t, c, &m) {
			continue
		}
		// A message read is handed over whatever happens to the
		// connection now: a move sent just before a disconnect is played.
		if t.post(context.Background(), func() { t.handle(c, m) }) != nil {
			return
		}
	}
}

// readBufs holds the buffers messages are read into, only while one is
// decoded: a connection waiting for its client holds none.
var readBufs = sync.Pool{New: func() any { b := make([]byte, 0, 512); return &b }}

// readMessage reads the next message into a buffer of readBufs, which
// the caller puts back once done with it.
func readMessage(ws cluster.Socket) (websocket.MessageType, *[]byte, error) {
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

// putReadBuf gives back a buffer of readMessage's, unless a rare large
// message grew it (the read limit is several times MaxMessage).
func putReadBuf(bp *[]byte) {
	if cap(*bp) <= 64<<10 {
		readBufs.Put(bp)
	}
}

// presence closes a connection whose client has been silent for its
// period, neither sending a message nor answering a ping: one timer for the connection's life, which looks at when the
// client was last heard when it fires and sleeps again for what is left,
// so that hearing a message is only a clock reading.
type presence struct {
	ws     cluster.Socket
	period time.Duration
	start  time.Time
	last   atomic.Int64 // since start, when the client was last heard
	timer  *time.Timer
	done   atomic.Bool
}

func watchPresence(ws cluster.Socket, period time.Duration) *presence {
	p := &presence{ws: ws, period: period, start: time.Now()}
	p.timer = time.AfterFunc(time.Duration(math.MaxInt64), p.check)
	p.timer.Reset(period) // armed once p.timer is set, which check uses
	return p
}

// heard notes that the client sent something, or answered a ping.
func (p *presence) heard() { p.last.Store(int64(time.Since(p.start))) }

func (p *presence) check() {
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

func (p *presence) stop() {
	p.done.Store(true)
	p.timer.Stop()
}

// decodeClient parses a client message strictly.
func decodeClient(typ websocket.MessageType, data []byte) (clientMsg, error) {
	var m clientMsg
	if typ != websocket.MessageText {
		return m, fmt.Errorf("server: messages are JSON text")
	}
	if !decodeFast(data, &m) {
		m = clientMsg{}
		if err := game.DecodeStrict(data, &m); err != nil {
			return clientMsg{}, fmt.Errorf("server: a message is a JSON object with a \"type\": %v", err)
		}
	}
	if m.Type == "move" && len(m.Move) == 0 {
		return m, fmt.Errorf("server: a move message needs a \"move\"")
	}
	return m, nil
}

func hashToken(token string) string {
	h := sha256.Sum256([]byte(token))
	return hex.EncodeToString(h[:])
}

// seatOf returns the seat whose token this is, or false.
func (t *table) seatOf(token string) (game.Seat, bool) {
	h := hashToken(token)
	for i, s := range t.seats {
		if s.TokenHash != "" && subtle.ConstantTimeCompare([]byte(h), []byte(s.TokenHash)) == 1 {
			return game.Seat(i), true
		}
	}
	return game.Spectator, false
}
