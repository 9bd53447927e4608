package dacapo

import (
	"slices"

	"tapis/game"
)

// A turn of Da Capo! is many moves, and a search over single moves spends
// its iterations on orders of the same builds and judges each build by
// the playout policy's rest of the turn. Plans lists whole turns instead
// (game.Planner): the build sequences the playout policy's planner finds,
// one per position they lead to (orders that reach the same piles, hand
// and helpers are one plan), each ended by the best few helper moves.

// The plans' limits: positions the planner expands, build sequences kept
// (the best by the planner's points), helper moves tried after each.
const (
	plansBudget  = 400
	plansBuilds  = 6
	plansHelpers = 3
)

// cand is a build sequence the planner considered, by the position it
// reaches.
type cand struct {
	key uint64
	val int
	seq []game.Move
}

// offer keeps the sequence path[:depth], worth val, as a candidate for
// the position key: a new position, or a better way to one.
func (p *rplanner) offer(depth, val int, key uint64) {
	for i := range p.cands {
		c := &p.cands[i]
		if c.key != key {
			continue
		}
		if val > c.val || val == c.val && depth < len(c.seq) {
			c.val, c.seq = val, append(c.seq[:0], p.path[:depth]...)
		}
		return
	}
	if len(p.cands) == cap(p.cands) {
		p.cands = slices.Grow(p.cands, 16)
	}
	p.cands = p.cands[:len(p.cands)+1]
	c := &p.cands[len(p.cands)-1]
	c.key, c.val, c.seq = key, val, append(c.seq[:0], p.path[:depth]...)
}

// Plans implements game.Planner: seat s's whole turns from here, the
// playout policy's own first (its build sequence, then its helper move).
// A plan stops where the seat would learn a card: its personal pile's or
// an opponent's next card turned up, or a hand drawn anew.
func (st *State) Plans(s game.Seat, buf []game.Move, ends []int) ([]game.Move, []int) {
	if st.over || st.turn != s {
		return buf, ends
	}
	// The sequences: the policy's own (its planner's smaller budget),
	// then the others a larger search finds, by their points, and
	// building nothing.
	q := st.plan(s)
	seqs := make([][]game.Move, 0, plansBuilds+2)
	seqs = append(seqs, append([]game.Move(nil), q.bestSeq[:q.bestLen]...))
	planners.Put(q)
	p := st.planWith(s, plansBudget, true)
	defer planners.Put(p)
	slices.SortStableFunc(p.cands, func(a, b cand) int { return b.val - a.val })
	for _, c := range p.cands {
		if len(seqs) > plansBuilds {
			break
		}
		if !slices.Equal(c.seq, seqs[0]) {
			seqs = append(seqs, c.seq)
		}
	}
	if len(seqs[0]) > 0 {
		seqs = append(seqs, nil)
	}
	// A plan is kept once per position it reaches (what s then knows):
	// a card built from a helper pile and the same value put back there
	// is the card built from the hand.
	var seen []uint64
	add := func(y *State, seq []game.Move, end game.Move) {
		if k := y.InfoKey(s); !slices.Contains(seen, k) {
			seen = append(seen, k)
			buf = append(buf, seq...)
			if end != 0 {
				buf = append(buf, end)
			}
			ends = append(ends, len(buf))
		}
	}
	for _, seq := range seqs {
		y := *st
		n, chance := y.applyPlan(s, seq)
		seq = seq[:n]
		if chance || y.over || y.turn != s {
			add(&y, seq, 0)
			continue
		}
		for _, m := range y.turnEnds(s) {
			z := y
			if err := z.Apply(s, m, nil); err != nil {
				panic("dacapo: a planned end of turn was refused: " + err.Error())
			}
			add(&z, seq, m)
		}
	}
	return buf, ends
}

// applyPlan plays seq's builds for seat s until one turns up or draws a
// card, and returns how many it played and whether it stopped so.
func (st *State) applyPlan(s game.Seat, seq []game.Move) (int, bool) {
	for i, m := range seq {
		want := st.nHand[s]
		f := fromOf(m)
		if f == FromHand {
			want--
		}
		if err := st.Apply(s, m, nil); err != nil {
			panic("dacapo: a planned build was refused: " + err.Error())
		}
		// A hand that is not what the build left drew: emptied, or
		// empty when a pile was set aside.
		refilled := st.nHand[s] != want
		if f == FromStock || f == FromOpponent || refilled || st.over || st.turn != s {
			return i + 1, true
		}
	}
	return len(seq), false
}

// turnEnds are the moves that end seat s's turn here, best first: its
// helper moves by the playout policy's rating (helperScore), the best
// plansHelpers of them, or End with an empty hand.
func (st *State) turnEnds(s game.Seat) []game.Move {
	if st.nHand[s] == 0 {
		if slices.Contains(st.Legal(s, nil), endMove) {
			return []game.Move{endMove}
		}
		return nil
	}
	type scored struct {
		m     game.Move
		score int
	}
	var all []scored
	for c := int8(1); c < Kinds; c++ {
		if st.hand[s][c] == 0 {
			continue
		}
		for i := 0; i < Helpers; i++ {
			all = append(all, scored{mkHelp(c, i), st.helperScore(s, c, i)})
		}
	}
	// Stable: among equal scores, the order helperChoice would see them.
	slices.SortStableFunc(all, func(a, b scored) int { return b.score - a.score })
	out := make([]game.Move, 0, plansHelpers)
	for _, x := range all[:min(len(all), plansHelpers)] {
		out = append(out, x.m)
	}
	return out
}
