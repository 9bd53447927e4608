package lobby

import (
	"fmt"
	"math/rand/v2"
	"reflect"
	"strings"
	"testing"
	"time"

	"tapis/store"
)

var t0 = time.Date(2025, 3, 1, 12, 0, 0, 0, time.UTC)

// entry is a Cabo entry of player p, asking for n players, waiting wait
// for people, who joined at second s.
func entry(p string, n int, wait time.Duration, s int) store.Entry {
	return store.Entry{Player: p, Name: "name " + p, Game: "cabo", Players: n, Bot: "easy",
		Wait: wait, Joined: t0.Add(time.Duration(s) * time.Second)}
}

// describe writes groups as "a,b/3:easy" (people/seats:bot), space
// separated, so that a failure shows what Plan did.
func describe(groups []Group) string {
	var out []string
	for _, g := range groups {
		var ids []string
		for _, e := range g.People {
			ids = append(ids, e.Player)
		}
		s := fmt.Sprintf("%s/%d", strings.Join(ids, ","), g.Seats)
		if g.Bot != "" {
			s += ":" + g.Bot
		}
		out = append(out, s)
	}
	return strings.Join(out, " ")
}

func TestPlan(t *testing.T) {
	const min, max = 2, 5 // Cabo's
	hard := entry("h", 4, 10*time.Second, 0)
	hard.Bot = "hard"
	seated := entry("s", 0, 0, 0)
	seated.Table = "t1"
	for _, c := range []struct {
		name    string
		at      int // seconds after t0
		entries []store.Entry
		want    string
	}{
		{"two any players sit together at once at the minimum", 1,
			[]store.Entry{entry("a", 0, DefaultWait, 0), entry("b", 0, DefaultWait, 1)}, "a,b/2"},
		{"a lone any player waits", 1,
			[]store.Entry{entry("a", 0, DefaultWait, 0)}, ""},
		{"any players already waiting all sit together", 3,
			[]store.Entry{entry("a", 0, DefaultWait, 0), entry("b", 0, DefaultWait, 1), entry("c", 0, DefaultWait, 2)}, "a,b,c/3"},
		{"a 3-player request does not sit with a 2-player one", 1,
			[]store.Entry{entry("a", 3, DefaultWait, 0), entry("b", 2, DefaultWait, 1)}, ""},
		{"a 3-player request waits for its third", 2,
			[]store.Entry{entry("a", 3, DefaultWait, 0), entry("b", 3, DefaultWait, 1), entry("c", 0, DefaultWait, 2)}, "a,b,c/3"},
		{"an any player joins a fixed count", 2,
			[]store.Entry{entry("a", 4, DefaultWait, 0), entry("b", 0, DefaultWait, 1), entry("c", 4, DefaultWait, 2), entry("d", 4, DefaultWait, 2)}, "a,b,c,d/4"},
		{"people who can sit together do while an older request waits", 3,
			[]store.Entry{entry("a", 4, DefaultWait, 0), entry("b", 0, DefaultWait, 1), entry("c", 0, DefaultWait, 2)}, "b,c/2"},
		{"wait not over: no bots", 9,
			[]store.Entry{hard}, ""},
		{"wait over: bots of the entry's level up to the count wanted", 10,
			[]store.Entry{hard}, "h/4:hard"},
		{"wait over: the compatible people waiting sit too", 10,
			[]store.Entry{hard, entry("b", 0, DefaultWait, 5), entry("c", 3, DefaultWait, 5)}, "h,b/4:hard"},
		{"wait over for any: the game's minimum", 30,
			[]store.Entry{entry("a", 0, DefaultWait, 0)}, "a/2:easy"},
		{"a zero wait gets bots at once", 0,
			[]store.Entry{entry("a", 3, 0, 0)}, "a/3:easy"},
		{"never never gets bots", 3600,
			[]store.Entry{entry("a", 0, Never, 0)}, ""},
		{"never is not seated at another's table with bots", 30,
			[]store.Entry{entry("a", 3, DefaultWait, 0), entry("b", 3, Never, 1)}, "a/3:easy"},
		{"never sits with people", 1,
			[]store.Entry{entry("a", 0, Never, 0), entry("b", 2, Never, 1)}, "a,b/2"},
		{"wait over for any with specific requests waiting: the size that seats most", 30,
			[]store.Entry{entry("a", 0, DefaultWait, 0), entry("b", 4, DefaultWait, 10), entry("c", 4, DefaultWait, 11), entry("d", 3, DefaultWait, 12)}, "a,b,c/4:easy"},
		{"more people than the largest table: two tables", 1,
			[]store.Entry{entry("a", 0, DefaultWait, 0), entry("b", 0, DefaultWait, 0), entry("c", 0, DefaultWait, 0),
				entry("d", 0, DefaultWait, 0), entry("e", 0, DefaultWait, 0), entry("f", 0, DefaultWait, 0), entry("g", 0, DefaultWait, 0)},
			"a,b,c,d,e/5 f,g/2"},
		{"oldest first", 1,
			[]store.Entry{entry("late", 2, DefaultWait, 3), entry("old", 2, DefaultWait, 0), entry("mid", 2, DefaultWait, 1)}, "old,mid/2"},
		{"same join time: by player id", 1,
			[]store.Entry{entry("z", 2, DefaultWait, 0), entry("x", 2, DefaultWait, 0), entry("y", 2, DefaultWait, 0)}, "x,y/2"},
		{"the oldest whose wait is over gets bots first", 40,
			[]store.Entry{entry("b", 3, DefaultWait, 5), entry("a", 4, DefaultWait, 0)}, "a/4:easy b/3:easy"},
		{"seated entries and impossible counts are left out", 100,
			[]store.Entry{seated, entry("big", 9, 0, 0), entry("a", 2, DefaultWait, 1)}, "a/2:easy"},
	} {
		t.Run(c.name, func(t *testing.T) {
			got := describe(Plan(t0.Add(time.Duration(c.at)*time.Second), c.entries, min, max))
			if got != c.want {
				t.Errorf("Plan = %q, want %q", got, c.want)
			}
		})
	}
}

// TestPlanDeterministic: the same entries in any order give the same
// groups, entry for entry.
func TestPlanDeterministic(t *testing.T) {
	var entries []store.Entry
	for i := range 40 {
		n := []int{0, 0, 2, 3, 4, 5}[i%6]
		wait := []time.Duration{DefaultWait, Never, 0, time.Minute}[i%4]
		entries = append(entries, entry(fmt.Sprintf("p%02d", i), n, wait, i%7))
	}
	now := t0.Add(45 * time.Second)
	want := Plan(now, entries, 2, 5)
	if len(want) == 0 {
		t.Fatal("Plan seated nobody: the test shows nothing")
	}
	r := rand.New(rand.NewPCG(1, 2))
	for range 20 {
		shuffled := append([]store.Entry(nil), entries...)
		r.Shuffle(len(shuffled), func(i, j int) { shuffled[i], shuffled[j] = shuffled[j], shuffled[i] })
		if got := Plan(now, shuffled, 2, 5); !reflect.DeepEqual(got, want) {
			t.Fatalf("shuffled entries: Plan = %s, want %s", describe(got), describe(want))
		}
	}
}
