package server

import (
	"context"
	"net/http"

	"tapis/store"
)

// ownership decides which node holds a table, and so runs it and writes
// its matches: on one node, that node holds them all (single); in a
// cluster, the node holding the table's lease in the store does (leased,
// owner.go). The server asks it, and never asks which of the two it is.
type ownership interface {
	// ownerOf returns "" when this node holds table id, having taken it
	// if it was free, or the id of the node that does, without taking it
	// from a node that is gone. fresh says it was just taken: what this
	// node remembered of the table may be stale.
	ownerOf(ctx context.Context, id string) (node string, fresh bool, err error)
	// owned serves a table's request with h if this node holds the table
	// or can take it, and relays it to the node that holds it otherwise.
	owned(h http.HandlerFunc) http.HandlerFunc
	// balanced makes a new table with h on the least loaded node.
	balanced(h http.HandlerFunc) http.HandlerFunc
	// writer returns where table id writes its matches.
	writer(id string) store.TableWriter
	// release gives table id back at once (it went to sleep or closed,
	// or the node stops), so that any node may take it.
	release(id string)
	// disown stops table id here, this node's write having been fenced
	// off: its lease is another node's now.
	disown(id, why string)
	// stillDue reports whether dormant table d is due to close as the
	// store has it now, its summary having been found due.
	stillDue(ctx context.Context, d *dormant) bool
	// everywhere has every node act on msg, sent on subject: here is
	// this node's act, run at once if there is no other node or msg
	// cannot be sent.
	everywhere(subject string, msg []byte, here func())
	// start begins the ownership's own work, once the server's routes
	// are set.
	start() error
	// stop gives back what this node holds when the server stops, once
	// its tables' goroutines have written their last moves.
	stop()
}

// single is the ownership of one node: it holds every table, and writes
// to the store unfenced.
type single struct{ st store.Store }

func (single) ownerOf(context.Context, string) (string, bool, error) { return "", false, nil }
func (single) owned(h http.HandlerFunc) http.HandlerFunc             { return h }
func (single) balanced(h http.HandlerFunc) http.HandlerFunc          { return h }
func (o single) writer(id string) store.TableWriter                  { return store.Unfenced(o.st, id) }
func (single) release(string)                                        {}

// disown does nothing: one node's writes are never fenced off.
func (single) disown(string, string) {}

// stillDue is true: on one node, the summary is the store's.
func (single) stillDue(context.Context, *dormant) bool { return true }

func (single) everywhere(_ string, _ []byte, here func()) { here() }
func (single) start() error                               { return nil }
func (single) stop()                                      {}

// owned is the ownership's owned, as the routes wrap a table's handlers.
func (s *Server) owned(h http.HandlerFunc) http.HandlerFunc { return s.own.owned(h) }

// balanced is the ownership's balanced, as the routes wrap the creation
// of a table.
func (s *Server) balanced(h http.HandlerFunc) http.HandlerFunc { return s.own.balanced(h) }
