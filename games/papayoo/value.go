package papayoo

import "tapis/game"

// Rounds implements game.Valuer.
func (st *State) Rounds() int { return st.rounds }

// valueScale is the round's points that count as a total loss in Value:
// a round rarely costs more, and a scale near the points at stake keeps
// the rewards of a search spread over [0, 1].
const valueScale = 100

// Value implements game.Valuer: how few points seat s took in the last
// finished round, 1 for none, 0 for valueScale or more. Play is scored by
// points, and the round's 250 points are shared, so this is linear in the
// seat's points and in its lead over the others alike.
func (st *State) Value(s game.Seat) float64 {
	if s < 0 || int(s) >= int(st.n) || st.rounds == 0 {
		return 0.5
	}
	v := 1 - float64(st.roundScores[s])/valueScale
	return max(v, 0)
}

// InfoKey implements game.Keyer: a hash of what seat s knows: its hand
// and pass, the cards it received, who has passed, the die, every card
// played and by whom, the trick on the table, the points taken and the
// scores.
func (st *State) InfoKey(s game.Seat) uint64 {
	h := uint64(st.rounds)<<40 | uint64(st.phase)<<32 | uint64(st.passed)<<16 | uint64(uint8(st.die))<<8 | uint64(uint8(st.turn))
	h = mix(h)
	if s >= 0 && int(s) < int(st.n) {
		h = mix(h ^ st.hands[s])
		h = mix(h ^ st.pass[s])
		if st.phase == phasePlay {
			h = mix(h ^ st.pass[st.prev(s)])
		}
	}
	for t := 0; t < int(st.n); t++ {
		h = mix(h ^ st.playedBy[t])
		h = mix(h ^ uint64(uint32(st.taken[t])) ^ uint64(uint32(st.scores[t]))<<32)
	}
	return mix(h ^ uint64(st.nTrick)<<56 ^ uint64(uint8(st.leader)))
}

// mix is splitmix64's finaliser.
func mix(x uint64) uint64 {
	x += 0x9e3779b97f4a7c15
	x = (x ^ x>>30) * 0xbf58476d1ce4e5b9
	x = (x ^ x>>27) * 0x94d049bb133111eb
	return x ^ x>>31
}

// Determinable implements game.Determinable: a search may decide the
// play of cards by perfect-information Monte Carlo, not the pass. The
// pass is chosen before any card is played, knowing nothing of the other
// hands, and its worth shows only tricks later: a search of each world,
// seeing the hands it passes to and receives from, plans on cards that
// no trick has shown (over 16 games against three heuristics, PIMC at
// the pass too took 89% of their points a round, at play only 58%:
// docs/bots.md, PIMC).
func (st *State) Determinable(game.Seat) bool { return st.phase == phasePlay }
