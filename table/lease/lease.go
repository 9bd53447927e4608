// Package lease is the table host's ownership of its tables in a cluster
// (package server's Config.Cluster): a table is loaded on one node only: the
// one holding its lease in the store (store.Leases), which renews it every
// third of Config.TTL. Every other node relays the table's requests
// and sockets to that owner over NATS (package cluster). The owner's
// writes of a match (seats, starts, moves, ends) are fenced by the lease's
// epoch, in the same statement as the write: a node that lost its lease,
// however late it learns it (paused, cut off), can never write again.
//
// A table whose owner has gone (NATS answers "no responders": the process
// died or was cut off) is taken over at once, not after its lease runs
// out: fencing makes it safe, since the old owner could no longer write.
// A node that loses NATS stops acting for its tables, closing their
// sockets, so that their clients reconnect through a node that can reach
// the rest of the cluster.
package lease

import (
	"context"
	"errors"
	"log/slog"
	"maps"
	"net/http"
	"slices"
	"sync"
	"time"

	"github.com/coder/websocket"
	"github.com/nats-io/nats.go"

	"tapis/api"
	"tapis/cluster"
	"tapis/metrics"
	"tapis/store"
)

// Config sets up an Owner. Every field is required but Logger and
// Metrics.
type Config struct {
	Node   *cluster.Node
	Leases store.Leases
	// TTL is how long a lease lasts unless renewed.
	TTL time.Duration
	// OriginPatterns are the other origins allowed to open a WebSocket,
	// checked again when a socket is relayed.
	OriginPatterns []string
	Logger         *slog.Logger
	Metrics        *metrics.Metrics
	// Store reads a table again (StillDue).
	Store interface {
		Load(ctx context.Context, table string) (store.Saved, error)
	}
	// Due reports whether a table summarised as sm is due to close now
	// (the host's lifecycle).
	Due func(sm store.Summary) bool
	// Forget drops what the host remembers of table id that is not its
	// own: a dormant summary read before another node played on.
	Forget func(id string)
	// HandOver stops table id on this node, its lease lost for why: its
	// sockets close with "reconnecting", and nothing of it stays here.
	HandOver func(id, why string)
	// Wait returns once the host's tables have written their last moves
	// (Stop gives the leases back then).
	Wait func()
	// Hear is what this node does when any node says something on a
	// subject (Everywhere).
	Hear map[string]func(msg []byte)
}

// Owner is the ownership of a node of a cluster: what it knows of the
// tables' leases.
type Owner struct {
	cfg    Config
	ctx    context.Context
	log    *slog.Logger
	node   *cluster.Node
	leases store.Leases
	ttl    time.Duration

	mu   sync.Mutex
	held map[string]store.Lease // the tables this node holds
	// others is what this node last read of other nodes' leases, for
	// holderFor (recent).
	others map[string]seenHolder
	cut    bool // NATS is unreachable: act for nothing
}

// New returns the ownership of this node of cfg.Node's cluster; ctx is
// the host's life.
func New(ctx context.Context, cfg Config) *Owner {
	if cfg.Logger == nil {
		cfg.Logger = slog.Default()
	}
	return &Owner{cfg: cfg, ctx: ctx, log: cfg.Logger, node: cfg.Node, leases: cfg.Leases, ttl: cfg.TTL, held: map[string]store.Lease{}}
}

// relayedHeader marks a request one node relayed to another, so that it
// is never relayed again: ownership may move while it travels, and the
// client should rather try again than have its request go round.
const relayedHeader = "Tapis-Relayed"

// lease returns the lease this node holds on table id, if any.
func (o *Owner) lease(id string) (store.Lease, bool) {
	o.mu.Lock()
	defer o.mu.Unlock()
	l, ok := o.held[id]
	return l, ok
}

func (o *Owner) hold(l store.Lease) {
	o.mu.Lock()
	o.held[l.Table] = l
	o.mu.Unlock()
}

func (o *Owner) isCut() bool {
	o.mu.Lock()
	defer o.mu.Unlock()
	return o.cut
}

// owner returns "" when this node owns table id, having taken its lease
// if it was free (or, with takeover, its holder gone), or the id of the
// node that does. fresh says the lease was just taken: what this node
// remembered of the table may be stale.
func (o *Owner) owner(ctx context.Context, id string, gone *store.Lease) (node string, fresh bool, err error) {
	if _, ok := o.lease(id); ok {
		return "", false, nil
	}
	if gone == nil {
		// Another node's table, asked again within a moment: no round
		// trip to the store per request (a page's polls, a crowd of
		// spectators).
		if h, ok := o.recent(id); ok {
			return "", false, &store.LeaseHeldError{Holder: h}
		}
	}
	var l store.Lease
	if gone != nil {
		l, err = o.leases.Take(ctx, id, o.node.ID(), *gone, o.ttl)
	} else {
		l, err = o.leases.Acquire(ctx, id, o.node.ID(), o.ttl)
	}
	var held *store.LeaseHeldError
	switch {
	case err == nil:
		o.hold(l)
		return "", true, nil
	case errors.As(err, &held):
		o.remember(held.Holder)
	}
	return "", false, err
}

