package table

import (
	"context"
	"testing"
	"time"
)

// A move's store write has at least storeTimeout, as every write does,
// from a context the table keeps for many moves: the same one while it
// has that long left, a new one (the old released) once it has not; the
// host's stopping does not cancel it.
func TestMoveCtx(t *testing.T) {
	host, stop := context.WithCancel(context.Background())
	tb := &table{srv: &Host{ctx: host}}
	a := tb.moveCtx()
	dl, ok := a.Deadline()
	if !ok || time.Until(dl) < storeTimeout {
		t.Fatalf("a move's write has until %v (%v)", dl, ok)
	}
	if b := tb.moveCtx(); b != a {
		t.Fatal("a second move made a new context while the first had time left")
	}
	stop()
	if a.Err() != nil {
		t.Fatal("the host's stopping cancelled a move's write")
	}
	tb.wdl = time.Now().Add(storeTimeout - time.Millisecond)
	b := tb.moveCtx()
	if b == a || a.Err() == nil {
		t.Fatalf("with less than storeTimeout left: a new context %v, the old released %v", b != a, a.Err())
	}
	if dl, _ := b.Deadline(); time.Until(dl) < storeTimeout {
		t.Fatalf("the new context has until %v", dl)
	}
}
