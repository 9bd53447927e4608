package server_test

import (
	"net/http"
	"testing"
	"time"
)

// A table abandoned during its second match (issue 26): after the
// restart that closes it, its page says so, as it was left, with its one
// finished match to link to, where it was "not found"; its socket stays
// refused.
func TestClosedTablePage(t *testing.T) {
	open := reopener(t)
	cfg := testConfig()
	cfg.Store = open()
	h1 := newHarness(t, cfg)
	a := h1.create("cabo", []string{"", "random"}, "Ann", "")
	c := h1.dial(a.Table, a.Token)
	if _, err := playRandom(c, a.Seat, 1, 1<<30); err != nil {
		t.Fatal(err)
	}
	c.send(map[string]any{"type": "again"})
	for m := c.next("state"); m.Match != 2; m = c.next("state") {
	}
	cfg.Store.Close()
	h1.stop()

	cfg2 := testConfig()
	cfg2.Store = open()
	cfg2.AbandonAfter = time.Nanosecond // closed as abandoned at start
	t.Cleanup(func() { cfg2.Store.Close() })
	h2 := newHarness(t, cfg2)
	var closed struct {
		Status, Closed  string
		Match, Finished int
		Seats           []struct{ Name, Bot string }
	}
	for range 2 { // the first asks the store, the second finds it ended
		if code, _ := h2.get("/api/tables/"+a.Table, &closed); code != http.StatusOK || closed.Closed != "abandoned" ||
			closed.Status != "playing" || closed.Match != 2 || closed.Finished != 1 || len(closed.Seats) != 2 || closed.Seats[0].Name != "Ann" {
			t.Fatalf("the abandoned table answers %d %+v", code, closed)
		}
	}
	if _, err := h2.tryDial(a.Table, a.Token); err == nil {
		t.Fatal("the closed table's socket opened")
	}
}
