package store

import (
	"context"
	"sort"
)

// memoryRatings is what Memory keeps of rated games.
type memoryRatings struct {
	standings map[[2]string]*Standing // by (player, game)
	matches   map[matchKey]bool
	results   []Result // in the order recorded
}

type matchKey struct {
	table string
	no    int
}

func (r *memoryRatings) init() {
	if r.standings == nil {
		r.standings = map[[2]string]*Standing{}
		r.matches = map[matchKey]bool{}
	}
}

// RecordRated implements Ratings. The store's one lock makes the read,
// the update and the write one step.
func (m *Memory) RecordRated(_ context.Context, rm RatedMatch, update func([]Standing) ([]Standing, error)) error {
	if err := CheckRated(rm); err != nil {
		return err
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.closed {
		return ErrClosed
	}
	r := &m.rt
	r.init()
	if r.matches[matchKey{rm.Table, rm.No}] {
		return ErrRecorded
	}
	before := make([]Standing, len(rm.Seats))
	for i, s := range rm.Seats {
		if st := r.standings[[2]string{s.Player, rm.Game}]; st != nil {
			before[i] = *st
		} else {
			before[i] = Standing{Player: s.Player, Game: rm.Game, New: true}
		}
	}
	after, err := Updated(rm, before, update)
	if err != nil {
		return err
	}
	r.matches[matchKey{rm.Table, rm.No}] = true
	for i, s := range rm.Seats {
		st := after[i]
		r.standings[[2]string{s.Player, rm.Game}] = &st
		r.results = append(r.results, Result{Table: rm.Table, No: rm.No, Game: rm.Game, Seat: s.Seat, Players: len(rm.Seats),
			Player: s.Player, Rank: s.Rank, Score: s.Score, MuBefore: before[i].Mu, SigmaBefore: before[i].Sigma,
			MuAfter: st.Mu, SigmaAfter: st.Sigma, At: rm.At})
	}
	return nil
}

// SetAnchor implements Ratings.
func (m *Memory) SetAnchor(_ context.Context, player, game string, mu, sigma float64) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.closed {
		return ErrClosed
	}
	m.rt.init()
	k := [2]string{player, game}
	st := m.rt.standings[k]
	if st == nil {
		st = &Standing{Player: player, Game: game}
		m.rt.standings[k] = st
	}
	st.Mu, st.Sigma, st.Fixed = mu, sigma, true
	return nil
}

// board returns game's ranked players, best first; the caller holds mu.
func (m *Memory) board(game string, minGames int) []Ranked {
	var out []Ranked
	for _, st := range m.rt.standings {
		if st.Game == game && !st.Fixed && st.Games >= minGames {
			out = append(out, Ranked{Standing: *st})
		}
	}
	sort.Slice(out, func(i, j int) bool {
		a, b := out[i].Ordinal(), out[j].Ordinal()
		if a != b {
			return a > b
		}
		return out[i].Player < out[j].Player
	})
	for i := range out {
		out[i].Rank = i + 1
	}
	return out
}

// Leaderboard implements Ratings.
func (m *Memory) Leaderboard(_ context.Context, game string, minGames, limit, offset int) ([]Ranked, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.closed {
		return nil, ErrClosed
	}
	b := m.board(game, minGames)
	offset = min(max(offset, 0), len(b))
	return b[offset:min(offset+max(limit, 0), len(b))], nil
}

// Rank implements Ratings.
func (m *Memory) Rank(_ context.Context, game, player string, minGames int) (Ranked, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.closed {
		return Ranked{}, ErrClosed
	}
	for _, r := range m.board(game, minGames) {
		if r.Player == player {
			return r, nil
		}
	}
	return Ranked{}, ErrNotFound
}

// Profile implements Ratings.
func (m *Memory) Profile(_ context.Context, player string, recent int) (Profile, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.closed {
		return Profile{}, ErrClosed
	}
	var p Profile
	for _, st := range m.rt.standings {
		if st.Player == player {
			p.Standings = append(p.Standings, *st)
		}
	}
	sort.Slice(p.Standings, func(i, j int) bool { return p.Standings[i].Game < p.Standings[j].Game })
	for _, r := range m.rt.results {
		if r.Player == player {
			p.History = append(p.History, r)
		}
	}
	sort.SliceStable(p.History, func(i, j int) bool {
		a, b := p.History[i], p.History[j]
		if !a.At.Equal(b.At) {
			return a.At.Before(b.At)
		}
		if a.Table != b.Table {
			return a.Table < b.Table
		}
		return a.No < b.No
	})
	p.History = p.History[max(0, len(p.History)-HistoryLimit):]
	for i := len(p.History) - 1; i >= 0 && len(p.Recent) < recent; i-- {
		p.Recent = append(p.Recent, p.History[i])
	}
	return p, nil
}

// MatchResults implements Ratings.
func (m *Memory) MatchResults(_ context.Context, table string, no int) ([]Result, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.closed {
		return nil, ErrClosed
	}
	var out []Result
	for _, r := range m.rt.results {
		if r.Table == table && r.No == no {
			out = append(out, r)
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Seat < out[j].Seat })
	return out, nil
}
