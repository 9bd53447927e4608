package server_test

import (
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/coder/websocket"

	"tapis/game"
	"tapis/server"
	"tapis/server/servertest"
	"tapis/store"
)

// harness is a real server on a loopback port: a servertest.Server under
// the names these tests use.
type harness struct {
	s     *servertest.Server
	t     testing.TB
	store store.Store
	hs    *httptest.Server
}

func quietLogger() *slog.Logger { return slog.New(slog.NewTextHandler(io.Discard, nil)) }

// newHarness starts a server as servertest.New does: cfg.Store defaults
// to a memory store, bots move at once, and seeds count up from 1 so that
// games are reproducible.
func newHarness(t testing.TB, cfg server.Config) *harness {
	t.Helper()
	s := servertest.New(t, cfg)
	return &harness{s: s, t: t, store: s.Store, hs: s.HTTP}
}

// testConfig is a server for tests that are not about limits:
// servertest.Unlimited.
func testConfig() server.Config { return servertest.Unlimited() }

// stop cancels the server's tables and closes its listener.
func (h *harness) stop() { h.s.Close() }

type seatResp = servertest.Seat

// post sends JSON and decodes the answer; it returns the status code.
func (h *harness) post(path string, body any, out any) int {
	h.t.Helper()
	return h.s.Post(path, body, out)
}

// create makes a table; bots[i] == "" is a human seat, the creator
// (named name, when not empty) takes the first.
func (h *harness) create(gameName string, bots []string, name string, opts string) seatResp {
	h.t.Helper()
	return h.s.Create(gameName, bots, name, opts)
}

func (h *harness) join(table, name string) seatResp {
	h.t.Helper()
	return h.s.Join(table, name)
}

// info is a table as GET /api/tables/{id} gives it.
type info = servertest.TableInfo

func (h *harness) info(table string) info {
	h.t.Helper()
	return h.s.Info(table)
}

// client is a servertest.Client under the names these tests use: its
// socket, its messages not yet taken, and done, closed with the socket.
type client struct {
	*servertest.Client
	t    testing.TB
	ws   *websocket.Conn
	msgs <-chan []byte
	done <-chan struct{}
}

func (h *harness) client(c *servertest.Client) *client {
	return &client{Client: c, t: h.t, ws: c.Conn, msgs: c.Msgs(), done: c.Done()}
}

func (h *harness) dial(table, token string) *client {
	h.t.Helper()
	return h.client(h.s.Dial(table, token))
}

func (h *harness) tryDial(table, token string) (*client, error) {
	c, err := h.s.TryDial(table, token)
	if err != nil {
		return nil, err
	}
	return h.client(c), nil
}

// wrap makes a client of an open WebSocket.
func (h *harness) wrap(ws *websocket.Conn) *client { return h.client(h.s.Wrap(ws)) }

func (c *client) send(v any) {
	c.t.Helper()
	c.Send(v)
}

// msg is any server message, decoded loosely.
type msg = servertest.Msg

// next returns the next message of one of the types (any type if none),
// skipping others; it fails the test after a timeout.
func (c *client) next(types ...string) msg {
	c.t.Helper()
	return c.Next(types...)
}

// nextE is next for other goroutines than the test's: it returns errors.
func (c *client) nextE(types ...string) (msg, error) { return c.NextE(types...) }

// sendE is send for other goroutines than the test's.
func (c *client) sendE(v any) error { return c.SendE(v) }

// messages returns a copy of every message received so far.
func (c *client) messages() [][]byte { return c.Messages() }

// infoMsg is a message read with its table's seats and time per move, or
// its move and the time left: a servertest.TableMsg with seat.
type infoMsg struct{ servertest.TableMsg }

// seatView is a seat as the table's info shows it.
type seatView = servertest.SeatView

// seat returns seat s of a "welcome" or "table" message, and whether the
// message is one.
func (m infoMsg) seat(s game.Seat) (seatView, bool) { return m.SeatAt(s) }

