package cluster

import (
	"encoding/json"
	"time"

	"github.com/nats-io/nats.go"
)

// Who is online, cluster-wide (issue 29, the friends list): each node
// knows the sockets open to its own tables (a relayed socket is counted
// by the table's owner), so a question of who is online is asked of
// every node on onlineSubject and the answers are joined. Nothing is
// kept between questions: a node that died simply stops answering.
const onlineSubject = "tapis.online"

// OnlineTimeout bounds the wait for the other nodes' answers; a node
// that has not answered by then counts nobody online.
const OnlineTimeout = 250 * time.Millisecond

// Local is what one node knows of who is online: its own sockets (the
// table host).
type Local interface {
	Online(players []string) map[string]bool
}

// Presence says who is online anywhere in the cluster (friend.Presence).
type Presence struct {
	n     *Node
	local Local
}

// ServePresence answers the other nodes' questions about who is online
// with local, until Close, and returns the cluster's Presence, which
// asks them all.
func (n *Node) ServePresence(local Local) (*Presence, error) {
	sub, err := n.nc.Subscribe(onlineSubject, func(m *nats.Msg) {
		var q onlineQuestion
		if json.Unmarshal(m.Data, &q) != nil || q.Node == n.id || m.Reply == "" {
			return
		}
		var a onlineAnswer
		a.Node = n.id
		for p, on := range local.Online(q.Players) {
			if on {
				a.Online = append(a.Online, p)
			}
		}
		b, _ := json.Marshal(a)
		m.Respond(b)
	})
	if err != nil {
		return nil, err
	}
	n.mu.Lock()
	n.subs = append(n.subs, sub)
	n.mu.Unlock()
	return &Presence{n: n, local: local}, nil
}

type onlineQuestion struct {
	Node    string   `json:"node"`
	Players []string `json:"players"`
}

type onlineAnswer struct {
	Node   string   `json:"node"`
	Online []string `json:"online"`
}

// Online reports which of players have a socket open to a table of any
// node: this node's own answer, joined with every other node's that
// comes within OnlineTimeout. It waits for the nodes heard from lately
// (their load, Announce) and no longer, so that it takes one round trip
// on a healthy cluster; a node started less than a heartbeat ago may not
// be asked yet.
func (p *Presence) Online(players []string) map[string]bool {
	out := p.local.Online(players)
	if out == nil {
		out = map[string]bool{}
	}
	n := p.n
	expect := n.others()
	if len(players) == 0 || expect == 0 {
		return out // alone, as far as this node has heard
	}
	inbox := n.nc.NewRespInbox()
	answers := make(chan *nats.Msg, 16)
	sub, err := n.nc.ChanSubscribe(inbox, answers)
	if err != nil {
		return out
	}
	defer sub.Unsubscribe()
	q, _ := json.Marshal(onlineQuestion{Node: n.id, Players: players})
	if err := n.nc.PublishRequest(onlineSubject, inbox, q); err != nil {
		return out
	}
	heard := map[string]bool{}
	timeout := time.NewTimer(OnlineTimeout)
	defer timeout.Stop()
	for len(heard) < expect {
		select {
		case m := <-answers:
			var a onlineAnswer
			if json.Unmarshal(m.Data, &a) != nil {
				continue
			}
			heard[a.Node] = true
			for _, id := range a.Online {
				out[id] = true
			}
		case <-timeout.C:
			return out
		}
	}
	return out
}

// others counts the other nodes heard from lately (Announce, which every
// node of a cluster runs).
func (n *Node) others() int {
	n.mu.Lock()
	defer n.mu.Unlock()
	c := 0
	for id, h := range n.loads {
		if id != n.id && time.Since(h.at) <= loadFresh {
			c++
		}
	}
	return c
}
