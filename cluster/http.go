package cluster

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"

	"github.com/coder/websocket"
	"github.com/nats-io/nats.go"
)

// request is an HTTP request as it travels from a relay to the owner.
type request struct {
	Method string      `json:"method"`
	URL    string      `json:"url"` // path and query
	Host   string      `json:"host"`
	Header http.Header `json:"header"`
	// Remote is the RemoteAddr the relay's server saw: the owner's limits
	// and trusted-proxy rules then see the client the relay saw.
	Remote string `json:"remote"`
	Body   []byte `json:"body,omitempty"`
	// Conn is the id of the WebSocket tunnel the relay has prepared, for
	// a request that asks for one ("" otherwise).
	Conn string `json:"conn,omitempty"`
}

// response is the owner's answer: an HTTP response, or Upgraded when the
// owner took the WebSocket, whose messages then travel on Conn's subjects.
type response struct {
	Status   int         `json:"status"`
	Header   http.Header `json:"header,omitempty"`
	Body     []byte      `json:"body,omitempty"`
	Upgraded bool        `json:"upgraded,omitempty"`
}

// maxBody bounds a relayed request's body: NATS carries a message of 1 MB
// at most by default, and the server's own limits are far below it.
const maxBody = 512 << 10

// Serve answers the requests relayed to this node with h, and its
// heartbeat, until Close.
func (n *Node) Serve(h http.Handler) error {
	alive, err := n.nc.Subscribe(aliveSubject(n.id), func(m *nats.Msg) { m.Respond(nil) })
	if err != nil {
		return fmt.Errorf("cluster: %v", err)
	}
	relayed, err := n.nc.Subscribe(httpSubject(n.id), func(m *nats.Msg) { go n.serveOne(h, m) })
	if err != nil {
		alive.Unsubscribe()
		return fmt.Errorf("cluster: %v", err)
	}
	n.mu.Lock()
	n.subs = append(n.subs, alive, relayed)
	n.mu.Unlock()
	// Once Serve returns, the node is reachable: a request relayed by
	// another node's connection right after (a table just taken here)
	// must not find no responder, which reads as this node gone. The
	// round trip makes the server hold both subscriptions first.
	if err := n.nc.Flush(); err != nil {
		return fmt.Errorf("cluster: %v", err)
	}
	return nil
}

// serveOne runs h on one relayed request and answers it, unless h took a
// WebSocket (Upgrade has answered then).
func (n *Node) serveOne(h http.Handler, m *nats.Msg) {
	var req request
	if err := json.Unmarshal(m.Data, &req); err != nil {
		respond(m, response{Status: http.StatusBadRequest, Body: []byte("cluster: a relayed request that is not JSON\n")})
		return
	}
	ctx, cancel := context.WithTimeout(context.Background(), RequestTimeout)
	defer cancel()
	r, err := http.NewRequestWithContext(ctx, req.Method, req.URL, bytes.NewReader(req.Body))
	if err != nil {
		respond(m, response{Status: http.StatusBadRequest, Body: []byte("cluster: " + err.Error() + "\n")})
		return
	}
	r.Header, r.Host, r.RemoteAddr = req.Header, req.Host, req.Remote
	if r.Header == nil {
		r.Header = http.Header{}
	}
	r.RequestURI = req.URL
	w := &relayWriter{node: n, msg: m, conn: req.Conn, header: http.Header{}}
	h.ServeHTTP(w, r)
	if !w.upgraded {
		w.finish()
	}
}

func respond(m *nats.Msg, res response) {
	b, _ := json.Marshal(res)
	m.Respond(b)
}

// relayWriter is the http.ResponseWriter of a relayed request: it keeps
// the answer and sends it back when the handler returns.
type relayWriter struct {
	node     *Node
	msg      *nats.Msg
	conn     string
	header   http.Header
	status   int
	body     bytes.Buffer
	upgraded bool
}

func (w *relayWriter) Header() http.Header { return w.header }

func (w *relayWriter) WriteHeader(status int) {
	if w.status == 0 {
		w.status = status
	}
}

func (w *relayWriter) Write(b []byte) (int, error) {
	w.WriteHeader(http.StatusOK)
	if w.body.Len()+len(b) > maxBody {
		return 0, errors.New("cluster: a relayed answer is too large")
	}
	return w.body.Write(b)
}