// holderFor is how long a node trusts what it read of another node's
// lease before reading it again; a relay to a gone node fails at once
// whatever it read (ErrGone), and forgets it.
const holderFor = time.Second

// maxHolders bounds the leases of others a node remembers; past it, it
// forgets them all.
const maxHolders = 1 << 14

type seenHolder struct {
	l  store.Lease
	at time.Time
}

func (o *Owner) recent(id string) (store.Lease, bool) {
	o.mu.Lock()
	defer o.mu.Unlock()
	h, ok := o.others[id]
	if !ok || time.Since(h.at) > holderFor {
		return store.Lease{}, false
	}
	return h.l, true
}

func (o *Owner) remember(l store.Lease) {
	o.mu.Lock()
	defer o.mu.Unlock()
	if o.others == nil || len(o.others) >= maxHolders {
		o.others = map[string]seenHolder{}
	}
	o.others[l.Table] = seenHolder{l: l, at: time.Now()}
}

func (o *Owner) forgetHolder(id string) {
	o.mu.Lock()
	delete(o.others, id)
	o.mu.Unlock()
}

// OwnerOf is owner without takeover.
func (o *Owner) OwnerOf(ctx context.Context, id string) (string, bool, error) {
	node, fresh, err := o.owner(ctx, id, nil)
	var held *store.LeaseHeldError
	if errors.As(err, &held) {
		return held.Holder.Node, false, nil
	}
	return node, fresh, err
}

// Owned serves a table's request here if this node owns the table or
// can take it, and relays it to the owner otherwise.
func (o *Owner) Owned(h http.HandlerFunc) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		id := r.PathValue("id")
		if o.isCut() {
			api.Error(w, http.StatusServiceUnavailable, api.CodeCluster, "server: this node has lost the cluster; try again")
			return
		}
		relayed := r.Header.Get(relayedHeader) != ""
		var gone *store.Lease
		for try := 0; try < 4; try++ {
			node, fresh, err := o.owner(r.Context(), id, gone)
			if fresh {
				// Whatever this node remembered of the table is stale
				// now: the store has what its last owner wrote.
				o.cfg.Forget(id)
			}
			var held *store.LeaseHeldError
			switch {
			case errors.As(err, &held):
			case errors.Is(err, store.ErrNotFound):
				// No such table: the handler says so, as on one node.
				h(w, r)
				return
			case err != nil:
				o.log.Error("lease", "table", id, "err", err)
				api.Error(w, http.StatusServiceUnavailable, api.CodeCluster, "server: the table's owner could not be found; try again")
				return
			case node == "":
				h(w, r)
				return
			}
			if relayed {
				api.Error(w, http.StatusServiceUnavailable, api.CodeCluster, "server: the table has just moved; try again")
				return
			}
			r.Header.Set(relayedHeader, o.node.ID())
			err = o.node.Forward(w, r, held.Holder.Node, &websocket.AcceptOptions{OriginPatterns: o.cfg.OriginPatterns})
			r.Header.Del(relayedHeader)
			o.forgetHolder(id)
			if errors.Is(err, cluster.ErrSilent) {
				// Paused or swamped: its lease runs out if it is not
				// renewed, and the next round takes the table then.
				gone = nil
				continue
			}
			if !errors.Is(err, cluster.ErrGone) {
				return
			}
			// Its node answers nothing: it died or is cut off, and the
			// table is taken from it now rather than when its lease
			// runs out (fencing keeps the gone node from writing).
			gone = &held.Holder
		}
		api.Error(w, http.StatusServiceUnavailable, api.CodeCluster, "server: the table's node is not answering; try again")
	}
}

// Balanced makes a new table on the least loaded node of the cluster
// (cluster.Node.Least), relaying the request there; when this one is as
// little loaded as any, it is h.
func (o *Owner) Balanced(h http.HandlerFunc) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		if r.Header.Get(relayedHeader) == "" {
			if to := o.node.Least(o.load()); to != o.node.ID() {
				r.Header.Set(relayedHeader, o.node.ID())
				err := o.node.Forward(w, r, to, nil)
				r.Header.Del(relayedHeader)
				if !errors.Is(err, cluster.ErrGone) {
					return
				}
			}
		}
		h(w, r)
	}
}

// Start serves the requests other nodes relay here, renews this node's
// leases, hears the other nodes' reseats and revocations, and tells them
// this node's load.
func (o *Owner) Start(relay http.Handler) error {
	if err := o.node.Serve(relay); err != nil {
		return err
	}
	go o.renew()
	for subject, hear := range o.cfg.Hear {
		if _, err := o.node.Conn().Subscribe(subject, func(m *nats.Msg) { hear(m.Data) }); err != nil {
			return err
		}
	}
	if err := o.node.Announce(o.load); err != nil {
		return err
	}
	// Cut off from NATS, the node can neither relay nor be reached:
	// it stops acting for its tables until it is back.
	nc := o.node.Conn()
	nc.SetDisconnectErrHandler(func(*nats.Conn, error) { o.cutOff() })
	nc.SetReconnectHandler(func(*nats.Conn) { o.rejoined() })
	return nil
}

