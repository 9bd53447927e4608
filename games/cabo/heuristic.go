package cabo

import (
	"math/bits"

	"tapis/game"
)

// Heuristic plays Cabo like a sensible person, from its seat's view and
// events only: it remembers every card its seat has seen and where those
// cards went, values unknown cards by the cards it has not seen yet, uses
// peek, spy and swap, replaces high cards, builds and plays sets it knows,
// and calls Cabo when its total is likely the lowest.
type Heuristic struct {
	seat game.Seat
	rng  game.RNG
	// mem is the card the seat knows in each slot, or none.
	mem [MaxPlayers][MaxSlots]int8
	// kept marks slots an opponent filled with a card it drew and chose to
	// keep: probably a low card.
	kept  [MaxPlayers][MaxSlots]bool
	drawn int8 // the card this seat last drew
	turns int  // turns ended this round, for the bound on a stalled round
	buf   []game.Move
}

// Heuristic implements game.HeuristicGame.
func (Game) Heuristic(s game.Seat, seed uint64) game.Player { return NewHeuristic(s, seed) }

// NewHeuristic returns a heuristic player for seat s.
func NewHeuristic(s game.Seat, seed uint64) *Heuristic {
	h := &Heuristic{seat: s, rng: game.NewRNG(seed), drawn: none}
	h.forget()
	return h
}

func (h *Heuristic) forget() {
	for j := range h.mem {
		for i := range h.mem[j] {
			h.mem[j][i], h.kept[j][i] = none, false
		}
	}
}

// Observe implements game.Player: it keeps the seat's memory of the cards.
func (h *Heuristic) Observe(e game.Event) {
	ev, ok := e.Data.(Event)
	if !ok {
		return
	}
	switch ev.Type {
	case "deal":
		h.forget()
		h.turns = 0
	case "discard", "cabo":
		h.turns++
	case "peek_initial":
		for k, i := range ev.Slots {
			if k < len(ev.Seen) {
				h.mem[ev.Seat][i] = int8(ev.Seen[k])
			}
		}
	case "draw":
		if len(ev.Seen) == 1 {
			h.drawn = int8(ev.Seen[0])
		}
	case "take_discard", "replace":
		h.turns++
		h.placed(ev)
	case "peek", "spy":
		h.turns++
		if len(ev.Seen) == 1 && ev.Target != nil {
			h.mem[ev.Target.Seat][ev.Target.Slot] = int8(ev.Seen[0])
		}
	case "swap":
		h.turns++
		a, b := ev.A, ev.B
		h.mem[a.Seat][a.Slot], h.mem[b.Seat][b.Slot] = h.mem[b.Seat][b.Slot], h.mem[a.Seat][a.Slot]
		h.kept[a.Seat][a.Slot], h.kept[b.Seat][b.Slot] = h.kept[b.Seat][b.Slot], h.kept[a.Seat][a.Slot]
	}
}

func (h *Heuristic) placed(ev Event) {
	s := ev.Seat
	if ev.Failed {
		for k, i := range ev.Slots {
			h.mem[s][i] = int8(ev.Seen[k])
		}
		return
	}
	for _, i := range ev.Slots {
		h.mem[s][i], h.kept[s][i] = none, false
	}
	low := ev.Slots[0]
	switch {
	case ev.Type == "take_discard":
		h.mem[s][low] = int8(*ev.Card)
	case s == h.seat:
		h.mem[s][low] = h.drawn
	default:
		h.kept[s][low] = true
	}
}

// Choose implements game.Player.
func (h *Heuristic) Choose(k game.Knowledge) game.Move {
	v := k.View().(*View)
	h.buf = k.Legal(h.buf[:0])
	if len(h.buf) == 0 {
		return 0 // not this seat's turn: nothing to choose
	}
	var m game.Move
	switch v.Phase {
	case "turn":
		m = h.turn(v)
	case "drawn":
		m = h.withDrawn(v, int8(*v.Drawn))
	}
	if m != 0 && game.Contains(h.buf, m) {
		return m
	}
	// The initial peek (any slots will do: none is known yet), or a plan
	// that turned out illegal.
	return h.buf[0]
}

// unseenMean is the mean value of the cards this seat has not seen: what
// an unknown card is worth on average.
func (h *Heuristic) unseenMean(v *View) float64 {
	left := count
	for _, c := range v.Discard {
		left[c]--
	}
	for j := 0; j < v.Players; j++ {
		for i := 0; i < v.Options.HandSize; i++ {
			if c := h.mem[j][i]; c != none && v.Slots[j][i] {
				left[c]--
			}
		}
	}
	if v.Drawn != nil {
		left[*v.Drawn]--
	}
	sum, n := 0, 0
	for c, k := range left {
		if k > 0 {
			sum += c * int(k)
			n += int(k)
		}
	}
	if n == 0 {
		return 6.5
	}
	return float64(sum) / float64(n)
}

// value is what seat j's slot i is believed to hold.
func (h *Heuristic) value(j game.Seat, i int, mean float64) float64 {
	if c := h.mem[j][i]; c != none {
		return float64(c)
	}
	if j != h.seat && h.kept[j][i] {
		return min(mean, 4)
	}
	return mean
}

