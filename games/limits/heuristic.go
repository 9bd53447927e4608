package limits

import "tapis/game"

// Heuristic implements game.HeuristicGame: a bot that plays like a careful
// person from its seat's view and the events it is told.
func (Game) Heuristic(s game.Seat, seed uint64) game.Player {
	// The seat is the Knowledge's to say; the bot needs nothing else.
	return &Heuristic{rng: game.NewRNG(seed)}
}

// Tuning of the heuristic bot: the probabilities at which it acts, chosen
// in 2-player play against other settings (1,000 games each).
const (
	// accuseAt is the chance that the suspect is over its limit from
	// which the bot accuses: a right accusation is worth +1 to it and -2
	// to the suspect, a wrong one the reverse. Below it, the bot places
	// its safest card even when every card looks risky (accusing then
	// made nearly every accusation a wrong one in self-play). 0.4 beat
	// 0.3, 0.35, 0.45, 0.5 and 0.6.
	accuseAt = 0.4
	// suspectRatio weighs the evidence of the suspect's own choice (see
	// turn). With 0.25 the bot won 98% of its games against the same bot
	// without it (ratio 1); 0.1, 0.15 and 0.4 did worse than 0.25.
	suspectRatio = 0.25
	// exchangeAt is the largest chance of being over after an exchange's 2
	// cards that the +1 point is worth.
	exchangeAt = 0.25
)

// Heuristic is Limits' hand-written bot. It remembers the active pile from
// the events (every placed card is told to everyone), so it knows how many
// cards of each colour are down and what each seat placed last; a bot that
// joins mid-round knows only what it has been told since. It does not
// know the others' hidden cards, so it weighs them by what it has not seen:
// each is drawn from the cards it cannot see (the hypergeometric law). It
// places the card least likely to be over its limit (an X colour is always
// safe), accuses when the suspect is probably over, and exchanges when the
// two cards it must put down are probably safe.
type Heuristic struct {
	rng game.RNG
	buf []game.Move
	// The active pile as told by the events, bottom first.
	pile   []int8
	pileBy []game.Seat
}

// Observe implements game.Player: it follows the active pile.
func (h *Heuristic) Observe(e game.Event) {
	ev, ok := e.Data.(Event)
	if !ok {
		return
	}
	switch ev.Type {
	case "round", "accuse":
		h.pile, h.pileBy = h.pile[:0], h.pileBy[:0]
	case "place":
		if c, err := ParseColour(ev.Card); err == nil {
			h.pile = append(h.pile, c)
			h.pileBy = append(h.pileBy, ev.Seat)
		}
	case "exchange":
		if c, err := ParseColour(ev.Color); err == nil {
			h.pile = append(h.pile, c, c)
			h.pileBy = append(h.pileBy, ev.Seat, ev.Seat)
		}
	}
}

// Choose implements game.Player.
func (h *Heuristic) Choose(k game.Knowledge) game.Move {
	h.buf = k.Legal(h.buf[:0])
	legal := h.buf
	if len(legal) == 0 {
		return 0 // not this seat's move: nothing is legal
	}
	v, ok := k.View().(*View)
	if !ok {
		return legal[h.rng.IntN(len(legal))]
	}
	var m game.Move
	if v.Phase == "hide" {
		m = h.hide(v, legal)
	} else {
		m = h.turn(v, legal)
	}
	if !game.Contains(legal, m) {
		m = legal[h.rng.IntN(len(legal))]
	}
	return m
}

// table is what the bot knows of the round: base limits, its own cards,
// the pile's colours, and the cards it has not seen.
type table struct {
	base    [Colours]int8 // X: unlimited
	hand    [Colours]int8
	hidden  [Colours]int8
	onPile  [Colours]int8
	unseen  [Colours]int // cards the bot cannot see, per colour
	total   int          // their sum
	othersN int          // the other players' hidden cards
}

func (h *Heuristic) table(v *View) table {
	var t table
	for c := range t.base {
		t.base[c] = X
		if c < len(v.Base) && v.Base[c] != nil {
			t.base[c] = int8(*v.Base[c])
		}
	}
	count := func(names []string, into *[Colours]int8) {
		for _, n := range names {
			if c, err := ParseColour(n); err == nil {
				into[c]++
			}
		}
	}
	count(v.Hand, &t.hand)
	count(v.Hidden, &t.hidden)
	for _, c := range h.pile {
		t.onPile[c]++
	}
	for c := 0; c < Colours; c++ {
		t.unseen[c] = max(PerColour-int(t.hand[c]+t.hidden[c]+t.onPile[c]), 0)
		t.total += t.unseen[c]
	}
	hideN := int(hideCount(v.Players))
	t.othersN = (v.Players - 1) * hideN
	return t
}

