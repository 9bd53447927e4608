package store

import (
	"context"
	"fmt"
	"sort"
	"time"
)

// memoryPeople is what Memory keeps about people beside its tables.
type memoryPeople struct {
	players  map[string]*Player
	sessions map[string]Session
	queue    map[string]Entry
	chat     map[string][]Line
}

func (m *Memory) people() *memoryPeople {
	if m.pp.players == nil {
		m.pp = memoryPeople{players: map[string]*Player{}, sessions: map[string]Session{},
			queue: map[string]Entry{}, chat: map[string][]Line{}}
	}
	return &m.pp
}

// player returns the player id, ErrNotFound if none; the caller holds mu.
func (m *Memory) player(id string) (*Player, error) {
	if m.closed {
		return nil, ErrClosed
	}
	p := m.people().players[id]
	if p == nil {
		return nil, ErrNotFound
	}
	return p, nil
}

// open reports whether t is open as Open defines it.
func (t *Saved) open() bool {
	return t.Closed == NotClosed && (t.Match == nil || !t.Match.Over)
}

// summary is t as Open lists it.
func (t *Saved) summary() Summary {
	sm := Summary{ID: t.ID, Game: t.Game, Players: t.Players, Created: t.Created, Creator: t.Creator,
		Active: t.Active, Started: t.Match != nil}
	for _, s := range t.Seats {
		if s.taken() {
			sm.Seated++
		}
	}
	return sm
}

// CreatePlayer implements Players.
func (m *Memory) CreatePlayer(_ context.Context, p Player) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.closed {
		return ErrClosed
	}
	pp := m.people()
	if pp.players[p.ID] != nil {
		return fmt.Errorf("store: player %q exists", p.ID)
	}
	if p.UsernameKey != "" && m.holder(p.UsernameKey) != "" {
		return ErrTaken
	}
	pp.players[p.ID] = &p
	return nil
}

// holder returns the id of the player whose username key is key.
func (m *Memory) holder(key string) string {
	for _, p := range m.people().players {
		if p.UsernameKey == key {
			return p.ID
		}
	}
	return ""
}

// Player implements Players.
func (m *Memory) Player(_ context.Context, id string) (Player, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	p, err := m.player(id)
	if err != nil {
		return Player{}, err
	}
	return *p, nil
}

// PlayerByUsername implements Players.
func (m *Memory) PlayerByUsername(_ context.Context, key string) (Player, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.closed {
		return Player{}, ErrClosed
	}
	if key == "" {
		return Player{}, ErrNotFound
	}
	id := m.holder(key)
	if id == "" {
		return Player{}, ErrNotFound
	}
	return *m.people().players[id], nil
}

// RenamePlayer implements Players.
func (m *Memory) RenamePlayer(_ context.Context, id, name string) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	p, err := m.player(id)
	if err != nil {
		return err
	}
	p.Name = name
	for _, t := range m.tables {
		if !t.open() {
			continue
		}
		for i := range t.Seats {
			if t.Seats[i].Player == id {
				t.Seats[i].Name = name
			}
		}
	}
	return nil
}

// MoveSeats implements Players.
func (m *Memory) MoveSeats(_ context.Context, from, to, name string) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	for _, t := range m.tables {
		if !t.open() {
			continue
		}
		for i := range t.Seats {
			if t.Seats[i].Player == from {
				t.Seats[i].Player, t.Seats[i].Name = to, name
			}
		}
	}
	return nil
}

// ClaimUsername implements Players.
func (m *Memory) ClaimUsername(_ context.Context, id, username, key, password string) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	p, err := m.player(id)
	if err != nil {
		return err
	}
	if p.UsernameKey != "" {
		return ErrClaimed
	}
	if m.holder(key) != "" {
		return ErrTaken
	}
	p.Username, p.UsernameKey, p.Password = username, key, password
	return nil
}