// estimate is seat j's believed total and how many of its cards are unknown.
func (h *Heuristic) estimate(v *View, j game.Seat, mean float64) (total float64, unknown int) {
	for i, filled := range v.Slots[j] {
		if filled {
			total += h.value(j, i, mean)
			if h.mem[j][i] == none {
				unknown++
			}
		}
	}
	return total, unknown
}

func (h *Heuristic) turn(v *View) game.Move {
	mean := h.unseenMean(v)
	if v.Caller < 0 && (h.turns >= stallTurns*v.Players || h.shouldCall(v, mean)) {
		return mk(CallCabo)
	}
	top := int8(v.Discard[len(v.Discard)-1])
	mask, gain := h.bestPlacement(v, top, mean)
	// Drawing is worth something on average too; take the discard only
	// when it clearly improves the hand.
	if gain >= 3.5 || (gain >= 2 && top <= 2) {
		return mkSlots(TakeDiscard, mask)
	}
	return mk(Draw)
}

func (h *Heuristic) shouldCall(v *View, mean float64) bool {
	mine, unknown := h.estimate(v, h.seat, mean)
	best := 1e9
	for j := 0; j < v.Players; j++ {
		if game.Seat(j) != h.seat {
			t, _ := h.estimate(v, game.Seat(j), mean)
			best = min(best, t)
		}
	}
	switch {
	case unknown == 0 && mine <= 4:
		return true
	case unknown <= 1 && mine <= 12 && mine+4 <= best:
		return true
	}
	return false
}

// bestPlacement finds where card c does the most good in this seat's
// hand: one slot, or a set of slots it knows hold equal values.
func (h *Heuristic) bestPlacement(v *View, c int8, mean float64) (mask uint8, gain float64) {
	gain = -1e9
	var byValue [Values]uint8
	for i, filled := range v.Slots[h.seat] {
		if !filled {
			continue
		}
		g := h.value(h.seat, i, mean) - float64(c)
		if h.mem[h.seat][i] == none {
			g += 0.5 // knowing the slot afterwards is worth a little
		}
		if g > gain {
			mask, gain = 1<<uint(i), g
		}
		if m := h.mem[h.seat][i]; m != none {
			byValue[m] |= 1 << uint(i)
		}
	}
	for val, set := range byValue {
		n := bits.OnesCount8(set)
		for n > 4 { // a set is at most 4 slots: drop the highest
			set &^= 1 << uint(bits.Len8(set)-1)
			n--
		}
		if n >= 2 {
			if g := float64(val*n) - float64(c); g > gain {
				mask, gain = set, g
			}
		}
	}
	return mask, gain
}

func (h *Heuristic) withDrawn(v *View, d int8) game.Move {
	mean := h.unseenMean(v)
	mask, best := h.bestPlacement(v, d, mean)
	move := mkSlots(Replace, mask)
	if best < 0 {
		move, best = mk(Discard), 0
	}
	switch power(d) {
	case Peek:
		for i, filled := range v.Slots[h.seat] {
			if filled && h.mem[h.seat][i] == none && best < 2 {
				move, best = Move{Kind: Peek, A: Slot{0, i}}.Pack(), 2
			}
		}
	case Spy:
		if m, g := h.bestSpy(v); g > best {
			move, best = m, g
		}
	case Swap:
		if m, g := h.bestSwap(v, mean); g > best {
			move = m
		}
	}
	return move
}

// bestSpy looks at an unknown card of the opponent who seems lowest: that
// is what decides when to call.
func (h *Heuristic) bestSpy(v *View) (game.Move, float64) {
	mean := h.unseenMean(v)
	var move game.Move
	low := 1e9
	for j := 0; j < v.Players; j++ {
		t := game.Seat(j)
		if t == h.seat {
			continue
		}
		total, _ := h.estimate(v, t, mean)
		for i, filled := range v.Slots[t] {
			if filled && h.mem[t][i] == none && total < low {
				move, low = Move{Kind: Spy, A: Slot{t, i}}.Pack(), total
			}
		}
	}
	if move == 0 {
		return 0, -1
	}
	return move, 0.8
}

// bestSwap gives this seat's worst card for an opponent's best one.
func (h *Heuristic) bestSwap(v *View, mean float64) (game.Move, float64) {
	var move game.Move
	gain := 0.0
	for i, filled := range v.Slots[h.seat] {
		if !filled {
			continue
		}
		mine := h.value(h.seat, i, mean)
		for j := 0; j < v.Players; j++ {
			t := game.Seat(j)
			if t == h.seat {
				continue
			}
			for k, f := range v.Slots[t] {
				if !f {
					continue
				}
				g := mine - h.value(t, k, mean)
				if h.mem[t][k] == none {
					g -= 1 // a blind swap for an unknown card is a gamble
				}
				if g > gain {
					move, gain = mkSwap(Slot{h.seat, i}, Slot{t, k}), g
				}
			}
		}
	}
	return move, gain
}
