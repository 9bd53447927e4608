package table

import (
	"context"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/hex"
	"errors"
	"fmt"
	"net/http"
	"time"

	"github.com/coder/websocket"
	"golang.org/x/time/rate"

	"tapis/api"
	"tapis/cluster"
	"tapis/game"
	"tapis/table/codec"
	"tapis/table/socket"
	"tapis/wire"
)

// conn is one WebSocket client at a table, seated or watching. Its
// outbox belongs to the table's goroutine, which alone sends to it and
// closes it; its writer, a goroutine only while messages wait, takes
// them to the socket.
type conn struct {
	seat game.Seat
	out  *socket.Outbox
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
	// connection (0: a normal closure); set before drop.
	bye websocket.StatusCode
	// welcome is the connection's first message, which attach builds
	// and serveWS encodes and sends, off the table's goroutine.
	welcome *wire.Welcome[any]
	// pace is how fast its person wants the bots to play (pace.go); it
	// belongs to the table's goroutine.
	pace pace
	// blocks are the players with a block between them and player,
	// either way, as they were when the socket opened: none of their
	// chat lines reaches this connection, nor its lines them (blocks.go).
	blocks map[string]bool
}

// outQueue is how many messages may wait for a slow client before it is
// dropped; a whole game's burst of bot moves fits. The queue grows to it
// only when messages wait (socket.Outbox).
const outQueue = 256

