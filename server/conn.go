package server

import (
	"context"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/hex"
	"fmt"
	"net/http"
	"time"

	"github.com/coder/websocket"
	"golang.org/x/time/rate"

	"tapis/api"
	"tapis/cluster"
	"tapis/game"
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
	// chat paces the connection's chat lines; it belongs to the reader.
	chat *rate.Limiter
	// bye is the close code the writer sends when the table drops the
	// connection (0: a normal closure); set before out is closed.
	bye websocket.StatusCode
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
	if t == nil {
		return
	}
	release, ok := s.guard.conns.Acquire(s.guard.client(r))
	if !ok {
		api.Error(w, http.StatusTooManyRequests, "too_many_conns",
			fmt.Sprintf("server: your address holds %d connections already; close some", s.cfg.Limits.Conns))
		return
	}
	defer release()
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
		api.Error(w, http.StatusServiceUnavailable, "closed", err.Error())
		return
	}
	switch {
	case !ok:
		api.Error(w, http.StatusForbidden, "bad_token", "server: this seat token is not valid at this table")
		return
	case full != "":
		api.Error(w, http.StatusServiceUnavailable, "crowded", full)
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
		api.Error(w, http.StatusServiceUnavailable, "closed", "server: stopping")
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
	c := &conn{seat: seat, out: make(chan []byte, outQueue), chat: s.chatLimiter(), player: p.ID}
	if seat < 0 {
		// A signed-in spectator chats under their player's name.
		c.name = p.Name
	}
	if err := t.call(ctx, func() { t.attach(c) }); err != nil {
		ws.Close(websocket.StatusGoingAway, "table closed")
		return
	}
	attached = true
	done := make(chan struct{})
	go func() {
		defer close(done)
		s.write(ctx, ws, c)
	}()
	s.read(ctx, ws, t, c)
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
func (s *Server) write(ctx context.Context, ws cluster.Socket, c *conn) {
	ping := time.NewTicker(s.cfg.Ping)
	defer ping.Stop()
	// One write context and one timer for the connection's life rather
	// than a context.WithTimeout per message (a timer and three
	// allocations each, on every move's path): the timer, armed for each
	// write, cancels the write context when a write outlasts writeTimeout,
	// which ends that write and drops the client, as a deadline per write
	// did.
	wctx, cancelWrite := context.WithCancel(ctx)
	defer cancelWrite()
	stuck := time.AfterFunc(writeTimeout, cancelWrite)
	stuck.Stop()
	defer stuck.Stop()
	for {
		select {
		case <-ping.C:
			pctx, cancel := context.WithTimeout(ctx, s.cfg.Ping)
			err := ws.Ping(pctx)
			cancel()
			if err != nil {
				ws.CloseNow()
				return
			}
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
			err := ws.Write(wctx, websocket.MessageText, b)
			// Stop fails when the timer fired: the write context is
			// cancelled, whether or not this write got through in time.
			if !stuck.Stop() || err != nil {
				ws.CloseNow()
				return
			}
		case <-ctx.Done():
			ws.Close(websocket.StatusGoingAway, "server stopping")
			return
		}
	}
}

// read decodes the client's messages and hands them to the table. Bad
// messages are answered with an error and change nothing; a client that
// sends too fast is made to wait. A client silent for Config.Presence is
// gone (a tab frozen in the back/forward cache keeps its socket open but
// sends no heartbeat), so its seat counts as away.
func (s *Server) read(ctx context.Context, ws cluster.Socket, t *table, c *conn) {
	lim := rate.NewLimiter(rate.Limit(s.cfg.Rate), s.cfg.Burst)
	if s.cfg.Rate < 0 {
		lim.SetLimit(rate.Inf)
	}
	var warned time.Time
	for {
		rctx, cancel := context.WithTimeout(ctx, s.cfg.Presence)
		typ, data, err := ws.Read(rctx)
		cancel()
		if err != nil {
			return
		}
		if wait := lim.Reserve().Delay(); wait > 0 {
			// Said once a second at most, so that warnings do not add to
			// the flood.
			if now := time.Now(); now.Sub(warned) >= time.Second {
				warned = now
				t.post(ctx, func() { t.sendError(c, codeTooFast, "server: too many messages: slow down", nil) })
			}
			select {
			case <-time.After(wait):
			case <-ctx.Done():
				return
			}
		}
		if len(data) > s.cfg.MaxMessage {
			text := fmt.Sprintf("server: a message may hold %d bytes, not %d", s.cfg.MaxMessage, len(data))
			t.post(ctx, func() { t.sendError(c, codeTooLarge, text, nil) })
			continue
		}
		m, err := decodeClient(typ, data)
		m.read = s.cfg.Metrics.Now()
		if err != nil {
			text := err.Error()
			t.post(ctx, func() { t.sendError(c, codeBadMessage, text, m.ID) })
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

// decodeClient parses a client message strictly.
func decodeClient(typ websocket.MessageType, data []byte) (clientMsg, error) {
	var m clientMsg
	if typ != websocket.MessageText {
		return m, fmt.Errorf("server: messages are JSON text")
	}
	if err := game.DecodeStrict(data, &m); err != nil {
		return clientMsg{}, fmt.Errorf("server: a message is a JSON object with a \"type\": %v", err)
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
