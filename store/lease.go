package store

import (
	"context"
	"errors"
	"fmt"
	"time"
)

// Leases let several servers share one database, each table run by exactly
// one of them (issue 19). A node owns a table while it holds the table's
// lease, which expires unless renewed; every write the node makes for the
// table goes through Fenced, which checks the lease in the same statement
// as the write. So a node that lost its lease, however long it was paused,
// can never write another move: two owners never both write.
//
// Time is the store's clock (PostgreSQL's clock_timestamp()), never the
// nodes': skew between nodes cannot make two owners.
//
// Node names must be unique per process run (a host name plus a random
// suffix, say): a lease is re-entrant for its node, so a node restarted
// under its old name while its old process still ran would share its
// epoch.
//
// *Postgres and *Memory are Leases. *SQLite is not: a SQLite file serves
// one process, so there is nobody to share tables with, and a server on
// it writes through Unfenced rather than through leases that could only
// pretend to fence.
type Leases interface {
	// Acquire takes table's lease for node for ttl, if nobody holds it,
	// it expired, or node holds it already (which only extends it). The
	// epoch grows by one whenever the holder changes or a lease is taken
	// again after it expired or was released, so every gap in ownership
	// starts a new epoch, whose holder must load the table again. Held
	// by another node, it fails with a *LeaseHeldError (errors.Is
	// ErrLeaseHeld) naming the holder, for routing the request there.
	// There is no lease of a table the store does not have: that fails
	// with an error wrapping ErrNotFound, and leaves nothing behind.
	Acquire(ctx context.Context, table, node string, ttl time.Duration) (Lease, error)
	// Take takes table's lease for node from the holder of from, before
	// from expires, when that holder is known to be gone (a node that
	// answers nothing): the epoch grows, so the gone holder's writes are
	// fenced off from then on, and taking it early is safe. If the lease
	// is free or expired, it is Acquire; if another holder than from's
	// has it now (someone took it first), it fails with a
	// *LeaseHeldError naming them.
	Take(ctx context.Context, table, node string, from Lease, ttl time.Duration) (Lease, error)
	// Renew extends l by ttl from now if it is still held at its epoch and
	// has not expired, and returns it with its new Until; otherwise it
	// fails with ErrLeaseLost. An expired lease is lost even if nobody took
	// it: the node must Acquire again, getting a new epoch, and reload the
	// table, because for a while it was not the owner.
	Renew(ctx context.Context, l Lease, ttl time.Duration) (Lease, error)
	// RenewAll renews every live lease node holds, in one statement, and
	// returns them: a node with a thousand tables renews them all in one
	// round trip, not a thousand. A lease of the node's that is not
	// returned is lost (expired, or taken).
	RenewAll(ctx context.Context, node string, ttl time.Duration) ([]Lease, error)
	// Release frees l at once if it is still held at its epoch, for a
	// graceful hand-over (a node stopping, a table going to sleep): the
	// next Acquire need not wait for it to expire. It fails with
	// ErrLeaseLost if another node took the table since; releasing a
	// lease that merely expired is no error.
	Release(ctx context.Context, l Lease) error
	// Holder returns the live lease of table, for routing a request to
	// the node that runs it; with none (never taken, expired, released)
	// it returns a zero Lease and an error wrapping ErrNotFound.
	Holder(ctx context.Context, table string) (Lease, error)
	// NodeLoad counts the live leases of every node that holds any: how
	// many tables each runs, for placing a new or orphaned table on the
	// least loaded node.
	NodeLoad(ctx context.Context) (map[string]int, error)
	// Fenced returns the writes of l's table, each checked against l in
	// the same statement or transaction: once l is lost (taken by another
	// node, expired, released), every one of them fails with an error
	// wrapping ErrLeaseLost and changes nothing. Renewing l keeps its
	// epoch, so the writer stays good for as long as the lease is renewed
	// in time.
	Fenced(l Lease) TableWriter
}

// Lease is a node's ownership of one table, from Acquire or Renew.
type Lease struct {
	Table string
	Node  string
	// Epoch counts the owners of the table, from 1: it grows whenever
	// ownership changes hands or resumes after a gap. Writes are fenced
	// by it.
	Epoch int64
	// Until is when the lease expires unless renewed, on the store's
	// clock: a node should renew well before it (say at a third of the
	// ttl) and not trust its own clock to compare.
	Until time.Time
}

