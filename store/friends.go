package store

import (
	"context"
	"slices"
	"sort"
	"time"
)

// Friends and blocks (issue 29): who plays with whom over days. A friend
// request goes one way until it is accepted; a friendship goes both ways;
// a block is one player's alone, and silent: the player blocked is never
// told, and their requests to the one who blocked them are kept (they
// see them pending) but never shown to the one who blocked them.

// The states of a Relation.
const (
	// Friend: the two are friends.
	Friend = "friend"
	// Incoming: the other player asked to be the player's friend.
	Incoming = "incoming"
	// Outgoing: the player asked the other to be their friend.
	Outgoing = "outgoing"
	// Blocked: the player blocked the other.
	Blocked = "blocked"
)

// Relation is another player as one player's friends list shows them.
type Relation struct {
	// Player is the other player's id; Name and Username theirs now.
	Player   string
	Name     string
	Username string
	// State is Friend, Incoming, Outgoing or Blocked.
	State string
	// Since is when the request was made, the friendship began or the
	// block was set.
	Since time.Time
}

// Friends keeps friendships, friend requests and blocks.
type Friends interface {
	// RequestFriend records from's request to be to's friend, and
	// returns the relation it makes, seen from from: Friend when to had
	// asked from first (the two requests meet: they are friends now, as
	// if to's was accepted) or when they were friends already, Outgoing
	// otherwise (asking again changes nothing). A request to a player
	// who blocked from is kept as any other, but never makes them
	// friends and is not listed to the one who blocked.
	RequestFriend(ctx context.Context, from, to string, at time.Time) (string, error)
	// AcceptFriend makes player and from friends, if from asked player
	// (and player has not blocked from); ErrNotFound otherwise.
	AcceptFriend(ctx context.Context, player, from string, at time.Time) error
	// Unfriend ends what is between a and b but blocks: their
	// friendship, or a request either way (declining, withdrawing,
	// removing a friend). Ending nothing is not an error.
	Unfriend(ctx context.Context, a, b string) error
	// Block records that player blocked other, and ends their friendship
	// and any request either way. Blocking twice keeps the first time.
	Block(ctx context.Context, player, other string, at time.Time) error
	// Unblock lifts player's block of other; lifting none is not an
	// error.
	Unblock(ctx context.Context, player, other string) error
	// Relations lists player's friends, the requests to and from them
	// (not those from a player they blocked) and the players they
	// blocked, with each other player's name (SortRelations); deleted
	// players are left out. Whom player was blocked by is never listed.
	Relations(ctx context.Context, player string) ([]Relation, error)
	// BlockedBy returns which of others blocked player: for a table's
	// seats, an invitation's target, a chat's readers.
	BlockedBy(ctx context.Context, player string, others []string) ([]string, error)
	// Blocks returns the players with a block between them and player,
	// either way, in no set order: whose chat lines player does not see,
	// and who does not see theirs.
	Blocks(ctx context.Context, player string) ([]string, error)
}

// SortRelations puts relations in Relations' order: by name, id and
// state (a player blocked may have asked to be a friend).
func SortRelations(rs []Relation) {
	sort.Slice(rs, func(i, j int) bool {
		if rs[i].Name != rs[j].Name {
			return rs[i].Name < rs[j].Name
		}
		if rs[i].Player != rs[j].Player {
			return rs[i].Player < rs[j].Player
		}
		return rs[i].State < rs[j].State
	})
}

// memoryFriends is what Memory keeps of friends: edges keyed by
// [player, other], as the SQL stores' rows.
type memoryFriends struct {
	// edges holds a request (from, to) as Outgoing and a friendship as
	// two Friend edges.
	edges  map[[2]string]edge
	blocks map[[2]string]time.Time
}

type edge struct {
	state string
	at    time.Time
}

func (m *Memory) friends() *memoryFriends {
	if m.fr.edges == nil {
		m.fr = memoryFriends{edges: map[[2]string]edge{}, blocks: map[[2]string]time.Time{}}
	}
	return &m.fr
}

// RequestFriend implements Friends.
func (m *Memory) RequestFriend(_ context.Context, from, to string, at time.Time) (string, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.closed {
		return "", ErrClosed
	}
	f := m.friends()
	if e, ok := f.edges[[2]string{from, to}]; ok {
		return e.state, nil
	}
	_, blocked := f.blocks[[2]string{from, to}]
	if e, ok := f.edges[[2]string{to, from}]; ok && e.state == Outgoing && !blocked {
		f.edges[[2]string{to, from}] = edge{Friend, at}
		f.edges[[2]string{from, to}] = edge{Friend, at}
		return Friend, nil
	}
	f.edges[[2]string{from, to}] = edge{Outgoing, at}
	return Outgoing, nil
}