// infoOf adapts f to the servertest.TableMsg it is handed.
func infoOf[R any](f func(infoMsg) R) func(servertest.TableMsg) R {
	return func(m servertest.TableMsg) R { return f(infoMsg{m}) }
}

// read returns c's next message, or false once d has passed.
func (c *client) read(d time.Duration) (infoMsg, bool) {
	c.t.Helper()
	m, ok := c.Read(d)
	return infoMsg{m}, ok
}

// watch reads c's messages, handing each to f, until f returns true; it
// fails the test if that takes 20s.
func (c *client) watch(what string, f func(infoMsg) bool) infoMsg {
	c.t.Helper()
	return infoMsg{c.Watch(what, infoOf(f))}
}

// within is watch with a ceiling of d.
func (c *client) within(d time.Duration, what string, f func(infoMsg) bool) infoMsg {
	c.t.Helper()
	return infoMsg{c.Within(d, what, infoOf(f))}
}

// quiet hands f every message c receives for d: the time a thing that
// must not happen is given to happen.
func (c *client) quiet(d time.Duration, f func(infoMsg)) {
	c.t.Helper()
	c.Quiet(d, func(m servertest.TableMsg) { f(infoMsg{m}) })
}

// presenceWait is how long these tests wait for what must come.
const presenceWait = servertest.Patience

// playRandom plays seat's moves at random from the legal moves the server
// sends, until the match is over or stopAt moves have been applied. It
// returns the last state seen.
func playRandom(c *client, seat game.Seat, seed uint64, stopAt int) (msg, error) {
	return servertest.PlayRandom(c.Client, seat, seed, stopAt)
}

// eventually waits for cond, within a generous ceiling.
func eventually(t *testing.T, what string, cond func() bool) {
	t.Helper()
	servertest.Eventually(t, what, cond)
}

// person is a browser as the server sees it: its own cookie jar, so its
// own session.
type person struct {
	h *harness
	c *http.Client
}

func (h *harness) person() *person {
	p := h.s.Person()
	return &person{h: h, c: p.HTTP}
}

// as is p as a servertest.Person.
func (p *person) as() *servertest.Person { return &servertest.Person{Server: p.h.s, HTTP: p.c} }

// do sends a request (JSON body if body is not nil) with headers, decodes
// the answer into out and returns the status.
func (p *person) do(method, path string, body, out any, headers ...string) int {
	p.h.t.Helper()
	return p.as().Do(method, path, body, out, headers...)
}

// must is do that fails the test unless the answer has status want.
func (p *person) must(want int, method, path string, body, out any) {
	p.h.t.Helper()
	p.as().Must(want, method, path, body, out)
}

// dial opens the table's WebSocket with the person's cookies and no token.
func (p *person) dial(table string) *client {
	p.h.t.Helper()
	return p.h.client(p.as().Dial(table))
}

// signedUp makes a person with a guest session named name and, unless
// username is "", a claimed username. It returns the person and their id.
func signedUp(h *harness, name, username string) (*person, string) {
	p, id := h.s.SignUp(name, username)
	return &person{h: h, c: p.HTTP}, id
}

// playRated has ada play a rated Cabo table against a random bot to its
// end, and returns the table.
func playRated(t *testing.T, h *harness, ada *person) string {
	t.Helper()
	return servertest.PlayRated(t, ada.as())
}

// ratedInfo is a rated table's info.
type ratedInfo = servertest.TableInfo

// turnOf reads a table's time per move through the API.
func turnOf(t *testing.T, p *person, table string) int {
	t.Helper()
	return p.as().Info(table).TurnSeconds
}

// roundsState is the part of a "state" message the score sheet reads.
type roundsState = servertest.Sheet

// nextRounds returns c's next "state" message, failing on an "error".
func nextRounds(c *client) (roundsState, error) { return c.NextSheet() }
