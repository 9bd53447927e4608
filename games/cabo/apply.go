package cabo

import (
	"math/bits"

	"tapis/game"
)

// Apply implements game.State. Every check happens before the first change,
// so a refused move leaves the state exactly as it was.
func (st *State) Apply(s game.Seat, gm game.Move, log *game.Log) error {
	if err := st.validate(s, gm); err != nil {
		return err
	}
	switch kindOf(gm) {
	case PeekInitial:
		st.peekInitial(s, slotsOf(gm), log)
	case TakeDiscard:
		st.nDisc--
		c := st.discard[st.nDisc]
		st.discSum -= int16(c)
		st.place(s, TakeDiscard, slotsOf(gm), c, log)
	case Draw:
		st.drawCard(s, log)
	case Replace:
		c := st.drawn
		st.drawn = none
		st.place(s, Replace, slotsOf(gm), c, log)
	case Discard:
		if log != nil {
			log.Add(game.Public, Event{Type: "discard", Seat: s, Card: card(st.drawn)})
		}
		st.dropDrawn()
		st.endTurn(log)
	case Peek:
		slot := slotA(gm).Slot
		st.known[s][s] |= 1 << uint(slot)
		if log != nil {
			t := Slot{s, slot}
			log.Add(others(s), Event{Type: "peek", Seat: s, Target: &t, Card: card(st.drawn)})
			log.Add(game.Only(s), Event{Type: "peek", Seat: s, Target: &t, Card: card(st.drawn), Seen: []int{int(st.hands[s][t.Slot])}})
		}
		st.dropDrawn()
		st.endTurn(log)
	case Spy:
		t := slotA(gm)
		st.known[s][t.Seat] |= 1 << uint(t.Slot)
		if log != nil {
			t := t // a copy whose address escapes only when someone listens
			log.Add(others(s), Event{Type: "spy", Seat: s, Target: &t, Card: card(st.drawn)})
			log.Add(game.Only(s), Event{Type: "spy", Seat: s, Target: &t, Card: card(st.drawn), Seen: []int{int(st.hands[t.Seat][t.Slot])}})
		}
		st.dropDrawn()
		st.endTurn(log)
	case Swap:
		a, b := slotA(gm), slotB(gm)
		st.swap(a, b)
		if log != nil {
			a, b := a, b // copies whose addresses escape only when someone listens
			log.Add(game.Public, Event{Type: "swap", Seat: s, A: &a, B: &b, Card: card(st.drawn)})
		}
		st.dropDrawn()
		st.endTurn(log)
	case CallCabo:
		st.caller = s
		st.finalLeft = st.n - 1
		if log != nil {
			log.Add(game.Public, Event{Type: "cabo", Seat: s})
		}
		st.turns++
		st.turn = st.next(s)
	}
	return nil
}

// validate returns why seat s may not make move gm now, or nil.
func (st *State) validate(s game.Seat, gm game.Move) error {
	k := kindOf(gm)
	switch {
	case st.phase == phaseOver:
		return deny("", game.ReasonOver, nil, "the game is over")
	case s < 0 || s >= game.Seat(st.n):
		return deny("", game.ReasonNoSeat, map[string]any{"seat": int(s)}, "seat %d is not at this table", s)
	case !wellFormed(gm):
		return deny("", game.ReasonBadMove, nil, "%#x is not a Cabo move", uint64(gm))
	}
	if st.phase == phasePeek {
		if k != PeekInitial {
			return deny(k.String(), reasonPeekFirst, nil, "every player first makes their initial peek")
		}
		if st.peeked.Has(s) {
			return deny("peek_initial", reasonPeeked, map[string]any{"seat": int(s)}, "seat %d has already peeked", s)
		}
		if bits.OnesCount8(slotsOf(gm)) != st.opt.InitialPeek {
			return deny("peek_initial", reasonPeekCount, map[string]any{"n": st.opt.InitialPeek}, "choose exactly %d slots", st.opt.InitialPeek)
		}
		return st.ownSlots(k, s, slotsOf(gm))
	}
	if s != st.turn {
		return deny(k.String(), game.ReasonNotYourTurn, map[string]any{"turn": int(st.turn)}, "it is seat %d's turn", st.turn)
	}
	drawn := st.phase == phaseDrawn
	switch k {
	case PeekInitial:
		return deny("peek_initial", reasonPeekOver, nil, "the initial peek is over")
	case TakeDiscard, Draw, CallCabo:
		if drawn {
			return deny(k.String(), reasonDrawn, nil, "you have drawn a card: replace a slot with it or discard it")
		}
	default:
		if !drawn {
			return deny(k.String(), reasonDrawFirst, nil, "draw a card first")
		}
	}
	switch k {
	case TakeDiscard, Replace:
		if n := bits.OnesCount8(slotsOf(gm)); n == 0 || n > 4 {
			return deny(k.String(), reasonSetSize, nil, "give 1 slot, or 2 to 4 slots for a set")
		}
		return st.ownSlots(k, s, slotsOf(gm))
	case Draw:
		if !st.canDraw() {
			return deny("draw", reasonDeckEmpty, nil, "no card is left to draw")
		}
	case CallCabo:
		if st.caller >= 0 {
			return deny("cabo", reasonCalled, map[string]any{"seat": int(st.caller)}, "seat %d has already called Cabo this round", st.caller)
		}
	case Peek, Spy, Swap:
		return st.checkPower(s, k, slotA(gm), slotB(gm))
	}
	return nil
}