// SetPassword implements Players.
func (m *Memory) SetPassword(_ context.Context, id, password string) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	p, err := m.player(id)
	if err != nil {
		return err
	}
	p.Password = password
	return nil
}

// DeletePlayer implements Players.
func (m *Memory) DeletePlayer(_ context.Context, id string) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	p, err := m.player(id)
	if err != nil {
		return err
	}
	pp := m.people()
	p.Name, p.Username, p.UsernameKey, p.Password, p.Deleted = "", "", "", "", true
	m.forget(id) // friends and notifications (friends.go)
	for h, s := range pp.sessions {
		if s.Player == id {
			delete(pp.sessions, h)
		}
	}
	for _, t := range m.tables {
		for i := range t.Seats {
			if t.Seats[i].Player == id {
				t.Seats[i].Name = ""
			}
		}
	}
	for _, lines := range pp.chat {
		for i := range lines {
			if lines[i].Player == id {
				lines[i].Name = ""
			}
		}
	}
	delete(pp.queue, id)
	return nil
}

// PlayerTables implements Players.
func (m *Memory) PlayerTables(_ context.Context, player string) ([]PlayerTable, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.closed {
		return nil, ErrClosed
	}
	var out []PlayerTable
	for _, t := range m.tables {
		if !t.open() {
			continue
		}
		for i, s := range t.Seats {
			if s.Player == player && s.Bot == "" {
				out = append(out, PlayerTable{Summary: t.summary(), Seat: i})
				break
			}
		}
	}
	sort.Slice(out, func(i, j int) bool { return newer(out[i].Created, out[i].ID, out[j].Created, out[j].ID) })
	return out, nil
}

// newer orders tables newest first, by id among tables created together.
func newer(a time.Time, aid string, b time.Time, bid string) bool {
	if !a.Equal(b) {
		return a.After(b)
	}
	return aid > bid
}

// CreateSession implements Players.
func (m *Memory) CreateSession(_ context.Context, s Session) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.closed {
		return ErrClosed
	}
	pp := m.people()
	if _, ok := pp.sessions[s.Hash]; ok {
		return fmt.Errorf("store: session exists")
	}
	pp.sessions[s.Hash] = s
	return nil
}

// Session implements Players.
func (m *Memory) Session(_ context.Context, hash string, now time.Time) (Session, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.closed {
		return Session{}, ErrClosed
	}
	s, ok := m.people().sessions[hash]
	if !ok || !s.Expires.After(now) {
		return Session{}, ErrNotFound
	}
	return s, nil
}

// DeleteSession implements Players.
func (m *Memory) DeleteSession(_ context.Context, hash string) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.closed {
		return ErrClosed
	}
	delete(m.people().sessions, hash)
	return nil
}

// DeleteSessions implements Players.
func (m *Memory) DeleteSessions(_ context.Context, player, except string) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.closed {
		return ErrClosed
	}
	pp := m.people()
	for h, s := range pp.sessions {
		if s.Player == player && h != except {
			delete(pp.sessions, h)
		}
	}
	return nil
}

// DeleteExpiredSessions implements Players.
func (m *Memory) DeleteExpiredSessions(_ context.Context, now time.Time) (int, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.closed {
		return 0, ErrClosed
	}
	pp, n := m.people(), 0
	for h, s := range pp.sessions {
		if !s.Expires.After(now) {
			delete(pp.sessions, h)
			n++
		}
	}
	return n, nil
}

// WaitingTables implements Lobby.
func (m *Memory) WaitingTables(_ context.Context, game string, since time.Time, limit int) ([]Table, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.closed {
		return nil, ErrClosed
	}
	var out []Table
	for _, t := range m.tables {
		if !t.Public || t.Closed != NotClosed || t.Match != nil || game != "" && t.Game != game || !t.free() || t.Active.Before(since) {
			continue
		}
		out = append(out, copySaved(t).Table)
	}
	sort.Slice(out, func(i, j int) bool { return newer(out[i].Created, out[i].ID, out[j].Created, out[j].ID) })
	if len(out) > max(limit, 0) {
		out = out[:max(limit, 0)]
	}
	return out, nil
}

