package metrics

import (
	"context"
	"time"

	"tapis/store"
)

// Store returns st timing its appends of moves (tapis_store_append_seconds,
// tapis_store_append_errors_total); every other method is st's. Without
// metrics it is st itself.
func (m *Metrics) Store(st store.Store) store.Store {
	if m == nil {
		return st
	}
	return &timedStore{Store: st, m: m}
}

// timedStore is a store whose AppendMove is timed: the stores themselves
// know nothing of metrics.
type timedStore struct {
	store.Store
	m *Metrics
}

func (s *timedStore) AppendMove(ctx context.Context, table string, no, index int, mv store.Move) error {
	start := time.Now()
	err := s.Store.AppendMove(ctx, table, no, index, mv)
	s.m.appendSecs.Observe(time.Since(start).Seconds())
	if err != nil {
		s.m.appendErrors.Inc()
	}
	return err
}

// Writer returns w with its AppendMove timed as Store's are: a cluster's
// tables write through their leases' fenced writers, not the store.
func (m *Metrics) Writer(w store.TableWriter) store.TableWriter {
	if m == nil {
		return w
	}
	return &timedWriter{TableWriter: w, m: m}
}

type timedWriter struct {
	store.TableWriter
	m *Metrics
}

func (w *timedWriter) AppendMove(ctx context.Context, no, index int, mv store.Move) error {
	start := time.Now()
	err := w.TableWriter.AppendMove(ctx, no, index, mv)
	w.m.appendSecs.Observe(time.Since(start).Seconds())
	if err != nil {
		w.m.appendErrors.Inc()
	}
	return err
}
