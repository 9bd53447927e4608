package lobby

import (
	"context"
	"fmt"
	"testing"
	"time"

	"pgregory.net/rapid"

	"tapis/store"
)

// Quick match never seats together two players one of whom blocked the
// other (issue 29).

func TestPlanApartKeepsBlockedPlayersApart(t *testing.T) {
	apart := func(a, b string) bool { return a+b == "ab" || a+b == "ba" }
	es := []store.Entry{entry("a", 2, DefaultWait, 0), entry("b", 2, DefaultWait, 1), entry("c", 2, DefaultWait, 2)}
	if got, want := describe(Plan(t0.Add(time.Second*3), es, 2, 4)), "a,b/2"; got != want {
		t.Fatalf("Plan = %q, want %q", got, want)
	}
	if got, want := describe(PlanApart(t0.Add(time.Second*3), es, 2, 4, apart)), "a,c/2"; got != want {
		t.Fatalf("PlanApart = %q, want %q (a blocked b)", got, want)
	}
	// Alone with the one they blocked, each waits, then plays bots.
	es = es[:2]
	if got := describe(PlanApart(t0.Add(time.Second*3), es, 2, 4, apart)); got != "" {
		t.Fatalf("PlanApart = %q, want nobody seated before their wait is over", got)
	}
	if got, want := describe(PlanApart(t0.Add(time.Hour), es, 2, 4, apart)), "a/2:easy b/2:easy"; got != want {
		t.Fatalf("PlanApart after the wait = %q, want %q", got, want)
	}
}

func TestStepSeatsNoBlockedPair(t *testing.T) {
	ctx := context.Background()
	q := store.NewMemory()
	for _, p := range []string{"a", "b", "c", "d"} {
		if err := q.CreatePlayer(ctx, store.Player{ID: p, Name: p, Created: t0}); err != nil {
			t.Fatal(err)
		}
	}
	// b blocked a: the block holds either way.
	if err := q.Block(ctx, "b", "a", t0); err != nil {
		t.Fatal(err)
	}
	enqueue(t, q, entry("a", 2, DefaultWait, 0), entry("b", 2, DefaultWait, 1))
	m := matcher(q, "t")
	m.Blocks = q
	tables, err := m.Step(ctx, t0.Add(2*time.Second))
	if err != nil || len(tables) != 0 {
		t.Fatalf("Step seated %+v (err %v), want a and b left waiting", tables, err)
	}
	enqueue(t, q, entry("c", 2, DefaultWait, 2), entry("d", 2, DefaultWait, 3))
	if tables, err = m.Step(ctx, t0.Add(4*time.Second)); err != nil || len(tables) != 2 {
		t.Fatalf("Step seated %+v (err %v), want two tables", tables, err)
	}
	for _, tb := range tables {
		var ps []string
		for _, s := range tb.Seats {
			ps = append(ps, s.Player)
		}
		if len(ps) == 2 && (ps[0]+ps[1] == "ab" || ps[0]+ps[1] == "ba") {
			t.Fatalf("a and b seated together at %s", tb.ID)
		}
	}
}

// TestPlanApartProperties: for any queue and any blocks, no group holds
// two players apart, nobody is seated twice, and everyone whose wait is
// over is seated (with bots if need be).
func TestPlanApartProperties(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		min := rapid.IntRange(1, 4).Draw(t, "min")
		max := rapid.IntRange(min, min+4).Draw(t, "max")
		n := rapid.IntRange(0, 12).Draw(t, "entries")
		var entries []store.Entry
		for i := range n {
			entries = append(entries, store.Entry{
				Player: fmt.Sprintf("p%d", i), Game: "g", Bot: "easy",
				Joined: t0.Add(time.Duration(rapid.IntRange(0, 60).Draw(t, "joined")) * time.Second),
				Wait:   time.Duration(rapid.IntRange(0, 60).Draw(t, "wait")) * time.Second,
			})
		}
		pairs := map[[2]string]bool{}
		for range rapid.IntRange(0, 2*n).Draw(t, "blocks") {
			a := fmt.Sprintf("p%d", rapid.IntRange(0, n-1).Draw(t, "a"))
			b := fmt.Sprintf("p%d", rapid.IntRange(0, n-1).Draw(t, "b"))
			pairs[[2]string{a, b}], pairs[[2]string{b, a}] = true, true
		}
		apart := func(a, b string) bool { return pairs[[2]string{a, b}] }
		now := t0.Add(time.Duration(rapid.IntRange(0, 120).Draw(t, "now")) * time.Second)
		groups := PlanApart(now, entries, min, max, apart)
		seen := map[string]bool{}
		for _, g := range groups {
			for i, e := range g.People {
				if seen[e.Player] {
					t.Fatalf("%s seated twice: %s", e.Player, describe(groups))
				}
				seen[e.Player] = true
				for _, o := range g.People[:i] {
					if apart(e.Player, o.Player) {
						t.Fatalf("%s and %s seated together: %s", o.Player, e.Player, describe(groups))
					}
				}
			}
		}
		for _, e := range entries {
			if over(now, e) && !seen[e.Player] {
				t.Fatalf("%s left waiting though its wait is over: %s", e.Player, describe(groups))
			}
		}
	})
}
