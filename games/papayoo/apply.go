package papayoo

import (
	"math/bits"

	"tapis/game"
)

// Apply implements game.State. Every check happens before the first change,
// so a refused move leaves the state exactly as it was.
func (st *State) Apply(s game.Seat, gm game.Move, log *game.Log) error {
	// The common case first, checked in a few instructions: the turn
	// seat plays one card it may play.
	if st.phase == phasePlay && s == st.turn && gm&^cardBits == play {
		x := cardsOf(gm)
		if x != 0 && x&(x-1) == 0 && x&^st.playable(s) == 0 {
			st.play(s, int8(bits.TrailingZeros64(x)), log)
			return nil
		}
	}
	// And a pass step by a seat still choosing, of a card it holds.
	if st.phase == phasePass && gm&^cardBits == passCard && s >= 0 && s < game.Seat(st.n) && !st.passed.Has(s) {
		x := cardsOf(gm)
		if x != 0 && x&(x-1) == 0 && x&^(st.hands[s]&^st.pass[s]) == 0 {
			st.choose(s, x, log)
			return nil
		}
	}
	if err := st.validate(s, gm); err != nil {
		return err
	}
	if kindOf(gm) == Play {
		st.play(s, cardOf(gm), log)
		return nil
	}
	st.choose(s, cardsOf(gm), log)
	return nil
}

// validate returns why seat s may not make move gm now, or nil. The seat
// and the turn are checked before any card, so that an error never tells
// a seat about cards it may not know.
func (st *State) validate(s game.Seat, gm game.Move) error {
	switch {
	case st.phase == phaseOver:
		return deny("", game.ReasonOver, nil, "the game is over")
	case s < 0 || s >= game.Seat(st.n):
		return deny("", game.ReasonNoSeat, map[string]any{"seat": int(s)}, "seat %d is not at this table", s)
	case !wellFormed(gm):
		return deny("", game.ReasonBadMove, nil, "%#x is not a Papayoo move", uint64(gm))
	}
	k := kindOf(gm)
	if st.phase == phasePass {
		if k == Play {
			return deny("play", reasonPassFirst, map[string]any{"n": st.passSize()}, "every player passes %d cards first", st.passSize())
		}
		if st.passed.Has(s) {
			return deny("pass", reasonPassed, map[string]any{"seat": int(s)}, "seat %d has already passed", s)
		}
		set := cardsOf(gm)
		if bad := set &^ st.hands[s]; bad != 0 {
			name := CardName(int8(bits.TrailingZeros64(bad)))
			return deny("pass", reasonNotHeld, map[string]any{"card": name}, "you do not hold %s", name)
		}
		if dup := set & st.pass[s]; dup != 0 {
			name := CardName(int8(bits.TrailingZeros64(dup)))
			return deny("pass", reasonChosen, map[string]any{"card": name}, "%s is already chosen", name)
		}
		chosen, want := bits.OnesCount64(st.pass[s]), st.passSize()
		if k == Pass && chosen+bits.OnesCount64(set) != want {
			if chosen == 0 {
				return deny("pass", reasonPassCount, map[string]any{"n": want}, "pass exactly %d cards", want)
			}
			return deny("pass", reasonPassLeft, map[string]any{"k": chosen, "n": want - chosen}, "%d cards chosen, give the %d left (or one at a time)", chosen, want-chosen)
		}
		return nil
	}
	if k != Play {
		return deny("pass", reasonPassOver, nil, "the pass is over")
	}
	if s != st.turn {
		return deny("play", game.ReasonNotYourTurn, map[string]any{"turn": int(st.turn)}, "it is seat %d's turn", st.turn)
	}
	c := cardOf(gm)
	bit := uint64(1) << uint(c)
	if st.hands[s]&bit == 0 {
		return deny("play", reasonNotHeld, map[string]any{"card": CardName(c)}, "you do not hold %s", CardName(c))
	}
	if st.playable(s)&bit == 0 {
		return deny("play", reasonFollow, map[string]any{"suit": string(suitLetters[st.led])}, "you must follow %s", suitNames[st.led])
	}
	return nil
}

// choose adds cards to seat s's pass. The pass is committed once it has
// its count; the cards move only once every seat has committed, so nobody
// sees what they receive before their own pass is in.
func (st *State) choose(s game.Seat, set uint64, log *game.Log) {
	st.pass[s] |= set
	done := bits.OnesCount64(st.pass[s]) == st.passSize()
	if log != nil {
		if !done {
			log.Add(game.Only(s), Event{Type: "pass_card", Seat: s, Cards: names(set)})
		} else {
			log.Add(game.Only(s), Event{Type: "pass", Seat: s, To: seatPtr(st.next(s)), Cards: names(st.pass[s])})
			log.Add(game.Public, Event{Type: "passed", Seat: s})
		}
	}
	if !done {
		return
	}
	st.passed = st.passed.With(s)
	if st.passed == st.all() {
		st.transfer(log)
	}
}

// transfer moves every pass to the left neighbour at once, rolls the die
// and opens the first trick, which the dealer leads.
func (st *State) transfer(log *game.Log) {
	n := game.Seat(st.n)
	for s := game.Seat(0); s < n; s++ {
		st.hands[s] &^= st.pass[s]
	}
	for s := game.Seat(0); s < n; s++ {
		st.hands[st.next(s)] |= st.pass[s]
	}
	if log != nil {
		for s := game.Seat(0); s < n; s++ {
			to := st.next(s)
			log.Add(game.Only(to), Event{Type: "received", Seat: to, From: seatPtr(s), Cards: names(st.pass[s])})
		}
	}
	st.phase = phasePlay
	st.rollDie(log)
	st.turn, st.leader = st.dealer, st.dealer
}

// play puts card c of seat s on the trick.
func (st *State) play(s game.Seat, c int8, log *game.Log) {
	bit := uint64(1) << uint(c)
	suit := suitOf[c]
	// Each case but the lead also notes what the play suggests seat s
	// does not hold (see infer), before the trick changes: the follows
	// here, in a few instructions, as they are most plays.
	switch {
	case st.nTrick == 0:
		st.led, st.best, st.winner = suit, c, s
	case suit != st.led:
		st.inferDiscard(s, c)
		st.voids[s] |= 1 << uint(st.led)
	case c > st.best:
		// Could not duck: no card under the best one.
		st.shun[s] |= suitMask[suit] & (1<<uint(st.best) - 1)
		st.best, st.winner = c, s
	case c != st.papayoo:
		// Ducked: the highest card under the best one, or the Papayoo,
		// would have been played.
		st.shun[s] |= suitMask[suit] & (1<<uint(st.best) - 1) & (st.papBit() | ^(bit<<1 - 1))
	}
	st.order[bits.OnesCount64(st.played)] = c
	st.hands[s] &^= bit
	st.playedBy[s] |= bit
	st.played |= bit
	if c == st.papayoo {
		st.trickPts += PapayooPoints
	} else {
		st.trickPts += int(pointsOf[c])
	}
	st.trick[st.nTrick] = c
	st.nTrick++
	if log != nil {
		logPlay(log, s, c)
	}
	if st.nTrick < st.n {
		st.turn = st.next(s)
		return
	}
	st.endTrick(log)
}

// logPlay logs seat s's play of c. Apart from play, whose frame stays
// small without the event's: most moves are plays, and most of them are
// applied without a log (playouts, the search).
func logPlay(log *game.Log, s game.Seat, c int8) {
	log.Add(game.Public, Event{Type: "play", Seat: s, Card: CardName(c)})
}
