package game

// Ranks returns each seat's place in a finished game, for ratings: 0 for
// the winners, then the others by score, equal scores sharing a place.
// Which way scores count is read from the winners: every game here names
// as winners the seats with the best total (the lowest in Cabo and
// Papayoo, the highest in Limits and Da Capo!'s match), so if the winners
// hold the lowest score, lower is better, else higher. Only the order of
// the values matters, not the gaps.
func (r Result) Ranks() []int {
	n := len(r.Scores)
	ranks := make([]int, n)
	won := make([]bool, n)
	for _, w := range r.Winners {
		if int(w) >= 0 && int(w) < n {
			won[w] = true
		}
	}
	lowest, best := 0, 0
	for s, v := range r.Scores {
		if s == 0 || v < lowest {
			lowest = v
		}
		if won[s] {
			best = v
		}
	}
	lower := len(r.Winners) > 0 && best == lowest
	for s := range ranks {
		if won[s] {
			continue
		}
		ranks[s] = 1
		for o := range ranks {
			if won[o] || o == s {
				continue
			}
			if lower && r.Scores[o] < r.Scores[s] || !lower && r.Scores[o] > r.Scores[s] {
				ranks[s]++
			}
		}
	}
	return ranks
}