// serveWS upgrades a request to a WebSocket for a seat (token) or a
// spectator (no token), and leaves a goroutine (live) reading the
// client's messages until it leaves. The handler returns then, so that
// net/http's goroutine for the connection ends, and with it its 4 KB
// buffers and its stack (issue 28).
func (s *Host) serveWS(w http.ResponseWriter, r *http.Request) {
	t := s.find(w, r.PathValue("id"))
	if t == nil || !s.guard.PaceConnect(w, r, t.id) {
		return
	}
	release, ok := s.guard.HoldConn(w, r)
	if !ok {
		return
	}
	// What the handler holds, live gives back once handed over.
	live := false
	defer func() {
		if !live {
			release()
		}
	}()
	seat, full := game.Spectator, ""
	token := r.URL.Query().Get("token")
	// Without a token, a signed-in player who sits at the table is their
	// seat (on any device); anyone else watches.
	p, _ := s.Player(r)
	// A table that went to sleep since find is woken (callAwake); once
	// admitted, the place held keeps it awake.
	if err := s.callAwake(r.Context(), t, func(at *table) {
		t = at
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
	defer func() {
		if !live {
			s.readers.Done()
		}
	}()
	// The HTTP server's read and write deadlines would cut a long-lived
	// socket; heartbeats and pings watch it instead.
	rc := http.NewResponseController(w)
	rc.SetReadDeadline(time.Time{})
	rc.SetWriteDeadline(time.Time{})
	// A socket of this node goes on the host's Poller (inbound.go); a
	// relayed one, or one the Poller cannot take, is read by a goroutine
	// of its own (live).
	var ws cluster.Socket
	in := &inbound{s: s}
	ps, err := s.poll(w, r, in)
	switch {
	case err == nil:
		ws, in.ws = ps, ps
		// What the client sent since the handshake, and its close, go
		// to in from now on (before begin, in keeps them).
		ps.Open()
	case errors.Is(err, socket.ErrNotPolled):
		in = nil
		if ws, err = socket.Accept(w, r, &websocket.AcceptOptions{OriginPatterns: s.cfg.OriginPatterns}); err != nil {
			return // Accept has answered the request
		}
	default:
		return // the Poller has answered the request
	}
	// The socket lives until the client leaves or the server stops; the
	// request's context is not cancelled by a server shutdown.
	ctx, cancel := context.WithCancel(s.ctx)
	defer func() {
		if !live {
			cancel()
		}
	}()
	ws.SetReadLimit(int64(s.cfg.MaxMessage) * 16)
	c := &conn{seat: seat, out: socket.NewOutbox(ctx, ws, outQueue), player: p.ID, blocks: s.blocksOf(ctx, p.ID)}
	c.chatWho, c.chatNet = s.chatKeys(r, t.id, seat, p.ID)
	if seat < 0 {
		// A signed-in spectator chats under their player's name.
		c.name = p.Name
	}
	if err := t.call(ctx, func() { t.attach(c) }); err != nil {
		ws.Close(websocket.StatusGoingAway, "table closed")
		return
	}
	attached, live = true, true
	if in != nil {
		in.begin(ctx, cancel, t, c, p.ID, release)
		return
	}
	go s.live(ctx, cancel, ws, t, c, p.ID, release)
}

// poll accepts r's socket on the host's Poller, started with the first
// socket and stopped with the host, or answers socket.ErrNotPolled.
func (s *Host) poll(w http.ResponseWriter, r *http.Request, h socket.Handler) (*socket.Polled, error) {
	s.mu.Lock()
	if s.poller == nil && !s.closing && !s.cfg.NoPoll {
		p, err := socket.NewPoller()
		if err != nil {
			s.log.Warn("no event loop for sockets: each is read by a goroutine", "err", err)
			s.cfg.NoPoll = true
		}
		s.poller = p
	}
	p := s.poller
	s.mu.Unlock()
	if p == nil {
		return nil, socket.ErrNotPolled
	}
	return p.Accept(w, r, s.cfg.OriginPatterns, s.cfg.MaxMessage*16, h)
}

// live runs an attached connection until its client leaves or the server
// stops, then gives back what serveWS held: the connection's place
// (release), its reader's place, its context.
func (s *Host) live(ctx context.Context, cancel context.CancelFunc, ws cluster.Socket, t *table, c *conn, player string, release func()) {
	defer release()
	defer s.readers.Done()
	defer cancel()
	// Online while the socket is open (issue 29: the friends list).
	s.online.add(player, 1)
	defer s.online.add(player, -1)
	// The welcome first, before what the table queued. A failed write
	// closes the socket, which ends the reading below.
	c.out.Start(codec.Encode(c.welcome))
	c.welcome = nil
	// The pinger tells the reader's presence watch of each pong: a
	// socket that answers pings is present, however quiet its page.
	pongs := socket.WatchPresence(ws, s.cfg.Presence)
	defer pongs.Stop()
	pinger := socket.KeepPinging(ctx, ws, s.cfg.Ping, pongs.Heard)
	defer pinger.Stop()
	s.read(ctx, ws, t, c, pongs)
	// Whatever ended the reading, the table forgets the connection, which
	// closes its outbox and so the socket.
	if t.post(context.Background(), func() { t.drop(c) }) != nil {
		cancel()
		c.out.Close(0) // the table is gone
	}
	<-c.out.Done()
}

// read decodes the client's messages and hands them to the table, until
// the socket ends or the table is gone. A client that neither sends
// anything nor answers a ping for Config.Presence is gone (quiet, which
// the pinger tells of pongs), so its seat counts as away.
func (s *Host) read(ctx context.Context, ws cluster.Socket, t *table, c *conn, quiet *socket.Presence) {
	rd := s.newReading(quiet)
	// Reads get no context (coder/websocket arms a context's cancellation
	// around every frame, an allocation and a lock each): the server's end closes
	// the socket, which ends a read, and so does a presence timer, for
	// the connection's life rather than a context.WithTimeout per read.
	stop := context.AfterFunc(ctx, func() { ws.CloseNow() })
	defer stop()
	for {
		typ, data, err := socket.Read(ws)
		if err != nil {
			return
		}
		ok := s.receive(ctx, t, c, rd, typ, *data, false)
		socket.PutBuf(data)
		if !ok {
			return
		}
	}
}

// reading is what a connection's reading keeps between messages: its
// pace and its presence watch.
type reading struct {
	lim    *rate.Limiter
	warned time.Time
	quiet  *socket.Presence
}

func (s *Host) newReading(quiet *socket.Presence) *reading {
	lim := rate.NewLimiter(rate.Limit(s.cfg.Rate), s.cfg.Burst)
	if s.cfg.Rate < 0 {
		lim.SetLimit(rate.Inf)
	}
	return &reading{lim: lim, quiet: quiet}
}

// receive hands one message of c's client to its table. Bad messages are
// answered with an error and change nothing; a client that sends too fast
// is made to wait (paid: the pace was taken already). It returns false
// when the reading is to end: the table is gone, or ctx ended while the
// client waited. It does not keep data.
func (s *Host) receive(ctx context.Context, t *table, c *conn, rd *reading, typ websocket.MessageType, data []byte, paid bool) bool {
	// Allow first: a Reservation is an allocation, needed only to
	// know how long to wait.
	wait := time.Duration(0)
	if !paid && !rd.lim.Allow() {
		wait = rd.lim.Reserve().Delay()
	}
	if wait > 0 {
		// Said once a second at most, so that warnings do not add to
		// the flood.
		if now := time.Now(); now.Sub(rd.warned) >= time.Second {
			rd.warned = now
			t.post(ctx, func() { t.sendError(c, wire.CodeTooFast, "server: too many messages: slow down", nil) })
		}
		select {
		case <-time.After(wait):
		case <-ctx.Done():
			return false
		}
	}
	// Heard now, as the wait for the pace is not the client's silence.
	rd.quiet.Heard()
	if len(data) > s.cfg.MaxMessage {
		text := fmt.Sprintf("server: a message may hold %d bytes, not %d", s.cfg.MaxMessage, len(data))
		t.post(ctx, func() { t.sendError(c, wire.CodeTooLarge, text, nil) })
		return true
	}
	cm, err := codec.Decode(typ == websocket.MessageText, data) // it copies what it keeps
	m := clientMsg{ClientMessage: cm}
	m.read = s.cfg.Metrics.Now()
	if err != nil {
		text := err.Error()
		t.post(ctx, func() { t.sendError(c, wire.CodeBadMessage, text, m.ID) })
		return true
	}
	// A chat line is checked and paced here, before the table sees
	// it: a flood costs its own reader, not the table's moves.
	if m.Type == "chat" && !s.screenChat(ctx, t, c, &m) {
		return true
	}
	// A message read is handed over whatever happens to the
	// connection now: a move sent just before a disconnect is played.
	return t.post(context.Background(), func() { t.handle(c, m) }) == nil
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
