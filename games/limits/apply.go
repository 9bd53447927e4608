package limits

import (
	"tapis/game"
)

// Apply implements game.State. Every check happens before the first change,
// so a refused move leaves the state exactly as it was.
func (st *State) Apply(s game.Seat, gm game.Move, log *game.Log) error {
	if err := st.validate(s, gm); err != nil {
		return err
	}
	switch kindOf(gm) {
	case Hide:
		st.hide(s, gm, log)
	case Place:
		st.place(s, argOf(gm), log)
	case Exchange:
		st.exchange(s, argOf(gm), log)
	case Accuse:
		st.accuse(s, game.Seat(argOf(gm)), log)
	}
	return nil
}

// validate returns why seat s may not make move gm now, or nil. It checks
// the seat and the turn before anything about cards, so that a refusal
// never tells a seat about cards it may not know.
func (st *State) validate(s game.Seat, gm game.Move) error {
	k := kindOf(gm)
	switch {
	case st.phase == phaseOver:
		return deny("", game.ReasonOver, nil, "the game is over")
	case s < 0 || s >= game.Seat(st.n):
		return deny("", game.ReasonNoSeat, map[string]any{"seat": int(s)}, "seat %d is not at this table", s)
	case !wellFormed(gm):
		return deny("", game.ReasonBadMove, nil, "%#x is not a Limits move", uint64(gm))
	}
	h := &st.hand[s]
	if st.phase == phaseHide {
		if k != Hide {
			return deny(k.String(), reasonHideFirst, nil, "every player first hides their card(s) for the round")
		}
		if st.hid.Has(s) {
			return deny("hide", reasonHidden, map[string]any{"seat": int(s)}, "seat %d has already hidden this round", s)
		}
		if argOf(gm) != st.hideN {
			return deny("hide", reasonHideCount, map[string]any{"n": int(st.hideN)}, "hide exactly %d card(s)", st.hideN)
		}
		b, c := bOf(gm), cOf(gm)
		switch {
		case h[b] == 0:
			return deny("hide", reasonNoColour, map[string]any{"colour": ColourName(b), "n": 1}, "you hold no %s card", ColourName(b))
		case argOf(gm) == 2 && h[c] <= b2i8(b == c):
			return deny("hide", reasonNoColour, map[string]any{"colour": ColourName(c), "n": int(1 + b2i8(b == c))}, "you do not hold %d %s", 1+b2i8(b == c), ColourName(c))
		}
		return nil
	}
	if s != st.turn {
		return deny(k.String(), game.ReasonNotYourTurn, map[string]any{"turn": int(st.turn)}, "it is seat %d's turn", st.turn)
	}
	switch k {
	case Hide:
		return deny("hide", reasonHiddenAlready, nil, "the cards of this round are hidden already")
	case Place:
		if c := argOf(gm); h[c] == 0 {
			return deny("place", reasonNoColour, map[string]any{"colour": ColourName(c), "n": 1}, "you hold no %s card", ColourName(c))
		}
		return nil
	}
	if !st.led {
		return deny(k.String(), reasonLeadFirst, nil, "the leader starts the active pile by placing a card")
	}
	if k == Exchange {
		if c := argOf(gm); h[c] < 4 {
			return deny("exchange", reasonExchange, map[string]any{"colour": ColourName(c), "n": int(h[c])}, "you hold %d %s cards, not 4", h[c], ColourName(c))
		}
		return nil
	}
	t := game.Seat(argOf(gm))
	switch {
	case t == s:
		return deny("accuse", reasonAccuseSelf, nil, "accuse another player")
	case t >= game.Seat(st.n):
		return deny("accuse", game.ReasonNoSeat, map[string]any{"seat": int(t)}, "seat %d is not at this table", t)
	case !st.placed.Has(t):
		return deny("accuse", reasonNotPlaced, map[string]any{"seat": int(t)}, "seat %d has placed no card this round", t)
	}
	return nil
}

// hide lays seat s's card(s) face down; the last hide opens the turns.
func (st *State) hide(s game.Seat, gm game.Move, log *game.Log) {
	b := bOf(gm)
	st.hand[s][b]--
	st.hidden[s][b]++
	if argOf(gm) == 2 {
		c := cOf(gm)
		st.hand[s][c]--
		st.hidden[s][c]++
	}
	st.nHand[s] -= st.hideN
	st.hid = st.hid.With(s)
	// Nobody else knows which cards went: the cards known to be in hand
	// are now only known to be held.
	st.knownHeld[s] = st.knownHand[s]
	st.knownHand[s] = [Colours]int8{}
	if log != nil {
		cards := hideCards(gm)
		log.Add(others(s), Event{Type: "hide", Seat: s})
		log.Add(game.Only(s), Event{Type: "hide", Seat: s, Cards: names(&cards)})
	}
	if st.hid == st.all() {
		st.phase = phaseTurn
		st.turn = st.leader
	}
}

