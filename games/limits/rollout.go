package limits

import "tapis/game"

// RolloutMove implements game.Roller: a cheap version of the heuristic
// bot for search playouts, played from what the seat to move knows (its
// own hand and hidden cards, the active pile, the limit card), never from
// the others' hidden cards. It places the card least likely to be over,
// accuses when the suspect is probably over, and exchanges when the two
// cards it must put down are probably safe.
func (st *State) RolloutMove(r *game.RNG, buf []game.Move) game.Move {
	if st.phase == phaseHide {
		return st.rolloutHide(st.ToMove().First(), r)
	}
	p := st.turn
	k := st.know(p)
	h := &st.hand[p]

	place, pPlace := game.Move(0), 2.0
	for c := int8(0); c < Colours; c++ {
		if h[c] == 0 {
			continue
		}
		q := k.pOver(c, st.count[c]+1) - float64(h[c])*1e-3
		if q < pPlace {
			place, pPlace = mkPlace(c), q
		}
	}
	if !st.led {
		return place
	}
	acc, pAcc := game.Move(0), -1.0
	for m := st.placed &^ game.Only(p); m != 0; m &= m - 1 {
		t := m.First()
		i := st.last[t]
		q := k.pOver(st.pile[i], st.upTo[i])
		// The suspect chose that card knowing its own hidden ones: as in
		// the heuristic, its choice is evidence that it is not over.
		q = q * suspectRatio / (q*suspectRatio + 1 - q)
		if q > pAcc {
			acc, pAcc = mkAccuse(t), q
		}
	}
	if acc != 0 && (pAcc >= accuseAt || place == 0) {
		return acc
	}
	for c := int8(0); c < Colours; c++ {
		if h[c] >= 4 && k.pOver(c, st.count[c]+2) <= exchangeAt {
			return mkExchange(c)
		}
	}
	if place != 0 {
		return place
	}
	buf = st.Legal(p, buf[:0])
	return buf[r.IntN(len(buf))]
}

// knowledge is what one seat knows of a colour's limit in a round: the
// base limits plus its own hidden cards, and the cards it cannot see,
// among which the others' hidden cards are.
type knowledge struct {
	limit  [Colours]int8 // base + own hidden; X: unlimited
	unseen [Colours]int8
	total  int8
	others int8 // the others' hidden cards
}

func (st *State) know(p game.Seat) knowledge {
	var k knowledge
	base := &limitTable[st.cur-1]
	for c := 0; c < Colours; c++ {
		k.limit[c] = base[c]
		if base[c] != X {
			k.limit[c] += st.hidden[p][c]
		}
		k.unseen[c] = max(PerColour-st.hand[p][c]-st.hidden[p][c]-st.count[c], 0)
		k.total += k.unseen[c]
	}
	for j := 0; j < int(st.n); j++ {
		if game.Seat(j) != p && st.hid.Has(game.Seat(j)) {
			k.others += st.hideN
		}
	}
	k.others = min(k.others, k.total)
	return k
}

// pOver is the chance that count cards of colour c are over its limit:
// that fewer than count - limit of the others' hidden cards, drawn from
// the unseen ones, are of colour c (the hypergeometric law).
func (k *knowledge) pOver(c, count int8) float64 {
	if k.limit[c] == X {
		return 0
	}
	need := int(count - k.limit[c])
	if need <= 0 {
		return 0
	}
	d, m, n := int(k.others), int(k.unseen[c]), int(k.total)
	if need > d || need > m {
		return 1
	}
	// P(H = 0), then P(H = j+1) from P(H = j).
	q := 1.0
	for i := 0; i < d; i++ {
		q *= float64(n-m-i) / float64(n-i)
	}
	p := 0.0
	for j := 0; j < need; j++ {
		p += q
		q *= float64((m-j)*(d-j)) / float64((j+1)*(n-m-d+j+1))
	}
	return min(p, 1)
}

// rolloutHide hides the card(s) that leave the most safe plays, as the
// heuristic does: a hidden card raises its colour's limit.
func (st *State) rolloutHide(p game.Seat, r *game.RNG) game.Move {
	base := &limitTable[st.cur-1]
	h := st.hand[p]
	best, bestScore := game.Move(0), -1e9
	try := func(m game.Move, a, b int8, two bool) {
		hand := h
		var hid [Colours]int8
		hand[a]--
		hid[a]++
		if two {
			hand[b]--
			hid[b]++
		}
		score := 0.0
		for c := 0; c < Colours; c++ {
			if base[c] == X {
				score += float64(hand[c]) + 0.5
				continue
			}
			score += float64(min(hand[c], base[c]+hid[c]))
			if hand[c] >= 4 {
				score++
			}
		}
		score += float64(r.IntN(1000)) * 1e-5
		if score > bestScore {
			best, bestScore = m, score
		}
	}
	for a := int8(0); a < Colours; a++ {
		if h[a] == 0 {
			continue
		}
		if st.hideN == 1 {
			try(mkHide1(a), a, 0, false)
			continue
		}
		for b := a; b < Colours; b++ {
			if h[b] > b2i8(a == b) {
				try(mkHide2(a, b), a, b, true)
			}
		}
	}
	return best
}
