package bot

import (
	"sort"

	"tapis/game"
)

// chooseFlat judges the game's plans (game.Planner) at a decision the
// game says may not be determinized yet (Papayoo's pass) by flat Monte
// Carlo with common random numbers: every plan is played, then played
// out by the playout policy, on the same drawn states with the same
// playout randomness, so that plans that differ by a card are compared
// on the same deals rather than on their luck. The budget is the
// decision's iterations times the plans' length, one search for the
// whole plan instead of one a move, spent by successive halving: each of
// some log2(plans) rounds shares an equal part of it among the plans
// left, and keeps the better half. No plan is credited ahead: the
// policy's, the first, wins only ties. It returns the first move of the
// best and keeps the rest (as choosePlan); false when the game lists no
// plans here, or the search is bounded by time (hard@300ms), which then
// searches single moves.
func (p *Search) chooseFlat(k game.Knowledge) (game.Move, bool) {
	if p.budgetHere(k) <= 0 {
		return 0, false // a time budget: the search judges single moves
	}
	root, plan, count := p.plans(k)
	if count == 0 {
		return 0, false
	}
	me := k.Seat()
	alive := make([]int, count)
	for i := range alive {
		alive[i] = i
	}
	sums := make([]float64, count)
	rounds := 0
	for n := count; n > 1; n = (n + 1) / 2 {
		rounds++
	}
	budget := p.budgetHere(k) * len(plan(0))
	seed := p.rng.Uint64()
	after := p.rng
	worlds := 0
	for ; len(alive) > 1; rounds-- {
		more := max(budget/rounds/len(alive), 1)
		budget -= more * len(alive)
		for w := worlds; w < worlds+more; w++ {
			world, roll := commonWorld(k, seed, w)
			for _, i := range alive {
				st := world.Clone()
				end := newBound(st, p.Horizon)
				for _, m := range plan(i) {
					p.apply(st, me, m)
				}
				p.rng = game.NewRNG(roll)
				sums[i] += p.playout(st, &end)[me]
			}
			if p.Yield != nil {
				p.Yield()
			}
		}
		worlds += more
		// The better half, ties to the earlier plan (the policy's first).
		sort.SliceStable(alive, func(a, b int) bool { return sums[alive[a]] > sums[alive[b]] })
		alive = alive[:(len(alive)+1)/2]
		sort.Ints(alive)
	}
	p.rng = after
	return p.keepPlan(root, me, plan(alive[0])), true
}
