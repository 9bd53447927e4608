package server_test

import (
	"net/http"
	"testing"
)

// A finished table's page survives a restart (issue 26): the table reads
// as over with its result, and its player's token still opens it, where
// it was "not found" before (adopt took an over match for a closed one).
func TestRestartFinishedTable(t *testing.T) {
	open := reopener(t)
	cfg := testConfig()
	cfg.Store = open()
	h1 := newHarness(t, cfg)
	a := h1.create("cabo", []string{"", "random"}, "Ann", "")
	end, err := playRandom(h1.dial(a.Table, a.Token), a.Seat, 1, 1<<30)
	if err != nil {
		t.Fatal(err)
	}
	if end.Status != "over" || len(end.Result.Winners) == 0 {
		t.Fatalf("the game ended as %+v", end)
	}
	cfg.Store.Close()
	h1.stop()

	cfg2 := testConfig()
	cfg2.Store = open()
	t.Cleanup(func() { cfg2.Store.Close() })
	h2 := newHarness(t, cfg2)
	if code, st := status(t, h2, a.Table); code != http.StatusOK || st != "over" {
		t.Fatalf("after the restart, the finished table answers %d %q", code, st)
	}
	c := h2.dial(a.Table, a.Token)
	if w := c.next("welcome"); w.Seat != a.Seat {
		t.Fatalf("after the restart: welcomed as seat %d, was %d", w.Seat, a.Seat)
	}
	s := c.next("state")
	if s.Status != "over" || len(s.Result.Winners) == 0 || s.N != end.N {
		t.Fatalf("after the restart: the finished table shows %s at move %d (was %d), result %+v", s.Status, s.N, end.N, s.Result)
	}
}