// free reports whether a seat of t is free.
func (t *Saved) free() bool {
	for _, s := range t.Seats {
		if !s.taken() {
			return true
		}
	}
	return false
}

// Enqueue implements Queue.
func (m *Memory) Enqueue(_ context.Context, e Entry) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.closed {
		return ErrClosed
	}
	m.people().queue[e.Player] = e
	return nil
}

// LeaveQueue implements Queue.
func (m *Memory) LeaveQueue(_ context.Context, player string) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.closed {
		return ErrClosed
	}
	delete(m.people().queue, player)
	return nil
}

// QueueEntry implements Queue.
func (m *Memory) QueueEntry(_ context.Context, player string) (Entry, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.closed {
		return Entry{}, ErrClosed
	}
	e, ok := m.people().queue[player]
	if !ok {
		return Entry{}, ErrNotFound
	}
	return e, nil
}

// Queued implements Queue.
func (m *Memory) Queued(_ context.Context, game string) ([]Entry, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.closed {
		return nil, ErrClosed
	}
	var out []Entry
	for _, e := range m.people().queue {
		if e.Table == "" && (game == "" || e.Game == game) {
			out = append(out, e)
		}
	}
	sort.Slice(out, func(i, j int) bool {
		if !out[i].Joined.Equal(out[j].Joined) {
			return out[i].Joined.Before(out[j].Joined)
		}
		return out[i].Player < out[j].Player
	})
	return out, nil
}

// SeatQueued implements Queue.
func (m *Memory) SeatQueued(_ context.Context, players []string, t Table, start *Start) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.closed {
		return ErrClosed
	}
	q := m.people().queue
	seats := make([]int, len(players))
	for i, p := range players {
		if e, ok := q[p]; !ok || e.Table != "" {
			return ErrQueueChanged
		}
		s, err := t.SeatOf(p)
		if err != nil {
			return err
		}
		seats[i] = s
	}
	if err := m.createTable(t, start); err != nil {
		return err
	}
	for i, p := range players {
		e := q[p]
		e.Table, e.Seat = t.ID, seats[i]
		q[p] = e
	}
	return nil
}

// SeatOf returns the seat of t whose Player is player: SeatQueued's
// stores mark each queue entry seated there.
func (t Table) SeatOf(player string) (int, error) {
	for i, s := range t.Seats {
		if s.Player == player {
			return i, nil
		}
	}
	return 0, fmt.Errorf("store: table %q has no seat for player %q", t.ID, player)
}

// AppendChat implements Chats.
func (m *Memory) AppendChat(_ context.Context, l Line) (int, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if _, err := m.get(l.Table); err != nil {
		return 0, err
	}
	pp := m.people()
	lines := pp.chat[l.Table]
	l.No = 1
	if n := len(lines); n > 0 {
		l.No = lines[n-1].No + 1
	}
	if len(lines) >= ChatKept {
		lines = append(lines[:0], lines[len(lines)-ChatKept+1:]...)
	}
	pp.chat[l.Table] = append(lines, l)
	return l.No, nil
}

// PruneChat implements Chats.
func (m *Memory) PruneChat(_ context.Context, before time.Time) (int, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.closed {
		return 0, ErrClosed
	}
	pp, n := m.people(), 0
	for id, lines := range pp.chat {
		if t, ok := m.tables[id]; ok && !t.open() && t.Active.Before(before) {
			n += len(lines)
			delete(pp.chat, id)
		}
	}
	return n, nil
}

// Chat implements Chats.
func (m *Memory) Chat(_ context.Context, table string, limit int) ([]Line, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.closed {
		return nil, ErrClosed
	}
	lines := m.people().chat[table]
	if n := len(lines) - max(limit, 0); n > 0 {
		lines = lines[n:]
	}
	return append([]Line(nil), lines...), nil
}
