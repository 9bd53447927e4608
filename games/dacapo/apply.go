package dacapo

import (
	"tapis/game"
)

// Apply implements game.State. Every check happens before the first change,
// so a refused move leaves the state exactly as it was.
func (st *State) Apply(s game.Seat, gm game.Move, log *game.Log) error {
	if err := st.validate(s, gm); err != nil {
		return err
	}
	st.moves++
	st.last = gm
	if gm == endMove {
		if log != nil {
			log.Add(game.Public, Event{Type: "end", Seat: s})
		}
		st.endTurn(log)
		st.autoEnd(log)
		return nil
	}
	if kindOf(gm) == Help {
		c, i := argOf(gm), targetOf(gm)
		st.helpScore[s] = int16(st.helperScore(s, c, i))
		st.takeHand(s, c)
		st.pushHelper(s, i, c)
		if log != nil {
			log.Add(game.Public, Event{Type: "helper", Seat: s, Card: cardPtr(c), Index: intPtr(i)})
		}
		st.endTurn(log)
		st.autoEnd(log)
		return nil
	}
	st.build(s, fromOf(gm), argOf(gm), targetOf(gm), log)
	return nil
}

// validate returns why seat s may not make move gm now, or nil. The turn
// and seat come first, so that no error tells a seat anything about cards
// it may not know. The move is decoded once, on the way.
func (st *State) validate(s game.Seat, gm game.Move) error {
	if st.over || s != st.turn || gm>>24 != 0 {
		return st.refuse(s, gm)
	}
	if kindOf(gm) == End {
		if gm != endMove {
			return st.refuse(s, gm)
		}
		return st.endRefused(s)
	}
	arg, t := argOf(gm), targetOf(gm)
	if kindOf(gm) == Help {
		switch {
		case fromOf(gm) != 0 || arg < 1 || arg > Joker || t >= Helpers:
			return st.refuse(s, gm)
		case st.hand[s][arg] == 0:
			return deny("helper", reasonNoCard, map[string]any{"card": Card(arg).String()}, "you have no %s in hand", Card(arg))
		}
		return nil
	}
	if kindOf(gm) != Build || t >= Piles {
		return st.refuse(s, gm)
	}
	var c int8
	switch fromOf(gm) {
	case FromHand:
		if arg < 1 || arg > Joker {
			return st.refuse(s, gm)
		}
		if st.hand[s][arg] == 0 {
			return deny("build", reasonNoCard, map[string]any{"card": Card(arg).String()}, "you have no %s in hand", Card(arg))
		}
		c = arg
	case FromStock:
		if arg != 0 {
			return st.refuse(s, gm)
		}
		c = st.top[s]
	case FromHelper:
		if arg < 0 || arg >= Helpers {
			return st.refuse(s, gm)
		}
		if c = st.helperTop(s, int(arg)); c == 0 {
			return deny("build", reasonHelperEmpty, map[string]any{"index": int(arg)}, "your helper pile %d is empty", arg)
		}
	case FromOpponent:
		if arg < 0 || arg >= MaxPlayers {
			return st.refuse(s, gm)
		}
		o := game.Seat(arg)
		if o == s || o >= game.Seat(st.n) {
			return deny("build", reasonOpponent, map[string]any{"seat": int(o)}, "seat %d is not an opponent at this table", o)
		}
		c = st.top[o]
	default:
		return st.refuse(s, gm)
	}
	if !st.fits(c, t) {
		if st.nPile[t] == 0 {
			return deny("build", reasonStart, map[string]any{"card": Card(c).String()}, "a %s cannot start a pile (a 1 or a Joker can)", Card(c))
		}
		return deny("build", reasonFit, map[string]any{"card": Card(c).String(), "pile": int(t), "value": int(st.nPile[t]), "next": int(st.nPile[t]) + 1},
			"a %s does not go on building pile %d at %d (a %d or a Joker does)", Card(c), t, st.nPile[t], st.nPile[t]+1)
	}
	return nil
}

// endRefused says why seat s, whose turn it is, may not end its turn with
// End, or nil. RULES.md §4: only a hand that is empty and cannot be
// refilled may stop that way; a hand with a card ends the turn with the
// helper move.
func (st *State) endRefused(s game.Seat) error {
	switch n := st.nHand[s]; {
	case n == 1:
		return deny("end", reasonHandLeft, map[string]any{"n": 1}, "you still hold a card: put it on a helper pile to end your turn")
	case n > 1:
		return deny("end", reasonHandLeft, map[string]any{"n": int(n)}, "you still hold %d cards: put one on a helper pile to end your turn", n)
	case st.nDraw > 0 || st.nAside > 0:
		// Never at a decision point (Check: an empty hand there has
		// nothing to draw), but End must not skip a refill.
		return deny("end", reasonRefill, nil, "your hand can still be refilled")
	}
	return nil
}

// refuse explains the refusals that depend on nothing secret: the game
// is over, the seat is not at the table or not to move, the code is no
// move. It is the cold path of validate.
func (st *State) refuse(s game.Seat, gm game.Move) error {
	name := "move"
	if wellFormed(gm) {
		name = kindOf(gm).String()
	}
	switch {
	case st.over:
		return deny(name, game.ReasonOver, nil, "the game is over")
	case s < 0 || s >= game.Seat(st.n):
		return deny(name, game.ReasonNoSeat, map[string]any{"seat": int(s)}, "seat %d is not at this table", s)
	case s != st.turn:
		return deny(name, game.ReasonNotYourTurn, map[string]any{"turn": int(st.turn)}, "it is seat %d's turn", st.turn)
	}
	return deny("move", game.ReasonBadMove, nil, "%#x is not a Da Capo! move", uint64(gm))
}

