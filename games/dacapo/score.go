package dacapo

import "tapis/game"

// stalemateEnd ends a game that can no longer move: [decision of RULES.md]
// the draw pile and the set-aside piles are empty and a whole round of
// turns passed with no personal-pile card played. The fewest personal
// cards win; ties share the win.
func (st *State) stalemateEnd(log *game.Log) {
	fewest := st.nStock[0]
	for s := 1; s < int(st.n); s++ {
		fewest = min(fewest, st.nStock[s])
	}
	var w game.Seats
	for s := 0; s < int(st.n); s++ {
		if st.nStock[s] == fewest {
			w = w.With(game.Seat(s))
		}
	}
	st.endGame(w, true, log)
}

// endGame scores a finished game for its winners: each scores 1 point
// per card left in the other players' personal piles ([decision] a shared
// win scores the same for each winner, co-winners' piles included). The
// match then ends, or the next game is dealt.
func (st *State) endGame(w game.Seats, stalemate bool, log *game.Log) {
	total := 0
	for s := 0; s < int(st.n); s++ {
		total += int(st.nStock[s])
	}
	for s := 0; s < int(st.n); s++ {
		st.roundScores[s] = 0
		if w.Has(game.Seat(s)) {
			st.roundScores[s] = total - int(st.nStock[s])
			st.scores[s] += st.roundScores[s]
		}
	}
	st.games++
	st.lastWinners = w
	st.stalemate = stalemate
	if log != nil {
		log.Add(game.Public, Event{
			Type: "game_end", Game: st.games, Winners: w.List(), Stalemate: stalemate,
			RoundScores: append([]int(nil), st.roundScores[:st.n]...),
			Scores:      append([]int(nil), st.scores[:st.n]...),
		})
	}
	if st.opt.MatchTarget == 0 {
		st.finish(w, log)
		return
	}
	best := 0
	for s := 0; s < int(st.n); s++ {
		best = max(best, st.scores[s])
	}
	if best < st.opt.MatchTarget {
		st.deal(log)
		return
	}
	// [decision] Whoever reached the target with the highest score wins
	// the match; ties share it.
	var mw game.Seats
	for s := 0; s < int(st.n); s++ {
		if st.scores[s] == best {
			mw = mw.With(game.Seat(s))
		}
	}
	st.finish(mw, log)
}

func (st *State) finish(w game.Seats, log *game.Log) {
	st.over = true
	st.winners = w
	if log != nil {
		log.Add(game.Public, Event{Type: "game_over", Winners: w.List(), Scores: append([]int(nil), st.scores[:st.n]...)})
	}
}