func (st *State) ownSlots(k Kind, s game.Seat, mask uint8) error {
	if bad := mask &^ st.fill[s]; bad != 0 {
		return deny(k.String(), reasonEmptySlot, map[string]any{"seat": int(s), "slot": bits.TrailingZeros8(bad)}, "your slot %d is empty", bits.TrailingZeros8(bad))
	}
	return nil
}

func (st *State) checkPower(s game.Seat, k Kind, a, b Slot) error {
	if power(st.drawn) != k {
		return deny(k.String(), reasonNoPower, nil, "the drawn card does not have this power (peek: 7-8, spy: 9-10, swap: 11-12)")
	}
	switch k {
	case Peek:
		return st.ownSlots(Peek, s, 1<<uint(a.Slot))
	case Spy:
		if a.Seat == s {
			return deny("spy", reasonSpyOwn, nil, "spy on another player's slot (peek is for your own)")
		}
		return st.filledSlot(Spy, a)
	}
	if a.Seat != s && b.Seat != s && !st.opt.SwapOpponents {
		return deny("swap", reasonSwapMine, nil, "one of the slots must be yours (option swap_opponents is off)")
	}
	if err := st.filledSlot(Swap, a); err != nil {
		return err
	}
	return st.filledSlot(Swap, b)
}

func (st *State) filledSlot(k Kind, t Slot) error {
	if t.Seat < 0 || t.Seat >= game.Seat(st.n) {
		return deny(k.String(), game.ReasonNoSeat, map[string]any{"seat": int(t.Seat)}, "seat %d is not at this table", t.Seat)
	}
	if t.Slot >= st.opt.HandSize || st.hands[t.Seat][t.Slot] == none {
		return deny(k.String(), reasonEmptySlot, map[string]any{"seat": int(t.Seat), "slot": t.Slot}, "seat %d's slot %d is empty", t.Seat, t.Slot)
	}
	return nil
}

func (st *State) peekInitial(s game.Seat, mask uint8, log *game.Log) {
	st.known[s][s] |= mask
	st.peeked = st.peeked.With(s)
	if log != nil {
		slots := maskSlots(mask)
		seen := make([]int, len(slots))
		for i, sl := range slots {
			seen[i] = int(st.hands[s][sl])
		}
		log.Add(others(s), Event{Type: "peek_initial", Seat: s, Slots: slots})
		log.Add(game.Only(s), Event{Type: "peek_initial", Seat: s, Slots: slots, Seen: seen})
	}
	if st.peeked == st.all() {
		st.phase = phaseTurn
	}
}

