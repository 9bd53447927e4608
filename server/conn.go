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

	"tapis/game"
)

// conn is one WebSocket client at a table, seated or watching. Its out
// channel belongs to the table's goroutine, which alone sends on it and
// closes it; the writer goroutine drains it to the socket.
type conn struct {
	seat game.Seat
	out  chan []byte
}

// outQueue is how many messages may wait for a slow client before it is
// dropped; a whole game's burst of bot moves fits.
const outQueue = 256

// serveWS upgrades a request to a WebSocket for a seat (token) or a
// spectator (no token), then reads the client's messages until it leaves.
func (s *Server) serveWS(w http.ResponseWriter, r *http.Request) {
	t := s.table(r.PathValue("id"))
	if t == nil {
		httpError(w, http.StatusNotFound, "no_table", "server: no such table")
		return
	}
	seat := game.Spectator
	if token := r.URL.Query().Get("token"); token != "" {
		ok := false
		if err := t.call(r.Context(), func() { seat, ok = t.seatOf(token) }); err != nil {
			httpError(w, http.StatusServiceUnavailable, "closed", err.Error())
			return
		}
		if !ok {
			httpError(w, http.StatusForbidden, "bad_token", "server: this seat token is not valid at this table")
			return
		}
	}
	if !s.reader() {
		httpError(w, http.StatusServiceUnavailable, "closed", "server: stopping")
		return
	}
	defer s.readers.Done()
	// The HTTP server's read and write deadlines would cut a long-lived
	// socket; heartbeats and pings watch it instead.
	rc := http.NewResponseController(w)
	rc.SetReadDeadline(time.Time{})
	rc.SetWriteDeadline(time.Time{})
	ws, err := websocket.Accept(w, r, &websocket.AcceptOptions{OriginPatterns: s.cfg.OriginPatterns})
	if err != nil {
		return // Accept has answered the request
	}
	// The socket lives until the client leaves or the server stops; the
	// request's context is not cancelled by a server shutdown.
	ctx, cancel := context.WithCancel(s.ctx)
	defer cancel()
	ws.SetReadLimit(int64(s.cfg.MaxMessage) * 16)
	c := &conn{seat: seat, out: make(chan []byte, outQueue)}
	if err := t.call(ctx, func() { t.attach(c) }); err != nil {
		ws.Close(websocket.StatusGoingAway, "table closed")
		return
	}
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

// write sends the table's messages to the socket until out is closed.
func (s *Server) write(ctx context.Context, ws *websocket.Conn, c *conn) {
	for {
		select {
		case b, ok := <-c.out:
			if !ok {
				ws.Close(websocket.StatusNormalClosure, "")
				return
			}
			wctx, cancel := context.WithTimeout(ctx, 10*time.Second)
			err := ws.Write(wctx, websocket.MessageText, b)
			cancel()
			if err != nil {
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
// sends too fast is made to wait.
func (s *Server) read(ctx context.Context, ws *websocket.Conn, t *table, c *conn) {
	lim := limiter{rate: s.cfg.Rate, burst: float64(s.cfg.Burst), tokens: float64(s.cfg.Burst), last: time.Now()}
	for {
		typ, data, err := ws.Read(ctx)
		if err != nil {
			return
		}
		if wait := lim.take(time.Now()); wait > 0 {
			if lim.warn(time.Now()) {
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
		if err != nil {
			text := err.Error()
			t.post(ctx, func() { t.sendError(c, codeBadMessage, text, m.ID) })
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

// limiter is a token bucket: rate messages per second, bursts of burst.
type limiter struct {
	rate, burst, tokens float64
	last, warned        time.Time
}

// take spends one token and returns how long the caller must wait first.
func (l *limiter) take(now time.Time) time.Duration {
	if l.rate <= 0 {
		return 0
	}
	l.tokens = min(l.burst, l.tokens+now.Sub(l.last).Seconds()*l.rate)
	l.last = now
	l.tokens--
	if l.tokens >= 0 {
		return 0
	}
	return time.Duration(-l.tokens / l.rate * float64(time.Second))
}

// warn reports whether to tell the client it is too fast: once a second
// at most.
func (l *limiter) warn(now time.Time) bool {
	if now.Sub(l.warned) < time.Second {
		return false
	}
	l.warned = now
	return true
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
