package cabo

import "tapis/game"

// RoundEnd is a finished round, revealed to everyone.
type RoundEnd struct {
	Hands    [][]int     `json:"hands"`  // every slot; -1 for an empty one
	Totals   []int       `json:"totals"` // hand totals
	Scores   []int       `json:"round_scores"`
	Caller   game.Seat   `json:"caller"`   // -1: nobody called
	Kamikaze game.Seat   `json:"kamikaze"` // -1: nobody
	Winners  []game.Seat `json:"winners"`
	Reset    []game.Seat `json:"reset"` // players dropped back from exactly 100
}

// lastRound keeps the previous round's reveal in fixed arrays, so that
// ending a round in a playout allocates nothing; RoundEnd is built from it
// on demand.
type lastRound struct {
	hands    [MaxPlayers][MaxSlots]int8
	totals   [MaxPlayers]int
	caller   game.Seat
	kamikaze game.Seat
	winners  game.Seats
	reset    game.Seats
}

func (st *State) roundEnd() *RoundEnd {
	l, n := &st.last, int(st.n)
	e := &RoundEnd{Caller: l.caller, Kamikaze: l.kamikaze, Winners: l.winners.List(), Reset: l.reset.List()}
	for s := 0; s < n; s++ {
		h := make([]int, st.opt.HandSize)
		for i := range h {
			h[i] = int(l.hands[s][i])
		}
		e.Hands = append(e.Hands, h)
	}
	e.Totals = append([]int(nil), l.totals[:n]...)
	e.Scores = append([]int(nil), st.roundScores[:n]...)
	return e
}

// endRound scores the round (RULES.md §1, "Round end and score" and "Game
// end"), then ends the game or deals the next round.
func (st *State) endRound(log *game.Log) {
	n := int(st.n)
	var totals [MaxPlayers]int
	kamikaze := game.Seat(-1)
	for s := 0; s < n; s++ {
		var cards, twelves, thirteens int
		for _, c := range st.hands[s][:st.opt.HandSize] {
			if c == none {
				continue
			}
			totals[s] += int(c)
			cards++
			switch c {
			case 12:
				twelves++
			case 13:
				thirteens++
			}
		}
		if cards == 4 && twelves == 2 && thirteens == 2 {
			kamikaze = game.Seat(s)
		}
	}
	var winners game.Seats
	sc := &st.roundScores
	if kamikaze >= 0 {
		for s := 0; s < n; s++ {
			sc[s] = 50
		}
		sc[kamikaze] = 0
		winners = game.Only(kamikaze)
	} else {
		low := totals[0]
		for s := 1; s < n; s++ {
			low = min(low, totals[s])
		}
		for s := 0; s < n; s++ {
			sc[s] = totals[s]
			if totals[s] == low {
				winners = winners.With(game.Seat(s))
			}
		}
		switch {
		case st.caller >= 0 && winners.Has(st.caller):
			// The caller among the lowest wins alone.
			winners = game.Only(st.caller)
		case st.caller >= 0:
			sc[st.caller] += 5
		}
		for s := 0; s < n; s++ {
			if winners.Has(game.Seat(s)) {
				sc[s] = 0
			}
		}
	}
	var reset game.Seats
	over := false
	for s := 0; s < n; s++ {
		st.scores[s] += sc[s]
		if st.scores[s] == 100 && (st.opt.MaxResets < 0 || st.resets[s] < st.opt.MaxResets) {
			st.scores[s] = st.opt.ResetAt100To
			st.resets[s]++
			reset = reset.With(game.Seat(s))
		}
		over = over || st.scores[s] > 100
	}
	st.rounds++
	st.last = lastRound{hands: st.hands, totals: totals, caller: st.caller, kamikaze: kamikaze, winners: winners, reset: reset}
	if log != nil {
		log.Add(game.Public, Event{Type: "round_end", End: st.roundEnd()})
	}
	if over {
		st.finish(log)
		return
	}
	st.deal(st.starter(winners), log)
}

// starter is who opens the next round: the round's winner; among several,
// the lowest cumulative score; still tied, one drawn at random.
func (st *State) starter(winners game.Seats) game.Seat {
	best := -1
	var tied game.Seats
	for s := 0; s < int(st.n); s++ {
		if !winners.Has(game.Seat(s)) {
			continue
		}
		switch {
		case best < 0 || st.scores[s] < best:
			best, tied = st.scores[s], game.Only(game.Seat(s))
		case st.scores[s] == best:
			tied = tied.With(game.Seat(s))
		}
	}
	if tied.Len() == 1 {
		return tied.First()
	}
	return tied.Nth(st.rng.IntN(tied.Len()))
}

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
	st.drawn = none
	if log != nil {
		log.Add(game.Public, Event{Type: "game_over", Winners: st.winners.List(), Scores: append([]int(nil), st.scores[:st.n]...)})
	}
}