func (w *relayWriter) finish() {
	w.WriteHeader(http.StatusOK)
	respond(w.msg, response{Status: w.status, Header: w.header, Body: w.body.Bytes()})
}

// Upgrade accepts a WebSocket: the client's own socket for a local
// request, a relayed one for a request that came over NATS. Like
// websocket.Accept, it answers the request itself when it fails.
func Upgrade(w http.ResponseWriter, r *http.Request, opts *websocket.AcceptOptions) (Socket, error) {
	rw, ok := w.(*relayWriter)
	if !ok {
		ws, err := websocket.Accept(w, r, opts)
		if err != nil {
			return nil, err
		}
		return ws, nil
	}
	if rw.conn == "" {
		http.Error(w, "cluster: the relay did not prepare a WebSocket", http.StatusBadRequest)
		return nil, errors.New("cluster: a relayed request without a tunnel")
	}
	s, err := openRemote(rw.node, rw.conn)
	if err != nil {
		http.Error(w, err.Error(), http.StatusServiceUnavailable)
		return nil, err
	}
	rw.upgraded = true
	respond(rw.msg, response{Status: http.StatusSwitchingProtocols, Upgraded: true})
	return s, nil
}

// Forward relays r to owner and writes the owner's answer to w. A request
// for a WebSocket is answered by accepting the client's socket here and
// relaying its messages both ways until either end closes it or the owner
// is gone. It returns ErrGone, having written nothing and with r's body
// still to read, when the owner does not answer; other errors have been
// answered to the client already.
func (n *Node) Forward(w http.ResponseWriter, r *http.Request, owner string, opts *websocket.AcceptOptions) error {
	body, err := io.ReadAll(io.LimitReader(r.Body, maxBody+1))
	if err != nil || len(body) > maxBody {
		http.Error(w, "cluster: the request's body is too large or broken", http.StatusRequestEntityTooLarge)
		return nil
	}
	req := request{Method: r.Method, URL: r.URL.RequestURI(), Host: r.Host, Header: r.Header, Remote: r.RemoteAddr, Body: body}
	var t *tunnel
	if isWebSocket(r) {
		// The tunnel listens before the owner can say anything: the
		// owner's first messages (the table, its state) follow its 101 at
		// once.
		if t, err = n.newTunnel(owner); err != nil {
			http.Error(w, err.Error(), http.StatusServiceUnavailable)
			return nil
		}
		req.Conn = t.id
	}
	b, _ := json.Marshal(req)
	ctx, cancel := context.WithTimeout(r.Context(), ForwardTimeout)
	defer cancel()
	m, err := n.nc.RequestWithContext(ctx, httpSubject(owner), b)
	if err != nil {
		if t != nil {
			t.close()
		}
		silent := errors.Is(err, context.DeadlineExceeded) && r.Context().Err() == nil
		if errors.Is(err, nats.ErrNoResponders) || silent {
			// The body is put back, so that the caller may serve the
			// request itself once it has taken the table over.
			r.Body = io.NopCloser(bytes.NewReader(body))
			if silent {
				return ErrSilent
			}
			return ErrGone
		}
		http.Error(w, "cluster: the table's node did not answer: "+err.Error(), http.StatusGatewayTimeout)
		return nil
	}
	var res response
	if err := json.Unmarshal(m.Data, &res); err != nil {
		if t != nil {
			t.close()
		}
		http.Error(w, "cluster: the table's node answered nonsense", http.StatusBadGateway)
		return nil
	}
	if !res.Upgraded {
		if t != nil {
			t.close()
		}
		for k, v := range res.Header {
			w.Header()[k] = v
		}
		w.WriteHeader(res.Status)
		w.Write(res.Body)
		return nil
	}
	if t == nil {
		http.Error(w, "cluster: the table's node upgraded a plain request", http.StatusBadGateway)
		return nil
	}
	t.relay(w, r, opts)
	return nil
}

func isWebSocket(r *http.Request) bool {
	return r.Method == http.MethodGet && headerHas(r.Header, "Connection", "upgrade") && headerHas(r.Header, "Upgrade", "websocket")
}

// headerHas reports whether a comma-separated header holds token, ignoring
// case.
func headerHas(h http.Header, key, token string) bool {
	for _, v := range h.Values(key) {
		for _, part := range bytes.Split([]byte(v), []byte(",")) {
			if bytes.EqualFold(bytes.TrimSpace(part), []byte(token)) {
				return true
			}
		}
	}
	return false
}