// place puts card c into seat s's slots: one slot, or a claimed set. A
// card from the discard (TakeDiscard) is public; a drawn one is not.
func (st *State) place(s game.Seat, k Kind, mask uint8, c int8, log *game.Log) {
	hand := &st.hands[s]
	low := bits.TrailingZeros8(mask)
	ok := mask&(mask-1) == 0 // one slot: always placed
	if !ok {
		var same uint8
		for i, x := range hand {
			if x == hand[low] {
				same |= 1 << uint(i)
			}
		}
		ok = mask&^same == 0
	}
	if log != nil {
		log.Add(game.Public, st.placeEvent(s, k, mask, c, ok))
	}
	if !ok {
		// A failed set: the cards are shown to all and stay; the incoming
		// card is discarded and the turn is lost.
		for j := 0; j < int(st.n); j++ {
			st.known[j][s] |= mask
		}
		st.pushDiscard(c)
		st.endTurn(log)
		return
	}
	for i := low; i < MaxSlots; i++ {
		if mask&(1<<uint(i)) == 0 {
			continue
		}
		st.pushDiscard(hand[i])
		hand[i] = none
	}
	st.fill[s] &^= mask
	st.kept[s] &^= mask
	for j := 0; j < int(st.n); j++ {
		st.known[j][s] &^= mask
	}
	hand[low] = c
	st.fill[s] |= 1 << uint(low)
	if k == TakeDiscard {
		for j := 0; j < int(st.n); j++ {
			st.known[j][s] |= 1 << uint(low)
		}
	} else {
		st.known[s][s] |= 1 << uint(low)
		st.kept[s] |= 1 << uint(low)
	}
	st.endTurn(log)
}

// placeEvent describes a placement before it happens.
func (st *State) placeEvent(s game.Seat, k Kind, mask uint8, c int8, ok bool) Event {
	ev := Event{Type: k.String(), Seat: s, Slots: maskSlots(mask)}
	var cards []int
	for _, i := range ev.Slots {
		cards = append(cards, int(st.hands[s][i]))
	}
	switch {
	case !ok:
		ev.Failed, ev.Card, ev.Seen = true, card(c), cards
	case k == TakeDiscard:
		ev.Card, ev.Discarded = card(c), cards
	default:
		ev.Discarded = cards
	}
	return ev
}

func (st *State) drawCard(s game.Seat, log *game.Log) {
	if st.nDraw == 0 {
		st.reshuffle(log)
	}
	st.nDraw--
	st.drawn = st.draw[st.nDraw]
	st.phase = phaseDrawn
	if log != nil {
		log.Add(others(s), Event{Type: "draw", Seat: s})
		log.Add(game.Only(s), Event{Type: "draw", Seat: s, Seen: []int{int(st.drawn)}})
	}
}

// reshuffle turns all discards but the top into a new draw pile. It happens
// when a card must be drawn from an empty pile, so the newest discard stays
// in sight.
func (st *State) reshuffle(log *game.Log) {
	top := st.topDiscard()
	n := int(st.nDisc) - 1
	copy(st.draw[:], st.discard[:n])
	st.rng.Shuffle(st.draw[:n])
	st.nDraw = int8(n)
	st.discard[0] = top
	st.nDisc = 1
	st.discSum = int16(top)
	if log != nil {
		log.Add(game.Public, Event{Type: "reshuffle", Count: n})
	}
}

func (st *State) swap(a, b Slot) {
	ha, hb := &st.hands[a.Seat][a.Slot], &st.hands[b.Seat][b.Slot]
	*ha, *hb = *hb, *ha
	ba, bb := uint8(1)<<uint(a.Slot), uint8(1)<<uint(b.Slot)
	ka, kb := st.kept[a.Seat]&ba != 0, st.kept[b.Seat]&bb != 0
	st.kept[a.Seat] &^= ba
	st.kept[b.Seat] &^= bb
	if kb {
		st.kept[a.Seat] |= ba
	}
	if ka {
		st.kept[b.Seat] |= bb
	}
	for k := 0; k < int(st.n); k++ {
		ka, kb := st.known[k][a.Seat]&ba != 0, st.known[k][b.Seat]&bb != 0
		st.known[k][a.Seat] &^= ba
		st.known[k][b.Seat] &^= bb
		if kb {
			st.known[k][a.Seat] |= ba
		}
		if ka {
			st.known[k][b.Seat] |= bb
		}
	}
}

func (st *State) dropDrawn() {
	st.pushDiscard(st.drawn)
	st.drawn = none
}

// endTurn passes the turn on, or ends the round once every other player
// has had their final turn after a Cabo call.
func (st *State) endTurn(log *game.Log) {
	st.phase = phaseTurn
	st.turns++
	if st.caller >= 0 {
		st.finalLeft--
		if st.finalLeft == 0 {
			st.endRound(log)
			return
		}
	}
	st.turn = st.next(st.turn)
}

func others(s game.Seat) game.Seats { return game.Public &^ game.Only(s) }

func card(c int8) *int {
	v := int(c)
	return &v
}
