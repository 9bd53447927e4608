package store

import (
	"context"
	"time"
)

// Analyses keeps what post-game analysis and the coach need (issue 27,
// package analysis): each finished match's analysis, computed once, and
// the hints each seat of a coached table asked for in a match.
type Analyses interface {
	// SaveAnalysis keeps the analysis of match no of a table, its report
	// as JSON, made at at. A match has one: saving another for the same
	// match keeps the first.
	SaveAnalysis(ctx context.Context, table string, no int, report []byte, at time.Time) error
	// Analysis returns the report kept for match no of a table, or an
	// error wrapping ErrNotFound.
	Analysis(ctx context.Context, table string, no int) ([]byte, error)
	// AddHint counts a hint given to seat in match no of a table, and
	// returns the seat's hints in that match so far, this one included.
	AddHint(ctx context.Context, table string, no, seat int) (int, error)
	// Hints returns the hints of each seat that asked for any in match
	// no of a table, by seat (an empty map for none).
	Hints(ctx context.Context, table string, no int) (map[int]int, error)
}

// analysisKey names a match of a table in the memory store's maps.
type analysisKey struct {
	table string
	no    int
}

// memoryAnalyses is the memory store's analyses and hints, made on first
// use; Memory's mu guards it.
type memoryAnalyses struct {
	reports map[analysisKey][]byte
	hints   map[analysisKey]map[int]int
}

// SaveAnalysis implements Analyses.
func (m *Memory) SaveAnalysis(_ context.Context, table string, no int, report []byte, _ time.Time) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.closed {
		return ErrClosed
	}
	if m.an.reports == nil {
		m.an.reports = map[analysisKey][]byte{}
	}
	k := analysisKey{table, no}
	if _, ok := m.an.reports[k]; !ok {
		m.an.reports[k] = append([]byte(nil), report...)
	}
	return nil
}

// Analysis implements Analyses.
func (m *Memory) Analysis(_ context.Context, table string, no int) ([]byte, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.closed {
		return nil, ErrClosed
	}
	r, ok := m.an.reports[analysisKey{table, no}]
	if !ok {
		return nil, NoMatch(table, no)
	}
	return append([]byte(nil), r...), nil
}

// AddHint implements Analyses.
func (m *Memory) AddHint(_ context.Context, table string, no, seat int) (int, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.closed {
		return 0, ErrClosed
	}
	if m.an.hints == nil {
		m.an.hints = map[analysisKey]map[int]int{}
	}
	k := analysisKey{table, no}
	if m.an.hints[k] == nil {
		m.an.hints[k] = map[int]int{}
	}
	m.an.hints[k][seat]++
	return m.an.hints[k][seat], nil
}

// Hints implements Analyses.
func (m *Memory) Hints(_ context.Context, table string, no int) (map[int]int, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.closed {
		return nil, ErrClosed
	}
	out := map[int]int{}
	for s, n := range m.an.hints[analysisKey{table, no}] {
		out[s] = n
	}
	return out, nil
}
