// Package cluster lets several tapis serve nodes share their tables. A
// table runs on exactly one node, its owner (a lease in the store); a
// client may reach any node, and a node that does not own the table relays
// the client's requests and WebSocket messages to the owner over NATS, and
// the owner's answers back.
//
// The relay works at the HTTP level, so the table host serves a relayed
// client exactly as a local one: the owner runs its own handler on the
// request as the relay received it (Serve), and a handler that upgrades
// the request to a WebSocket (Upgrade) gets a Socket whose messages travel
// on two NATS subjects of that one connection. Everything the owner
// sends a seat is split per seat before it leaves the table, and a
// connection's subject is read only by the relay holding that client's
// socket: no other seat's relay can read it.
//
// Subjects (ids are random, 128 bits):
//
//	tapis.node.<node>.http    a relayed request (request/reply)
//	tapis.node.<node>.alive   the node's heartbeat (request/reply)
//	tapis.conn.<id>.up        client → owner, one NATS message a WebSocket message
//	tapis.conn.<id>.down      owner → client
//	tapis.conn.<id>.ping      the owner's ping of the relay (request/reply)
//
// A request to a node that has gone fails at once: NATS answers "no
// responders" when nobody subscribes to the subject, which is how a relay
// learns that an owner died and a takeover can begin.
package cluster

import (
	"crypto/rand"
	"encoding/hex"
	"errors"
	"sync"
	"time"

	"github.com/nats-io/nats.go"
)

// ErrGone is returned by Forward when the owner does not answer: no node
// serves its subject (it died, stopped or was cut off), so nothing was sent
// to the client and the caller may take the table over and try again.
var ErrGone = errors.New("cluster: the table's node is gone")

// ErrSilent is returned by Forward when the owner did not answer within
// ForwardTimeout: it may be paused or overloaded rather than gone, so its
// lease is left to run out (a node paused past it can no longer write),
// after which any node may take the table.
var ErrSilent = errors.New("cluster: the table's node does not answer")

// ForwardTimeout bounds the owner's answer to a relayed request (a
// table's page, a join, a socket's opening, all quick on a live node).
const ForwardTimeout = 5 * time.Second

// Heartbeat is how often a relay asks each owner it relays to whether it
// is alive; an owner that misses two in a row is gone and its relayed
// sockets are closed, so that their clients reconnect to the table's next
// owner.
const Heartbeat = time.Second

// RequestTimeout bounds a relayed HTTP request, as the HTTP server's own
// write timeout bounds a local one.
const RequestTimeout = 30 * time.Second

// Node is this process's place in a cluster: its id and NATS connection,
// and the owners it relays to, watched by heartbeats.
type Node struct {
	id string
	nc *nats.Conn

	mu      sync.Mutex
	watches map[string]*watch
	subs    []*nats.Subscription
	quits   []chan struct{}
	loads   map[string]heard // the other nodes' load (nodes.go)
}

// New returns the node id on the NATS connection nc. Ids must be unique in
// the cluster; NewID makes one.
func New(nc *nats.Conn, id string) *Node {
	return &Node{id: id, nc: nc, watches: map[string]*watch{}}
}

// NewID returns a fresh random node or connection id.
func NewID() string {
	var b [16]byte
	rand.Read(b[:])
	return hex.EncodeToString(b[:])
}

// ID returns the node's id.
func (n *Node) ID() string { return n.id }

// Conn returns the node's NATS connection.
func (n *Node) Conn() *nats.Conn { return n.nc }

// Close stops serving relayed requests and heartbeats; sockets already
// relayed end when their peers notice.
func (n *Node) Close() {
	n.mu.Lock()
	subs := n.subs
	n.subs = nil
	for _, q := range n.quits {
		close(q)
	}
	n.quits = nil
	for _, w := range n.watches {
		w.stop()
	}
	n.watches = map[string]*watch{}
	n.mu.Unlock()
	for _, s := range subs {
		s.Unsubscribe()
	}
}

func httpSubject(node string) string  { return "tapis.node." + node + ".http" }
func aliveSubject(node string) string { return "tapis.node." + node + ".alive" }
func upSubject(conn string) string    { return "tapis.conn." + conn + ".up" }
func downSubject(conn string) string  { return "tapis.conn." + conn + ".down" }
func pingSubject(conn string) string  { return "tapis.conn." + conn + ".ping" }

// watch follows one owner's heartbeat for the relays to it; gone is
// closed when the owner stops answering.
type watch struct {
	users int
	gone  chan struct{}
	quit  chan struct{}
	once  sync.Once
}

func (w *watch) stop() { w.once.Do(func() { close(w.quit) }) }

// watchOwner returns a channel closed when owner stops answering its
// heartbeat, and a function to call when the caller no longer needs it.
// One heartbeat a second per owner, however many sockets go to it.
func (n *Node) watchOwner(owner string) (<-chan struct{}, func()) {
	n.mu.Lock()
	defer n.mu.Unlock()
	w := n.watches[owner]
	if w == nil {
		w = &watch{gone: make(chan struct{}), quit: make(chan struct{})}
		n.watches[owner] = w
		go n.beat(owner, w)
	}
	w.users++
	return w.gone, func() {
		n.mu.Lock()
		defer n.mu.Unlock()
		if w.users--; w.users == 0 {
			if n.watches[owner] == w {
				delete(n.watches, owner)
			}
			w.stop()
		}
	}
}

// beat asks owner whether it is alive every Heartbeat until told to stop;
// "no responders" (the node is not on NATS) or two missed answers close
// gone.
func (n *Node) beat(owner string, w *watch) {
	tick := time.NewTicker(Heartbeat)
	defer tick.Stop()
	missed := 0
	for {
		select {
		case <-w.quit:
			return
		case <-tick.C:
		}
		_, err := n.nc.Request(aliveSubject(owner), nil, Heartbeat)
		switch {
		case err == nil:
			missed = 0
			continue
		case errors.Is(err, nats.ErrNoResponders):
			missed = 2
		default:
			missed++
		}
		if missed >= 2 {
			close(w.gone)
			n.mu.Lock()
			if n.watches[owner] == w {
				delete(n.watches, owner)
			}
			n.mu.Unlock()
			return
		}
	}
}
