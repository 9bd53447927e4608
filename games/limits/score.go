package limits

import "tapis/game"

// accuse resolves seat s's accusation of seat t (RULES.md §3, Resolve),
// then ends the game or cleans up and starts the next round.
func (st *State) accuse(s, t game.Seat, log *game.Log) {
	top := st.last[t]
	c := st.pile[top]
	// Only the cards up to and including the suspect's last card count.
	count := st.upTo[top]
	limit := limitTable[st.cur-1][c]
	if limit != X {
		for j := 0; j < int(st.n); j++ {
			limit += st.hidden[j][c]
		}
	}
	over := limit != X && count > limit
	taker, gainer := s, t
	if over {
		taker, gainer = t, s
	}
	st.taken[taker]++
	st.points[gainer]++
	// [decision, 2026-11-24] A round's scores are the accusation's and
	// the exchanges' of that round, so that they add up to the scores.
	st.roundScores = st.gained
	st.roundScores[taker] -= 2
	st.roundScores[gainer]++
	st.gained = [MaxPlayers]int{}
	st.rounds++
	st.acc = accusation{
		done: true, accuser: s, suspect: t, colour: c, count: count, limit: limit,
		over: over, taker: taker, card: st.cur, hidden: st.hidden,
	}
	if log != nil {
		log.Add(game.Public, Event{Type: "accuse", Seat: s, Accusation: st.accusationJSON()})
	}
	if st.nLimits == 0 {
		// The last limit card is taken: the game ends at once, the hidden
		// cards revealed where they lie.
		st.reveal()
		st.finish(log)
		return
	}
	st.cleanUp(taker, log)
	st.startRound(log)
}

// cleanUp ends a round (RULES.md §3, Clean up): hidden cards back to hand,
// the active pile under the draw pile, hands refilled.
func (st *State) cleanUp(leader game.Seat, log *game.Log) {
	for j := 0; j < int(st.n); j++ {
		h, hand, kh, kd := &st.hidden[j], &st.hand[j], &st.knownHand[j], &st.knownHeld[j]
		for c := range h {
			hand[c] += h[c]
			// The hidden cards were revealed: the hand held the cards
			// known held that were not hidden, and takes the hidden ones.
			kh[c] += max(kd[c]-h[c], 0) + h[c]
		}
		*kd = [Colours]int8{}
		*h = [Colours]int8{}
		st.nHand[j] += st.hideN
	}
	// [decision] The pile is turned face down, as at the table, so its
	// first card lies uppermost and is drawn first.
	k := st.nPile
	copy(st.draw[k:], st.draw[:st.nDraw])
	for i := int8(0); i < k; i++ {
		st.draw[i] = st.pile[k-1-i]
	}
	st.nDraw += k
	st.nPile = 0
	st.leader = leader
	// [decision] The next leader refills first, then clockwise.
	s := leader
	for i := int8(0); i < st.n; i++ {
		// Hands are full unless the draw pile ran dry during the round.
		if need := st.handSize - st.nHand[s]; need > 0 {
			st.drawN(s, need, log)
		}
		s = st.next(s)
	}
}

// reveal records, at the game's end, what the revealed hidden cards tell:
// the cards known held that were not hidden are in the hand.
func (st *State) reveal() {
	for j := 0; j < int(st.n); j++ {
		for c := range st.knownHeld[j] {
			st.knownHand[j][c] += max(st.knownHeld[j][c]-st.hidden[j][c], 0)
		}
		st.knownHeld[j] = [Colours]int8{}
	}
}

// finish ends the game: the highest score wins, ties share.
func (st *State) finish(log *game.Log) {
	best := st.Score(0)
	for s := game.Seat(1); s < game.Seat(st.n); s++ {
		best = max(best, st.Score(s))
	}
	st.winners = 0
	for s := game.Seat(0); s < game.Seat(st.n); s++ {
		if st.Score(s) == best {
			st.winners = st.winners.With(s)
		}
	}
	st.phase = phaseOver
	if log != nil {
		res := st.Result()
		log.Add(game.Public, Event{Type: "game_over", Winners: res.Winners, Scores: res.Scores})
	}
}
