package table

import (
	"context"
	"net/http"

	"tapis/store"
)

// ownership decides which node holds a table, and so runs it and writes
// its matches: on one node, that node holds them all (single); in a
// cluster, the node holding the table's lease in the store does
// (lease.Owner). The host asks it, and never asks which of the two it is.
type ownership interface {
	// OwnerOf returns "" when this node holds table id, having taken it
	// if it was free, or the id of the node that does, without taking it
	// from a node that is gone. fresh says it was just taken: what this
	// node remembered of the table may be stale.
	OwnerOf(ctx context.Context, id string) (node string, fresh bool, err error)
	// Owned serves a table's request with h if this node holds the table
	// or can take it, and relays it to the node that holds it otherwise.
	Owned(h http.HandlerFunc) http.HandlerFunc
	// Balanced makes a new table with h on the least loaded node.
	Balanced(h http.HandlerFunc) http.HandlerFunc
	// Writer returns where table id writes its matches.
	Writer(id string) store.TableWriter
	// Release gives table id back at once (it went to sleep or closed,
	// or the node stops), so that any node may take it.
	Release(id string)
	// Disown stops table id here, this node's write having been fenced
	// off: its lease is another node's now.
	Disown(id, why string)
	// StillDue reports whether dormant table sm is due to close as the
	// store has it now, its summary having been found due.
	StillDue(ctx context.Context, sm store.Summary) bool
	// Everywhere has every node act on msg, sent on subject: here is
	// this node's act, run at once if there is no other node or msg
	// cannot be sent.
	Everywhere(subject string, msg []byte, here func())
	// Start begins the ownership's own work, once the server's routes
	// are set: relay serves the requests other nodes relay here.
	Start(relay http.Handler) error
	// Stop gives back what this node holds when the server stops, once
	// its tables' goroutines have written their last moves.
	Stop()
}

// single is the ownership of one node: it holds every table, and writes
// to the store unfenced.
type single struct{ st store.Store }

func (single) OwnerOf(context.Context, string) (string, bool, error) { return "", false, nil }
func (single) Owned(h http.HandlerFunc) http.HandlerFunc             { return h }
func (single) Balanced(h http.HandlerFunc) http.HandlerFunc          { return h }
func (o single) Writer(id string) store.TableWriter                  { return store.Unfenced(o.st, id) }
func (single) Release(string)                                        {}

// Disown does nothing: one node's writes are never fenced off.
func (single) Disown(string, string) {}

// StillDue is true: on one node, the summary is the store's.
func (single) StillDue(context.Context, store.Summary) bool { return true }

func (single) Everywhere(_ string, _ []byte, here func()) { here() }
func (single) Start(http.Handler) error                   { return nil }
func (single) Stop()                                      {}
