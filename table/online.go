package table

import "sync"

// Who is online (issue 29, the friends list): the signed-in players with
// a socket open to a table of this node. In a cluster each node knows its
// own sockets only, and cluster.Presence asks every node.

// online counts the open sockets of each signed-in player.
type online struct {
	mu sync.Mutex
	n  map[string]int
}

// add counts one more socket of player (-1: one fewer); "" is nobody.
func (o *online) add(player string, d int) {
	if player == "" {
		return
	}
	o.mu.Lock()
	defer o.mu.Unlock()
	if o.n == nil {
		o.n = map[string]int{}
	}
	if o.n[player] += d; o.n[player] <= 0 {
		delete(o.n, player)
	}
}

// Online reports which of players have a socket open to a table of this
// node (friend.Presence).
func (s *Host) Online(players []string) map[string]bool {
	s.online.mu.Lock()
	defer s.online.mu.Unlock()
	out := make(map[string]bool, len(players))
	for _, p := range players {
		if s.online.n[p] > 0 {
			out[p] = true
		}
	}
	return out
}