// Stop gives the leases back once the tables have written their last
// moves, so that other nodes take them over now rather than when the
// leases run out.
func (o *Owner) Stop() {
	o.cfg.Wait()
	o.mu.Lock()
	ids := slices.Collect(maps.Keys(o.held))
	o.mu.Unlock()
	for _, id := range ids {
		o.Release(id)
	}
	// Until now this node answered the requests relayed to it (a
	// stopping server refuses new sockets); from now on they fail at
	// once, and the tables it had are free for any node.
	o.node.Close()
}

// StillDue reports whether dormant table sm is due to close as the store
// has it now: another node may have played the table since this one read
// its summary.
func (o *Owner) StillDue(ctx context.Context, sm store.Summary) bool {
	sv, err := o.cfg.Store.Load(ctx, sm.ID)
	if err != nil {
		return false
	}
	if sv.Closed != store.NotClosed || (sv.Match != nil && sv.Match.Over) {
		return false
	}
	sm.Active, sm.Started = sv.Active, sv.Match != nil
	return o.cfg.Due(sm)
}

// load is how many tables this node runs: the leases it holds.
func (o *Owner) load() int {
	o.mu.Lock()
	defer o.mu.Unlock()
	return len(o.held)
}

// Writer returns where table id writes its matches: the store fenced by
// this node's lease.
func (o *Owner) Writer(id string) store.TableWriter {
	l, _ := o.lease(id)
	return o.cfg.Metrics.Writer(o.leases.Fenced(l))
}

// renew keeps this node's leases alive until the server stops, all in one
// statement (store.Leases.RenewAll); a lease that was not renewed is lost,
// and its table stops here at once.
func (o *Owner) renew() {
	tick := time.NewTicker(o.ttl / 3)
	defer tick.Stop()
	for {
		select {
		case <-o.ctx.Done():
			return
		case <-tick.C:
		}
		o.mu.Lock()
		before := maps.Clone(o.held)
		o.mu.Unlock()
		if len(before) == 0 {
			continue
		}
		ctx, cancel := context.WithTimeout(o.ctx, o.ttl/3)
		renewed, err := o.leases.RenewAll(ctx, o.node.ID(), o.ttl)
		cancel()
		if err != nil {
			if o.ctx.Err() == nil {
				o.log.Warn("renew leases", "err", err)
			}
			continue
		}
		kept := make(map[string]bool, len(renewed))
		o.mu.Lock()
		for _, l := range renewed {
			if h, ok := o.held[l.Table]; ok && h.Epoch == l.Epoch {
				o.held[l.Table] = l
				kept[l.Table] = true
			}
		}
		o.mu.Unlock()
		for id, l := range before {
			if !kept[id] {
				// Held when the renewal began and not renewed: lost,
				// unless this node let it go meanwhile.
				if cur, ok := o.lease(id); ok && cur.Epoch == l.Epoch {
					o.Disown(id, "lost its lease")
				}
			}
		}
	}
}

// Disown stops table id here: its sockets are closed with "reconnecting"
// (their clients come back through whichever node owns it next), and
// nothing of it stays in this node's memory.
func (o *Owner) Disown(id, why string) {
	o.mu.Lock()
	delete(o.held, id)
	o.mu.Unlock()
	o.cfg.HandOver(id, why)
}

// Release gives table id's lease back at once (the table went to sleep,
// or the node stops), so that the next node need not wait for it to run
// out.
func (o *Owner) Release(id string) {
	o.mu.Lock()
	l, ok := o.held[id]
	delete(o.held, id)
	o.mu.Unlock()
	if !ok {
		return
	}
	ctx, cancel := context.WithTimeout(context.WithoutCancel(o.ctx), o.ttl)
	defer cancel()
	if err := o.leases.Release(ctx, l); err != nil && !errors.Is(err, store.ErrLeaseLost) {
		o.log.Warn("release lease", "table", id, "err", err)
	}
}

// cutOff is called when NATS is lost: this node acts for none of its
// tables until it is back.
func (o *Owner) cutOff() {
	o.mu.Lock()
	o.cut = true
	held := maps.Clone(o.held)
	o.mu.Unlock()
	for id, l := range held {
		o.Disown(id, "lost the cluster")
		// The store may still be reachable: the lease is given back, so
		// that a node that can reach the cluster takes the table at once.
		ctx, cancel := context.WithTimeout(context.WithoutCancel(o.ctx), o.ttl)
		o.leases.Release(ctx, l)
		cancel()
	}
}

func (o *Owner) rejoined() {
	o.mu.Lock()
	o.cut = false
	o.mu.Unlock()
}

// Everywhere publishes msg on subject to every node, this one included;
// if it cannot, this node alone acts on it (here).
func (o *Owner) Everywhere(subject string, msg []byte, here func()) {
	if err := o.node.Conn().Publish(subject, msg); err != nil {
		o.log.Error("tell the cluster", "subject", subject, "err", err)
		here()
	}
}