// place puts one card of seat s on the active pile and draws one.
func (st *State) place(s game.Seat, c int8, log *game.Log) {
	st.take(s, c, 1)
	st.push(s, c)
	st.led = true
	if log != nil {
		log.Add(game.Public, Event{Type: "place", Seat: s, Card: ColourName(c)})
	}
	st.drawN(s, 1, log)
	st.endTurn(log)
}

// exchange: 4 cards of colour c are shown, 4 drawn, +1 point, then 2 of
// the 4 go face up on the active pile and 2 face down on the draw pile.
// [decision] The 4 are one colour, so which 2 go where is no choice, and
// the exchanger draws before putting 2 back, so it draws none of them.
func (st *State) exchange(s game.Seat, c int8, log *game.Log) {
	st.take(s, c, 4)
	st.points[s]++
	st.gained[s]++
	if log != nil {
		shown := ColourName(c)
		log.Add(game.Public, Event{Type: "exchange", Seat: s, Color: shown, Cards: []string{shown, shown, shown, shown}})
	}
	st.drawN(s, 4, log)
	// The exchanger's last played card is the second placed.
	st.push(s, c)
	st.push(s, c)
	st.draw[st.nDraw] = c
	st.draw[st.nDraw+1] = c
	st.nDraw += 2
	if st.unk > 0 {
		st.above += 2
	}
	st.endTurn(log)
}

// take removes k cards of colour c from seat s's hand.
func (st *State) take(s game.Seat, c, k int8) {
	st.hand[s][c] -= k
	st.nHand[s] -= k
	// Which of the cards known to be held went is unknown: count them off
	// those surely in hand first, which stays true either way.
	kh := &st.knownHand[s][c]
	d := min(k, *kh)
	*kh -= d
	st.knownHeld[s][c] = max(st.knownHeld[s][c]-(k-d), 0)
}

func (st *State) push(s game.Seat, c int8) {
	st.count[c]++
	st.pile[st.nPile] = c
	st.pileBy[st.nPile] = int8(s)
	st.upTo[st.nPile] = st.count[c]
	st.last[s] = st.nPile
	st.placed = st.placed.With(s)
	st.nPile++
}

// drawN draws up to k cards into seat s's hand; an empty draw pile gives
// nothing (RULES.md: players simply stop drawing). The drawer is told its
// cards, the others how many. A card everyone saw go into the draw pile
// (an exchange's, an old active pile's) becomes known to be in s's hand;
// the event does not repeat it: remembering is the players' job.
func (st *State) drawN(s game.Seat, k int8, log *game.Log) {
	var before [Colours]int8
	if log != nil {
		before = st.hand[s]
	}
	n := st.nHand[s]
	for ; k > 0 && st.nDraw > 0; k-- {
		st.nDraw--
		c := st.draw[st.nDraw]
		st.hand[s][c]++
		st.nHand[s]++
		switch {
		case st.above > 0:
			st.above--
		case st.unk > 0:
			st.unk--
			continue
		}
		st.knownHand[s][c]++
	}
	if log != nil && st.nHand[s] > n {
		var got [Colours]int8
		for c := range got {
			got[c] = st.hand[s][c] - before[c]
		}
		drew := int(st.nHand[s] - n)
		log.Add(others(s), Event{Type: "draw", Seat: s, Count: drew})
		log.Add(game.Only(s), Event{Type: "draw", Seat: s, Count: drew, Cards: names(&got)})
	}
}

// endTurn passes the turn clockwise. [decision] A player with no card who
// can accuse nobody passes, with an event, since REPLAY.md has no pass move.
func (st *State) endTurn(log *game.Log) {
	st.turn = st.next(st.turn)
	for i := int8(0); i < st.n && st.nHand[st.turn] == 0 && !st.canAccuse(st.turn); i++ {
		if log != nil {
			log.Add(game.Public, Event{Type: "pass", Seat: st.turn})
		}
		st.turn = st.next(st.turn)
	}
}

// canAccuse reports whether seat s has someone to accuse.
func (st *State) canAccuse(s game.Seat) bool { return !(st.placed &^ game.Only(s)).Empty() }

func b2i8(b bool) int8 { return int8(b2i(b)) }

func others(s game.Seat) game.Seats { return game.Public &^ game.Only(s) }

// names lists counted cards in colour order, as REPLAY.md's strings.
func names(cards *[Colours]int8) []string {
	out := []string{}
	for c := int8(0); c < Colours; c++ {
		for k := int8(0); k < cards[c]; k++ {
			out = append(out, colourNames[c])
		}
	}
	return out
}
