package cluster

import (
	"encoding/json"
	"time"

	"github.com/nats-io/nats.go"
)

// Every node tells the others its load (the tables it runs) every
// Heartbeat on loadSubject, and keeps what it hears: new tables go to the
// least loaded node that spoke within loadFresh. A node that stops
// speaking (dead, cut off) drops out of the choice by itself, with nothing
// to deregister.
const (
	loadSubject = "tapis.nodes.load"
	loadFresh   = 3 * Heartbeat
)

type loadNote struct {
	Node   string `json:"node"`
	Tables int    `json:"tables"`
}

type heard struct {
	tables int
	at     time.Time
}

// Announce starts telling the cluster this node's load, as load counts
// it, and listening to the others', until Close.
func (n *Node) Announce(load func() int) error {
	sub, err := n.nc.Subscribe(loadSubject, func(m *nats.Msg) {
		var note loadNote
		if json.Unmarshal(m.Data, &note) != nil || note.Node == "" {
			return
		}
		n.mu.Lock()
		if n.loads == nil {
			n.loads = map[string]heard{}
		}
		n.loads[note.Node] = heard{tables: note.Tables, at: time.Now()}
		n.mu.Unlock()
	})
	if err != nil {
		return err
	}
	quit := make(chan struct{})
	n.mu.Lock()
	n.subs = append(n.subs, sub)
	n.quits = append(n.quits, quit)
	n.mu.Unlock()
	tell := func() {
		b, _ := json.Marshal(loadNote{Node: n.id, Tables: load()})
		n.nc.Publish(loadSubject, b)
	}
	tell()
	go func() {
		tick := time.NewTicker(Heartbeat)
		defer tick.Stop()
		for {
			select {
			case <-quit:
				return
			case <-tick.C:
				tell()
			}
		}
	}()
	return nil
}

// Least returns where a new table should go: the least loaded node heard
// from lately, if it runs clearly fewer tables than this one (own), or
// this one. "Clearly": fewer than own less a tenth and one more, so that
// tables made evenly on every node (a load balancer's round robin) stay
// where their request came, and only an uneven share moves. A node chosen
// is counted one table busier until it speaks again, so that a burst of
// new tables does not all go to the node that was idle a second ago.
func (n *Node) Least(own int) string {
	n.mu.Lock()
	defer n.mu.Unlock()
	best, least := n.id, own-own/10-1
	for id, h := range n.loads {
		if id == n.id || time.Since(h.at) > loadFresh {
			continue
		}
		if h.tables < least {
			best, least = id, h.tables
		}
	}
	if best != n.id {
		h := n.loads[best]
		h.tables++
		n.loads[best] = h
	}
	return best
}
