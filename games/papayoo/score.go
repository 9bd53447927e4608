package papayoo

import (
	"fmt"

	"tapis/game"
)

// endTrick gives the trick to the highest card of the led suit; its
// winner takes the points and leads the next trick, or the round ends.
func (st *State) endTrick(log *game.Log) {
	w := st.winner
	st.taken[w] += st.trickPts
	st.last = lastTrick{cards: st.trick, leader: st.leader, winner: w, points: st.trickPts, valid: true}
	if log != nil {
		st.logTrick(log)
	}
	st.nTrick, st.led, st.best, st.trickPts = 0, none, none, 0
	st.turn, st.leader = w, w
	if st.hands[w] == 0 {
		st.endRound(log)
	}
}

// logTrick logs the trick just taken, st.last. Apart from endTrick, for
// the same reason as logPlay.
func (st *State) logTrick(log *game.Log) {
	log.Add(game.Public, Event{Type: "trick", Seat: st.last.winner, Points: intPtr(st.last.points), Cards: st.trickNames(&st.last.cards)})
}

func (st *State) trickNames(cards *[MaxPlayers]int8) []string {
	out := make([]string, st.n)
	for i := range out {
		out[i] = CardName(cards[i])
	}
	return out
}

// endRound scores the round, checks that it scored 250 points, and deals
// the next round or ends the game.
func (st *State) endRound(log *game.Log) {
	total := 0
	for s := 0; s < int(st.n); s++ {
		st.roundScores[s] = st.taken[s]
		st.scores[s] += st.taken[s]
		total += st.taken[s]
	}
	if total != RoundPoints {
		// Cards are conserved by construction; a round that does not
		// total 250 is a bug in this engine, never a player's doing.
		panic(fmt.Sprintf("papayoo: round %d scored %d points, not %d", st.rounds+1, total, RoundPoints))
	}
	st.rounds++
	if log != nil {
		log.Add(game.Public, Event{Type: "round_end", Round: st.rounds,
			RoundScores: append([]int(nil), st.roundScores[:st.n]...), Scores: append([]int(nil), st.scores[:st.n]...)})
	}
	if st.rounds >= st.opt.Rounds {
		st.finish(log)
		return
	}
	st.deal(log)
}

// finish ends the game: the lowest cumulative score wins, ties share.
func (st *State) finish(log *game.Log) {
	best := st.scores[0]
	for s := 1; s < int(st.n); s++ {
		best = min(best, st.scores[s])
	}
	st.winners = 0
	for s := 0; s < int(st.n); s++ {
		if st.scores[s] == best {
			st.winners = st.winners.With(game.Seat(s))
		}
	}
	st.phase = phaseOver
	if log != nil {
		log.Add(game.Public, Event{Type: "game_over", Winners: st.winners.List(), Scores: append([]int(nil), st.scores[:st.n]...)})
	}
}
