package lobby

import (
	"slices"
	"strings"
	"time"

	"tapis/store"
)

// Group is one table Plan would seat: the people to seat together and the
// number of seats; bots of level Bot take the seats left free.
type Group struct {
	// People are the entries seated together, the entry the table was
	// planned for first, then the others oldest first.
	People []store.Entry
	// Seats is the table's number of players.
	Seats int
	// Bot is the level of the bots given the Seats-len(People) free
	// seats: the level asked for by the entry whose wait was over. It is
	// empty when people fill every seat.
	Bot string
}

// Bots is the number of seats the group leaves to bots.
func (g Group) Bots() int { return g.Seats - len(g.People) }

// Plan says which of one game's waiting entries to seat now, and at which
// tables, for a game that takes min to max players. It is pure and
// deterministic: the same entries in any order, at the same now, give the
// same groups (entries are taken oldest first, by Joined, then by player
// id).
//
// An entry that asks for n players only sits at a table of n; one that asks
// for 0 sits at any table the game allows. Entries already seated (Table
// set) or asking for a count the game cannot seat are left out.
//
// Plan works in two passes, because people would rather play people than
// bots, and a player who asks for "any" count expects to be seated as soon
// as somebody else is there to play, not after waiting for a full table of
// the largest size:
//
//  1. People with people. For each entry, oldest first, Plan looks at every
//     table size k the entry accepts and gathers the entry with the oldest
//     others still waiting that accept k, up to k of them. If some k is
//     filled by people alone, the largest such k is seated. So two "any"
//     players are seated together at once at the game's minimum, and a
//     third already waiting sits with them; more people than the largest
//     table make several tables.
//  2. Bots for those who have waited long enough. For each entry left,
//     oldest first, whose wait is over (Wait not negative and now at least
//     Joined+Wait), Plan seats it with the people still waiting who accept
//     the same table size, choosing the size that seats the most of them
//     (the smallest such size, so the fewest bots), and bots of the entry's
//     level take the free seats. The table has the entry's count if it asked
//     for one, else the game's minimum, or more if more people come along.
//     Entries that wait "never" (negative Wait) are not seated with bots,
//     even at another entry's table: they asked for people only.
//
// After Plan, among the entries left: no table of people alone can be
// formed, and no entry's wait is over. Every group has between min and max
// seats and at least one person, and its seat count is the count asked for
// by every person in it who asked for one. A group with bots holds an entry
// whose wait is over and no entry that waits "never".
func Plan(now time.Time, entries []store.Entry, min, max int) []Group {
	return PlanApart(now, entries, min, max, nil)
}

// Apart reports whether two players must not sit at one table (one
// blocked the other, issue 29); it is asked of two distinct players, in
// either order.
type Apart func(a, b string) bool

// PlanApart is Plan where no group holds two players apart says must sit
// apart (apart nil: none). A player is then gathered with the others not
// apart from anyone gathered before them, oldest first, as Plan would;
// one left waiting for that is seated later with others, or with bots
// when their wait is over.
func PlanApart(now time.Time, entries []store.Entry, min, max int, apart Apart) []Group {
	waiting := make([]store.Entry, 0, len(entries))
	for _, e := range entries {
		if e.Table != "" || (e.Players != 0 && (e.Players < min || e.Players > max)) {
			continue
		}
		waiting = append(waiting, e)
	}
	slices.SortStableFunc(waiting, func(a, b store.Entry) int {
		if c := a.Joined.Compare(b.Joined); c != 0 {
			return c
		}
		return strings.Compare(a.Player, b.Player)
	})
	p := planner{waiting: waiting, taken: make([]bool, len(waiting)), min: min, max: max, apart: apart}
	var groups []Group
	// One sweep finds every table of people: taking entries only shrinks
	// what the entries passed over could gather, so none of them can
	// fill a table later in the sweep.
	for i := range p.waiting {
		if p.taken[i] {
			continue
		}
		best := -1
		for _, k := range p.sizes(i) {
			if len(p.gather(i, k, false)) == k {
				best = k
			}
		}
		if best > 0 {
			groups = append(groups, p.take(p.gather(i, best, false), best, ""))
		}
	}
	for i, e := range p.waiting {
		if p.taken[i] || !over(now, e) {
			continue
		}
		best, most := 0, 0
		for _, k := range p.sizes(i) {
			if n := len(p.gather(i, k, true)); n > most {
				best, most = k, n
			}
		}
		if best == 0 {
			continue // a game that allows no table size
		}
		groups = append(groups, p.take(p.gather(i, best, true), best, e.Bot))
	}
	return groups
}

// over reports whether e has waited for people as long as it would.
func over(now time.Time, e store.Entry) bool {
	return e.Wait >= 0 && !now.Before(e.Joined.Add(e.Wait))
}

// planner is Plan's working state: the waiting entries oldest first, and
// which of them a group already took.
type planner struct {
	waiting  []store.Entry
	taken    []bool
	min, max int
	apart    Apart
}

// sizes are the table sizes entry i accepts, smallest first.
func (p *planner) sizes(i int) []int {
	if n := p.waiting[i].Players; n != 0 {
		return []int{n}
	}
	var out []int
	for k := p.min; k <= p.max; k++ {
		out = append(out, k)
	}
	return out
}

// gather returns the indexes of entry i and of the oldest other entries not
// taken that accept a table of k, up to k in all, none apart from those
// gathered before it. With bots, entries that wait "never" are left out.
func (p *planner) gather(i, k int, bots bool) []int {
	out := []int{i}
	for j, e := range p.waiting {
		if len(out) == k {
			break
		}
		if j == i || p.taken[j] || (e.Players != 0 && e.Players != k) || (bots && e.Wait < 0) || !p.fits(out, j) {
			continue
		}
		out = append(out, j)
	}
	return out
}

// fits reports whether entry j may sit with the entries at idx.
func (p *planner) fits(idx []int, j int) bool {
	if p.apart == nil {
		return true
	}
	for _, i := range idx {
		if p.apart(p.waiting[i].Player, p.waiting[j].Player) {
			return false
		}
	}
	return true
}

// take marks the entries at idx as taken and returns their group.
func (p *planner) take(idx []int, seats int, bot string) Group {
	g := Group{Seats: seats}
	for _, j := range idx {
		p.taken[j] = true
		g.People = append(g.People, p.waiting[j])
	}
	if g.Bots() > 0 {
		g.Bot = bot
	}
	return g
}