// build plays a card from the source onto building pile p, then applies
// what follows at once: the next personal card is turned up, a pile at 10
// is set aside, an emptied personal pile wins, an emptied hand draws 4.
func (st *State) build(s game.Seat, f From, arg int8, p int, log *game.Log) {
	var c int8
	owner := game.Seat(-1) // whose personal pile the card came from
	switch f {
	case FromHand:
		c = arg
		st.takeHand(s, c)
	case FromStock:
		owner = s
	case FromHelper:
		c = st.popHelper(s, int(arg))
	case FromOpponent:
		owner = game.Seat(arg)
	}
	if owner >= 0 {
		c = st.popStock(owner)
		st.played = true
	}
	st.pile[p][st.nPile[p]] = c
	st.nPile[p]++
	value := st.nPile[p]
	completed := value == Top
	if completed {
		st.nAside += Top
		copy(st.cards[DeckSize-int(st.nAside):], st.pile[p][:Top])
		st.nPile[p] = 0
	}
	if log != nil {
		ev := Event{Type: "build", Seat: s, From: f.String(), Card: cardPtr(c), Pile: intPtr(p), Value: int(value), Completed: completed}
		switch f {
		case FromHelper:
			ev.Index = intPtr(int(arg))
		case FromOpponent:
			ev.Owner = intPtr(int(owner))
		}
		if owner >= 0 {
			ev.Top = cardPtr(st.stockTop(owner)) // the next card, turned up
			ev.Left = intPtr(int(st.nStock[owner]))
		}
		log.Add(game.Public, ev)
	}
	if owner >= 0 && st.nStock[owner] == 0 {
		// Whoever's pile is emptied has met their goal and wins at once.
		st.endGame(game.Only(owner), false, log)
		return
	}
	if st.nHand[s] == 0 {
		st.drawUpTo(s, log)
	}
	st.autoEnd(log)
}

// drawUpTo refills seat s's hand to 4 from the draw pile, shuffling the
// set-aside piles into a new draw pile when it runs out. It stops short
// when both are exhausted.
func (st *State) drawUpTo(s game.Seat, log *game.Log) {
	var got [HandSize]int8
	k := 0
	for st.nHand[s] < HandSize {
		if st.nDraw == 0 {
			if st.nAside == 0 {
				break
			}
			st.reshuffle(log)
		}
		st.nDraw--
		c := st.cards[st.nDraw]
		st.addHand(s, c)
		got[k] = c
		k++
	}
	if log != nil && k > 0 {
		log.Add(others(s), Event{Type: "draw", Seat: s, Count: k})
		cards := make([]Card, k)
		for i := range cards {
			cards[i] = Card(got[i])
		}
		log.Add(game.Only(s), Event{Type: "draw", Seat: s, Count: k, Cards: cards})
	}
}

// reshuffle turns the set-aside completed piles into a new draw pile.
func (st *State) reshuffle(log *game.Log) {
	n := int(st.nAside)
	copy(st.cards[:n], st.aside())
	d := st.cards[:n]
	for i := n - 1; i > 0; i-- {
		j := st.rng.IntN(i + 1)
		d[i], d[j] = d[j], d[i]
	}
	st.nDraw = uint8(n)
	st.nAside = 0
	if log != nil {
		log.Add(game.Public, Event{Type: "reshuffle", Count: n})
	}
}

// autoEnd ends the turn without a move when the turn seat's hand is empty
// (nothing left to draw) and no build at all is legal: RULES.md §4
// (decision of 2026-11-24). While any build is legal, from its own piles
// or an opponent's top, the seat chooses between building and End. A turn
// that opens in that state ends at once too, so the loop may pass several
// seats, and the stalemate rule (endTurn) stops it.
func (st *State) autoEnd(log *game.Log) {
	for !st.over && st.nHand[st.turn] == 0 && !st.canBuild(st.turn) {
		st.endTurn(log)
	}
}

// endTurn closes the turn seat's turn, applies the stalemate rule, and
// opens the next seat's turn with the refill of its hand. Callers follow it
// with autoEnd, for a turn that opens with nothing to play.
func (st *State) endTurn(log *game.Log) {
	st.turns++
	if st.nDraw == 0 && st.nAside == 0 && !st.played {
		st.quiet++
	} else {
		st.quiet = 0
	}
	if int(st.quiet) >= int(st.n) {
		st.stalemateEnd(log)
		return
	}
	st.turn = st.next(st.turn)
	st.played = false
	if log != nil {
		log.Add(game.Public, Event{Type: "turn", Seat: st.turn})
	}
	st.drawUpTo(st.turn, log)
}

func others(s game.Seat) game.Seats { return game.Public &^ game.Only(s) }

func cardPtr(c int8) *Card {
	if c == 0 {
		return nil
	}
	v := Card(c)
	return &v
}

func intPtr(i int) *int { return &i }