// AcceptFriend implements Friends.
func (m *Memory) AcceptFriend(_ context.Context, player, from string, at time.Time) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.closed {
		return ErrClosed
	}
	f := m.friends()
	e, ok := f.edges[[2]string{from, player}]
	if _, blocked := f.blocks[[2]string{player, from}]; !ok || e.state != Outgoing || blocked {
		return ErrNotFound
	}
	f.edges[[2]string{from, player}] = edge{Friend, at}
	f.edges[[2]string{player, from}] = edge{Friend, at}
	return nil
}

// Unfriend implements Friends.
func (m *Memory) Unfriend(_ context.Context, a, b string) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.closed {
		return ErrClosed
	}
	f := m.friends()
	delete(f.edges, [2]string{a, b})
	delete(f.edges, [2]string{b, a})
	return nil
}

// Block implements Friends.
func (m *Memory) Block(_ context.Context, player, other string, at time.Time) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.closed {
		return ErrClosed
	}
	f := m.friends()
	if _, ok := f.blocks[[2]string{player, other}]; !ok {
		f.blocks[[2]string{player, other}] = at
	}
	delete(f.edges, [2]string{player, other})
	delete(f.edges, [2]string{other, player})
	return nil
}

// Unblock implements Friends.
func (m *Memory) Unblock(_ context.Context, player, other string) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.closed {
		return ErrClosed
	}
	delete(m.friends().blocks, [2]string{player, other})
	return nil
}

// Relations implements Friends.
func (m *Memory) Relations(_ context.Context, player string) ([]Relation, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.closed {
		return nil, ErrClosed
	}
	f := m.friends()
	var out []Relation
	add := func(other, state string, at time.Time) {
		p := m.people().players[other]
		if p == nil || p.Deleted {
			return
		}
		out = append(out, Relation{Player: other, Name: p.Name, Username: p.Username, State: state, Since: at})
	}
	for k, e := range f.edges {
		switch {
		case k[0] == player:
			add(k[1], e.state, e.at)
		case k[1] == player && e.state == Outgoing:
			if _, blocked := f.blocks[[2]string{player, k[0]}]; !blocked {
				add(k[0], Incoming, e.at)
			}
		}
	}
	for k, at := range f.blocks {
		if k[0] == player {
			add(k[1], Blocked, at)
		}
	}
	SortRelations(out)
	return out, nil
}

// BlockedBy implements Friends.
func (m *Memory) BlockedBy(_ context.Context, player string, others []string) ([]string, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.closed {
		return nil, ErrClosed
	}
	var out []string
	for _, o := range others {
		if _, ok := m.friends().blocks[[2]string{o, player}]; ok {
			out = append(out, o)
		}
	}
	return out, nil
}

// forget removes what friends and notifications keep of player, whose
// account is deleted (DeletePlayer, which holds mu): as
// sqldb.ForgetPlayer does.
func (m *Memory) forget(player string) {
	f := m.friends()
	for k := range f.edges {
		if k[0] == player || k[1] == player {
			delete(f.edges, k)
		}
	}
	for k := range f.blocks {
		if k[0] == player || k[1] == player {
			delete(f.blocks, k)
		}
	}
	nt := m.notes()
	nt.order = slices.DeleteFunc(nt.order, func(id string) bool {
		if nt.notes[id].Player != player {
			return false
		}
		delete(nt.notes, id)
		for k := range nt.deliveries {
			if k[0] == id {
				delete(nt.deliveries, k)
			}
		}
		return true
	})
	for k := range nt.prefs {
		if k[0] == player {
			delete(nt.prefs, k)
		}
	}
	for k := range nt.paces {
		if k[0] == player {
			delete(nt.paces, k)
		}
	}
	delete(nt.emails, player)
	nt.push = slices.DeleteFunc(nt.push, func(p PushSub) bool { return p.Player == player })
}

// Blocks implements Friends.
func (m *Memory) Blocks(_ context.Context, player string) ([]string, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.closed {
		return nil, ErrClosed
	}
	var out []string
	for k := range m.friends().blocks {
		switch {
		case k[0] == player && !slices.Contains(out, k[1]):
			out = append(out, k[1])
		case k[1] == player && !slices.Contains(out, k[0]):
			out = append(out, k[0])
		}
	}
	return out, nil
}