// pOver is the chance that `count` cards of colour c exceed its limit:
// base + the bot's hidden cards + the others' hidden cards of c, which
// are othersN cards drawn from the unseen ones.
func (t *table) pOver(c int8, count int) float64 {
	if t.base[c] == X {
		return 0
	}
	need := count - int(t.base[c]) - int(t.hidden[c]) // over iff others' < need
	if need <= 0 {
		return 0
	}
	p := 0.0
	for o := 0; o < need; o++ {
		p += hyper(o, t.total, t.unseen[c], min(t.othersN, t.total))
	}
	return min(p, 1)
}

// hyper is the chance of exactly k marked cards when d cards are drawn
// from n of which m are marked.
func hyper(k, n, m, d int) float64 {
	if k < 0 || k > m || k > d || d-k > n-m {
		return 0
	}
	return choose(m, k) * choose(n-m, d-k) / choose(n, d)
}

func choose(n, k int) float64 {
	if k < 0 || k > n {
		return 0
	}
	r := 1.0
	for i := 0; i < k; i++ {
		r = r * float64(n-i) / float64(i+1)
	}
	return r
}

// hide keeps the hand that leaves the most safe plays: a hidden card
// raises its colour's limit, which only this seat knows.
func (h *Heuristic) hide(v *View, legal []game.Move) game.Move {
	t := h.table(v)
	best, bestScore := legal[0], -1e9
	for _, m := range legal {
		if kindOf(m) != Hide {
			continue
		}
		hand, hid := t.hand, t.hidden
		cards := hideCards(m)
		for c := range cards {
			hand[c] -= cards[c]
			hid[c] += cards[c]
		}
		score := 0.0
		for c := 0; c < Colours; c++ {
			if t.base[c] == X {
				score += float64(hand[c]) + 0.5 // X cards are always safe
				continue
			}
			capacity := t.base[c] + hid[c]
			score += float64(min(hand[c], capacity))
			// Four of a colour may be exchanged for a point.
			if hand[c] >= 4 {
				score += 1
			}
		}
		score += float64(h.rng.IntN(1000)) * 1e-5
		if score > bestScore {
			best, bestScore = m, score
		}
	}
	return best
}

// turn places, exchanges or accuses.
func (h *Heuristic) turn(v *View, legal []game.Move) game.Move {
	t := h.table(v)
	var place, exch, acc game.Move
	pPlace, pExch, pAcc := 2.0, 2.0, -1.0
	for _, m := range legal {
		switch kindOf(m) {
		case Place:
			c := argOf(m)
			p := t.pOver(c, int(t.onPile[c])+1)
			// Among equally safe cards, shed the colour held most.
			p -= float64(t.hand[c]) * 1e-3
			if p < pPlace {
				place, pPlace = m, p
			}
		case Exchange:
			c := argOf(m)
			if p := t.pOver(c, int(t.onPile[c])+2); p < pExch {
				exch, pExch = m, p
			}
		case Accuse:
			p := h.suspectOver(&t, game.Seat(argOf(m)))
			// The suspect chose to place its card: a careful player
			// seldom places one it believes over the limit (it knows its
			// own hidden cards), so its choice is evidence that it is
			// not over. Bayes with a likelihood ratio: the odds of
			// "over" are multiplied by suspectRatio.
			p = p * suspectRatio / (p*suspectRatio + 1 - p)
			if p > pAcc {
				acc, pAcc = m, p
			}
		}
	}
	switch {
	case acc != 0 && (pAcc >= accuseAt || place == 0):
		return acc
	case exch != 0 && pExch <= exchangeAt:
		return exch
	case place != 0:
		return place
	}
	return legal[0]
}

// suspectOver is the chance that seat s's last card is over its limit,
// from the pile the bot remembers.
func (h *Heuristic) suspectOver(t *table, s game.Seat) float64 {
	last := -1
	for i, by := range h.pileBy {
		if by == s {
			last = i
		}
	}
	if last < 0 {
		return 0
	}
	c := h.pile[last]
	count := 0
	for _, x := range h.pile[:last+1] {
		if x == c {
			count++
		}
	}
	return t.pOver(c, count)
}
