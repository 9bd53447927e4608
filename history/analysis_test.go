package history

import (
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"net/http"
	"testing"

	"tapis/analysis"
	"tapis/games"
	"tapis/limit"
	"tapis/store"
)

// A match's analysis is never served, nor computed, while the match runs
// (409 not_over, nothing queued); once it is over the first request
// finds it pending (202) and queues it, and once the worker has run the
// report is served, the same at every request after.
func TestAnalysisOnlyOnceOver(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	sv := play(t, "tab", 1, 7)
	st := store.NewMemory()
	if err := st.CreateTable(ctx, store.Table{ID: "tab", Game: sv.Game, Players: sv.Players, Options: sv.Options, Seats: sv.Seats},
		&store.Start{No: 1, Seed: sv.Match.Seed}); err != nil {
		t.Fatal(err)
	}
	for i, m := range sv.Match.Moves {
		if err := st.AppendMove(ctx, "tab", 1, i, m); err != nil {
			t.Fatal(err)
		}
	}
	w := analysis.NewWorker(analysis.Config{Store: st, Games: games.All(), Playouts: 60})
	s := New(Config{Store: st, Games: games.All(), Slots: limit.NewFair(1, 1), Analyses: w,
		Network: func(*http.Request) string { return "net" }, Logger: slog.New(slog.NewTextHandler(io.Discard, nil))})
	mux := http.NewServeMux()
	s.Routes(mux)
	const path = "/api/tables/tab/matches/1/analysis"

	// Every move is stored, but the match is not marked over.
	var e struct{ Code string }
	if r := get(t, mux, path, &e); r.Code != http.StatusConflict || e.Code != "not_over" {
		t.Fatalf("before the end: %d %+v", r.Code, e)
	}
	if w.Pending("tab", 1) {
		t.Fatal("a match still running was queued for analysis")
	}

	if err := st.EndMatch(ctx, "tab", 1); err != nil {
		t.Fatal(err)
	}
	var p struct{ Status string }
	if r := get(t, mux, path, &p); r.Code != http.StatusAccepted || p.Status != "pending" || r.Header().Get("Retry-After") == "" {
		t.Fatalf("first request once over: %d %+v", r.Code, p)
	}
	if !w.Pending("tab", 1) {
		t.Fatal("the finished match was not queued")
	}
	ended := w.Ended()
	go w.Run(ctx)
	<-ended
	var rep analysis.Report
	r := get(t, mux, path, &rep)
	if r.Code != http.StatusOK || rep.Status != "ready" || rep.Table != "tab" || rep.Match != 1 || len(rep.Moves) == 0 {
		t.Fatalf("once analysed: %d %+v", r.Code, rep)
	}
	// Seats 0 and 2 are people, seat 1 a bot (play).
	if len(rep.Players) != 2 || rep.Players[0].Seat != 0 || rep.Players[1].Seat != 2 {
		t.Fatalf("players %+v", rep.Players)
	}
	kept, err := st.Analysis(ctx, "tab", 1)
	if err != nil {
		t.Fatal(err)
	}
	var again analysis.Report
	if r := get(t, mux, path, &again); r.Code != http.StatusOK || r.Body.String() != string(kept) {
		t.Fatalf("second request: %d, not the kept report", r.Code)
	}
	if b, _ := json.Marshal(again); len(b) == 0 || w.Pending("tab", 1) {
		t.Fatal("analysed again")
	}
}
