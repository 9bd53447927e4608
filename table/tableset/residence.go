package tableset

import "fmt"

// Residence is where a table is, as this node holds it (package table's
// lifecycle.go tells its life). Only the table set moves a table from one
// residence to another (Set.Move), as net/http's ConnState is changed
// only by its server, and it refuses a move the lifecycle does not have.
type Residence int

const (
	// Absent: this node holds nothing of the table. The store may hold
	// it, open (a request adopts it), over or closed; or another node.
	Absent Residence = iota
	// Dormant: open, only in the store, summarised here (an Asleep);
	// the first request that needs it loads it.
	Dormant
	// Loading: dormant, and held by one goroutine, a request loading it
	// or the sweep closing it; the others wait until it is done
	// (Asleep.Loading).
	Loading
	// Loaded: a goroutine owns it (package table's run).
	Loaded
	// HandedOver: its lease went to another node (package lease); its
	// goroutine, if it had one, stops without another write. The set
	// holds it no more: to the set it is then Absent, and a table comes
	// back only by being adopted again.
	HandedOver
)

var residences = [...]string{Absent: "absent", Dormant: "dormant", Loading: "loading", Loaded: "loaded", HandedOver: "handed over"}

// String returns the residence's name; "dormant" is also the metrics'
// label of the dormant tables (package table's countTables).
func (r Residence) String() string {
	if r < 0 || int(r) >= len(residences) {
		return fmt.Sprintf("Residence(%d)", int(r))
	}
	return residences[r]
}

// legal reports whether the lifecycle moves a table from residence from
// to residence to. A dormant table is loaded, or closed, only through
// Loading, so that two requests never load it twice; nothing comes back
// from HandedOver, which the set does not hold.
func legal(from, to Residence) bool {
	switch from {
	case Absent:
		// Read from the store (restore, adopt), or made here (create).
		return to == Dormant || to == Loaded
	case Dormant:
		// Loaded or closed; forgotten (a fresher owner wrote since); its
		// lease lost.
		return to == Loading || to == Absent || to == HandedOver
	case Loading:
		// Loaded; broken, closed by the sweep or forgotten; its lease
		// lost meanwhile.
		return to == Loaded || to == Absent || to == HandedOver
	case Loaded:
		// Asleep (evict); over or expired, forgotten; its lease lost.
		return to == Dormant || to == Absent || to == HandedOver
	}
	return false
}