// ErrLeaseHeld is the error (through *LeaseHeldError) of an Acquire of a
// table that another node holds.
var ErrLeaseHeld = errors.New("store: lease held by another node")

// ErrLeaseLost is the error of a Renew, Release or fenced write of a lease
// that is no longer held at its epoch.
var ErrLeaseLost = errors.New("store: lease lost")

// LeaseHeldError is an Acquire's error when another node holds the lease:
// Holder is that node's lease, so the caller can send the table's
// players there, or retry after Holder.Until.
type LeaseHeldError struct{ Holder Lease }

func (e *LeaseHeldError) Error() string {
	return fmt.Sprintf("store: table %s: lease held by node %s (epoch %d) until %s",
		e.Holder.Table, e.Holder.Node, e.Holder.Epoch, e.Holder.Until.Format(time.RFC3339Nano))
}

// Is makes errors.Is(err, ErrLeaseHeld) true.
func (e *LeaseHeldError) Is(target error) bool { return target == ErrLeaseHeld }

// TableWriter is every write a table's host makes for its own table, with
// the table implied: Store's methods of the same names. Ratings are not
// among them: a rated match is recorded once by its key (table, match),
// so a stale node recording the end it wrote before losing the lease
// changes nothing that the new owner, replaying the same finished match,
// would not; a server records it only after its fenced EndMatch
// succeeded. Creating a table is not either: its id is new, so it has no
// owner to fence against yet.
type TableWriter interface {
	// SetSeat records a seat change, and the start of a match if start
	// is not nil: both or neither.
	SetSeat(ctx context.Context, seat int, s Seat, start *Start) error
	// StartMatch records the start of match no with its seed.
	StartMatch(ctx context.Context, no int, seed uint64) error
	// AppendMove records move index (from 0) of match no, only as the
	// next move of that match.
	AppendMove(ctx context.Context, no, index int, m Move) error
	// EndMatch marks match no as over.
	EndMatch(ctx context.Context, no int) error
	// CloseTable closes the table: fenced, so that a node that lost the
	// table cannot close it under its new owner.
	CloseTable(ctx context.Context, c Closed, reason string) error
	// Touch records at as the last time a human was seen at the table:
	// fenced, so that a stale node cannot date the table back and have it
	// swept as abandoned while another node runs it.
	Touch(ctx context.Context, at time.Time) error
}

// Unfenced returns the writes of table in s without any lease: for a
// store that is not Leases (SQLite), where one server runs every table.
func Unfenced(s Store, table string) TableWriter { return unfenced{s, table} }

type unfenced struct {
	s     Store
	table string
}

func (u unfenced) SetSeat(ctx context.Context, seat int, s Seat, start *Start) error {
	return u.s.SetSeat(ctx, u.table, seat, s, start)
}

func (u unfenced) StartMatch(ctx context.Context, no int, seed uint64) error {
	return u.s.StartMatch(ctx, u.table, no, seed)
}

func (u unfenced) AppendMove(ctx context.Context, no, index int, m Move) error {
	return u.s.AppendMove(ctx, u.table, no, index, m)
}

func (u unfenced) EndMatch(ctx context.Context, no int) error {
	return u.s.EndMatch(ctx, u.table, no)
}

func (u unfenced) CloseTable(ctx context.Context, c Closed, reason string) error {
	return u.s.CloseTable(ctx, u.table, c, reason)
}

func (u unfenced) Touch(ctx context.Context, at time.Time) error {
	return u.s.Touch(ctx, u.table, at)
}

// CheckTTL refuses a lease that would expire as it is taken.
func CheckTTL(ttl time.Duration) error {
	if ttl <= 0 {
		return fmt.Errorf("store: lease for %v: the ttl must be positive", ttl)
	}
	return nil
}

// LeaseLost is the error of a fenced write or renewal of l that failed for
// want of the lease (what names it), wrapping ErrLeaseLost.
func LeaseLost(l Lease, what string) error {
	return fmt.Errorf("store: table %s: %s by node %s at epoch %d: %w", l.Table, what, l.Node, l.Epoch, ErrLeaseLost)
}

// Memory shares tables between the servers of one process, as PostgreSQL
// does between processes.
var _ Leases = (*Memory)(nil)
