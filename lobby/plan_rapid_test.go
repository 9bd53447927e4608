package lobby

import (
	"fmt"
	"testing"
	"time"

	"pgregory.net/rapid"

	"tapis/store"
)

// TestPlanProperties checks, for any game bounds, queue and time, what
// Plan promises:
//
//   - every group has from min to max seats and from 1 to that many people;
//   - every entry is in at most one group, and only waiting entries whose
//     count the game allows are seated;
//   - everyone who asked for n players sits at a table of n;
//   - a group with free seats holds, first, an entry whose wait is over,
//     whose bot level fills them, and nobody who waits "never"; a group
//     without free seats names no bot;
//   - among the entries left waiting, nobody's wait is over, and no table
//     of people alone could be formed: for every size k one of them
//     accepts, fewer than k of them accept k.
//
// The last point is what makes Plan complete: it never leaves waiting
// somebody it could have seated by its own rules.
func TestPlanProperties(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		min := rapid.IntRange(1, 4).Draw(t, "min")
		max := rapid.IntRange(min, min+4).Draw(t, "max")
		n := rapid.IntRange(0, 16).Draw(t, "entries")
		var entries []store.Entry
		for i := range n {
			e := store.Entry{
				Player: fmt.Sprintf("p%d", i),
				Game:   "g",
				Bot:    rapid.SampledFrom([]string{"random", "easy", "normal", "hard"}).Draw(t, "bot"),
				Joined: t0.Add(time.Duration(rapid.IntRange(0, 60).Draw(t, "joined")) * time.Second),
				Wait:   time.Duration(rapid.IntRange(-1, 60).Draw(t, "wait")) * time.Second,
			}
			if rapid.IntRange(0, 2).Draw(t, "any") > 0 {
				e.Players = rapid.IntRange(min-1, max+1).Draw(t, "players")
			}
			if rapid.IntRange(0, 9).Draw(t, "seated") == 0 {
				e.Table = "t"
			}
			entries = append(entries, e)
		}
		now := t0.Add(time.Duration(rapid.IntRange(0, 120).Draw(t, "now")) * time.Second)

		groups := Plan(now, entries, min, max)

		accepts := func(e store.Entry, k int) bool { return e.Players == 0 || e.Players == k }
		valid := func(e store.Entry) bool {
			return e.Table == "" && (e.Players == 0 || (e.Players >= min && e.Players <= max))
		}
		seen := map[string]bool{}
		for _, g := range groups {
			if g.Seats < min || g.Seats > max {
				t.Fatalf("group %s: %d seats, the game takes %d to %d", describe([]Group{g}), g.Seats, min, max)
			}
			if len(g.People) < 1 || len(g.People) > g.Seats {
				t.Fatalf("group %s: %d people at %d seats", describe([]Group{g}), len(g.People), g.Seats)
			}
			for _, e := range g.People {
				if seen[e.Player] {
					t.Fatalf("%s seated twice: %s", e.Player, describe(groups))
				}
				seen[e.Player] = true
				if !valid(e) {
					t.Fatalf("%s seated though it cannot be (table %q, %d players)", e.Player, e.Table, e.Players)
				}
				if !accepts(e, g.Seats) {
					t.Fatalf("%s asked for %d players, seated at %d", e.Player, e.Players, g.Seats)
				}
				if g.Bots() > 0 && e.Wait < 0 {
					t.Fatalf("%s waits never, seated with %d bots", e.Player, g.Bots())
				}
			}
			if g.Bots() > 0 {
				if first := g.People[0]; !over(now, first) || g.Bot != first.Bot {
					t.Fatalf("group %s has bots: its first entry's wait over %v, level %q", describe([]Group{g}), over(now, first), first.Bot)
				}
			} else if g.Bot != "" {
				t.Fatalf("group %s is full of people but names bot %q", describe([]Group{g}), g.Bot)
			}
		}
		var left []store.Entry
		for _, e := range entries {
			if valid(e) && !seen[e.Player] {
				left = append(left, e)
			}
		}
		for _, e := range left {
			if over(now, e) {
				t.Fatalf("%s left waiting though its wait is over (joined %v, wait %v, now %v)", e.Player, e.Joined, e.Wait, now)
			}
			for k := min; k <= max; k++ {
				if !accepts(e, k) {
					continue
				}
				count := 0
				for _, o := range left {
					if accepts(o, k) {
						count++
					}
				}
				if count >= k {
					t.Fatalf("%s left waiting though %d people left accept a table of %d: %s", e.Player, count, k, describe(groups))
				}
			}
		}
	})
}
