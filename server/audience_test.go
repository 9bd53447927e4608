package server_test

import (
	"encoding/json"
	"strings"
	"testing"
)

// Finding 4: spectators coming and going do not send the whole table to
// every connection each time: the players get a coalesced count (a
// handful of "watchers" messages, not one "table" message per spectator),
// and a table admits only so many spectators.
func TestSpectatorsSendCountsNotTables(t *testing.T) {
	cfg := testConfig()
	cfg.Limits.Watchers = 40
	h := newHarness(t, cfg)
	ann := h.create("cabo", []string{"", "random"}, "Ann", "")
	a := h.dial(ann.Table, ann.Token)
	a.next("state")
	var specs []*client
	for i := 0; i < 40; i++ {
		specs = append(specs, h.dial(ann.Table, ""))
	}
	if _, err := h.tryDial(ann.Table, ""); err == nil || !strings.Contains(err.Error(), "503") {
		t.Fatalf("a 41st spectator: %v, want 503", err)
	}
	for _, s := range specs[:20] {
		s.ws.CloseNow()
	}
	// Ann is told the count, 20, in the end.
	for a.next("watchers").Count != 20 {
	}
	tables, watchers := 0, 0
	for _, b := range a.messages() {
		var m struct{ Type string }
		json.Unmarshal(b, &m)
		switch m.Type {
		case "table":
			tables++
		case "watchers":
			watchers++
		}
	}
	// 60 comings and goings; the count is sent at most once a second.
	if tables > 2 || watchers > 10 {
		t.Fatalf("60 spectators coming and going sent Ann %d table and %d watchers messages", tables, watchers)
	}
}
