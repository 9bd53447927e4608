package dacapo

import (
	"math/bits"
	"sync"

	"tapis/game"
)

// rplanner is the heuristic bot's search of build sequences (Bot.Choose),
// for the playout policy: it reads a State rather than a View, allocates
// nothing, and keeps the best sequence whole so that a playout can follow
// it move by move. Its points are the heuristic's, doubled to be
// integers, but for the piles it leaves the next player (danger).
type rplanner struct {
	me        game.Seat
	n         int
	canRefill bool
	stockTop  int8
	stockLeft int8
	oppTop    [MaxPlayers]int8
	oppLeft   [MaxPlayers]int8
	// helper[i][:hlen[i]] is helper pile i, top first, as far down as a
	// sequence may dig.
	helper [Helpers][maxDig]int8
	hlen   [Helpers]int8

	nodes   int
	path    [maxSeq]game.Move
	best    int
	bestLen int
	bestSeq [maxSeq]game.Move

	dng [MaxPlayers]dangerSource
	nd  int

	// budget is the positions a search may expand; with collect, every
	// sequence considered is offered to the candidates of Plans too.
	budget  int
	collect bool
	cands   []cand

	gen uint32
	tt  [ttSize]ttEntry
}

// The planner's points: the heuristic bot's, doubled.
const (
	pWin      = 2 * winValue
	pStock    = 2 * stockValue
	pRefill   = 2 * refillValue
	pJoker    = 2 * jokerCost
	pOpponent = 2 * opponentCost
	pHand     = 2 * handCost
	pHelper   = 1 // 2 * helperCost
	pNext     = 2 * nextDanger
	pLater    = 2 * laterDanger
	// A pile one or two cards below the next player's top costs too: the
	// heuristic counts only a pile the top fits.
	pGap1 = 2 * nextDanger
	pGap2 = 16
)

// The planner's limits: helper cards a sequence may dig down one pile,
// the longest sequence, its table of positions, and the positions it
// searches (the heuristic's 20000 find little more in playouts).
const (
	maxDig     = 24
	maxSeq     = 64
	ttSize     = 1 << 10
	planBudget = 100
)

// ttEntry remembers the cheapest cost at which a position was expanded
// in the search of generation gen.
type ttEntry struct {
	check uint32 // the key's high bits
	gen   uint32
	cost  int32
}

// ppos is a position of the planner's search. key is its Zobrist hash,
// kept up to date by each change.
type ppos struct {
	key     uint64
	piles   [Piles]int8
	nHand   int8
	dug     [Helpers]int8 // cards taken from each helper pile
	oppUsed uint8         // opponents whose top was played
	aside   bool          // a pile was completed: an emptied hand draws again
	mask    uint16        // the hand's values
	hand    [Kinds]int8
}

// Zobrist keys of the planner's positions, fixed.
var (
	zPile  [Piles][Top]uint64
	zHand  [Kinds][HandSize + 1]uint64
	zDug   [Helpers][maxDig + 1]uint64
	zOpp   [MaxPlayers]uint64
	zAside uint64
	// zStockEnd marks a sequence that ends with the personal top played.
	zStockEnd uint64
)

func init() {
	r := game.NewRNG(0x5eed)
	for i := range zPile {
		for v := range zPile[i] {
			zPile[i][v] = r.Uint64()
		}
	}
	for c := range zHand {
		for k := range zHand[c] {
			zHand[c][k] = r.Uint64()
		}
	}
	for h := range zDug {
		for d := range zDug[h] {
			zDug[h][d] = r.Uint64()
		}
	}
	for t := range zOpp {
		zOpp[t] = r.Uint64()
	}
	zAside = r.Uint64()
	zStockEnd = r.Uint64()
}

// onto is the position after a card is built on pile i.
func (q ppos) onto(i int) ppos {
	v := q.piles[i]
	w := v + 1
	if w == Top {
		w = 0
	}
	q.piles[i] = w
	q.key ^= zPile[i][v] ^ zPile[i][w]
	if w == 0 && !q.aside {
		q.aside = true
		q.key ^= zAside
	}
	return q
}

func (q *ppos) takeHand(c int8) {
	k := q.hand[c]
	q.key ^= zHand[c][k] ^ zHand[c][k-1]
	q.hand[c] = k - 1
	q.nHand--
	if k == 1 {
		q.mask &^= 1 << uint(c)
	}
}

func (q *ppos) dig(h int) {
	d := q.dug[h]
	q.key ^= zDug[h][d] ^ zDug[h][d+1]
	q.dug[h] = d + 1
}

func (q *ppos) useOpp(t int) {
	q.oppUsed |= 1 << uint(t)
	q.key ^= zOpp[t]
}

func (q *ppos) hash() uint64 {
	var k uint64
	for i, v := range q.piles {
		k ^= zPile[i][v]
	}
	for c := 1; c < Kinds; c++ {
		k ^= zHand[c][q.hand[c]]
	}
	for h, d := range q.dug {
		k ^= zDug[h][d]
	}
	for t := range zOpp {
		if q.oppUsed&(1<<uint(t)) != 0 {
			k ^= zOpp[t]
		}
	}
	if q.aside {
		k ^= zAside
	}
	return k
}

var planners = sync.Pool{New: func() any { return new(rplanner) }}

// plan searches seat s's build sequences this turn, like the heuristic
// bot, and returns the planner, which the caller puts back in the pool.
func (st *State) plan(s game.Seat) *rplanner { return st.planWith(s, planBudget, false) }

// planWith is plan with a budget of positions, and with collect, the
// candidates of Plans gathered on the way.
func (st *State) planWith(s game.Seat, budget int, collect bool) *rplanner {
	p := planners.Get().(*rplanner)
	p.gen++
	p.budget, p.collect, p.cands = budget, collect, p.cands[:0]
	p.me, p.n = s, int(st.n)
	p.canRefill = st.nDraw > 0 || st.nAside > 0
	for t := 0; t < int(st.n); t++ {
		if game.Seat(t) == s {
			p.stockTop, p.stockLeft = st.top[t], st.nStock[t]
		} else {
			p.oppTop[t], p.oppLeft[t] = st.top[t], st.nStock[t]
		}
	}
	p.oppTop[s], p.oppLeft[s] = 0, 0
	var r ppos
	r.piles = st.nPile
	r.hand = st.hand[s]
	r.nHand = st.nHand[s]
	r.mask = st.handMask[s]
	for i := 0; i < Helpers; i++ {
		n := int8(0)
		for h := st.hhead[int(s)*Helpers+i]; h != noSlot && n < maxDig; h = st.hnext[h] {
			p.helper[i][n] = st.hcard[h]
			n++
		}
		p.hlen[i] = n
	}
	r.key = r.hash()
	p.nd = 0
	for k := 1; k < p.n; k++ {
		t := (int(s) + k) % p.n
		c := p.oppTop[t]
		if c == 0 || c == Joker {
			continue
		}
		w := [3]int{pLater, 0, 0}
		if k == 1 {
			w = [3]int{pNext, pGap1, pGap2}
		}
		x := dangerSource{bit: uint8(1 << uint(t))}
		for v := int8(0); v < c && v < Top; v++ {
			if g := c - 1 - v; g < 3 {
				x.w[v] = w[g]
			}
		}
		p.dng[p.nd] = x
		p.nd++
	}
	p.nodes = 0
	p.best, p.bestLen = -p.danger(r.piles, 0), 0
	p.dfs(r, 0, 0)
	return p
}

func (p *rplanner) consider(depth, val int, key uint64) {
	if depth == 0 {
		return
	}
	if p.collect {
		p.offer(depth, val, key)
	}
	if val > p.best || val == p.best && depth < p.bestLen {
		p.best, p.bestLen = val, depth
		copy(p.bestSeq[:depth], p.path[:depth])
	}
}

func (p *rplanner) dfs(pos ppos, depth, cost int) {
	p.nodes++
	refill := pos.nHand == 0 && depth > 0 && (p.canRefill || pos.aside)
	val := -cost - p.danger(pos.piles, pos.oppUsed)
	if refill {
		val += pRefill
	}
	p.consider(depth, val, pos.key)
	if refill || p.nodes >= p.budget || depth >= maxSeq-1 {
		return
	}
	e := &p.tt[pos.key&(ttSize-1)]
	check := uint32(pos.key >> 32)
	if e.gen == p.gen && e.check == check && int(e.cost) <= cost {
		return
	}
	e.check, e.gen, e.cost = check, p.gen, int32(cost)
	sp := newSpots(pos)
	if c := p.stockTop; c != 0 {
		for _, i := range sp.of(c) {
			p.stockBuild(pos, depth, cost, int(i))
		}
	}
	for m := pos.mask; m != 0; m &= m - 1 {
		c := int8(bits.TrailingZeros16(m))
		for _, i := range sp.of(c) {
			q := pos.onto(int(i))
			q.takeHand(c)
			p.path[depth] = mkBuild(FromHand, c, int(i))
			p.dfs(q, depth+1, cost+jokerOr(c, pHand))
		}
	}
	for h := 0; h < Helpers; h++ {
		d := pos.dug[h]
		if d >= p.hlen[h] {
			continue
		}
		c := p.helper[h][d]
		for _, i := range sp.of(c) {
			q := pos.onto(int(i))
			q.dig(h)
			p.path[depth] = mkBuild(FromHelper, int8(h), int(i))
			p.dfs(q, depth+1, cost+jokerOr(c, pHelper))
		}
	}
	for t := 0; t < p.n; t++ {
		c := p.oppTop[t]
		if c == 0 || pos.oppUsed&(1<<uint(t)) != 0 || p.oppLeft[t] <= 1 {
			continue
		}
		for _, i := range sp.of(c) {
			q := pos.onto(int(i))
			q.useOpp(t)
			p.path[depth] = mkBuild(FromOpponent, int8(t), int(i))
			p.dfs(q, depth+1, cost+pOpponent)
		}
	}
}

// stockBuild values the sequence that ends with our personal top on
// pile i: the card below is unknown, so the sequence stops there.
func (p *rplanner) stockBuild(pos ppos, depth, cost, i int) {
	q := pos.onto(i)
	val := pStock - cost - p.danger(q.piles, pos.oppUsed)
	if p.stockLeft == 1 {
		val += pWin
	}
	p.path[depth] = mkBuild(FromStock, 0, i)
	p.consider(depth+1, val, q.key^zStockEnd)
}

// dangerSource is a next player's face-up top, which costs w[v] for the
// worst building pile at value v that it fits (or lacks one or two cards
// for), unless that top was played (bit).
type dangerSource struct {
	bit uint8
	w   [Top]int
}

// danger is what leaving these piles costs.
func (p *rplanner) danger(piles [Piles]int8, used uint8) int {
	d := 0
	for i := range p.dng[:p.nd] {
		x := &p.dng[i]
		if used&x.bit == 0 {
			d += max(x.w[piles[0]], x.w[piles[1]], x.w[piles[2]])
		}
	}
	return d
}

// spots are the building piles a card is tried on from one position: a
// card other than a Joker on the first pile it fits (piles at the same
// value are alike), a Joker on one pile per value.
type spots struct {
	piles [Piles]int8
	joker [Piles]int8
	nj    int
	fit   [1]int8
}

func newSpots(pos ppos) spots {
	sp := spots{piles: pos.piles, nj: 1}
	v0, v1, v2 := pos.piles[0], pos.piles[1], pos.piles[2]
	if v1 != v0 {
		sp.joker[sp.nj] = 1
		sp.nj++
	}
	if v2 != v0 && v2 != v1 {
		sp.joker[sp.nj] = 2
		sp.nj++
	}
	return sp
}

// of returns the piles card c is tried on (none when it fits nowhere).
func (sp *spots) of(c int8) []int8 {
	if c == Joker {
		return sp.joker[:sp.nj]
	}
	for i, v := range sp.piles {
		if c-1 == v {
			sp.fit[0] = int8(i)
			return sp.fit[:]
		}
	}
	return nil
}

// jokerOr is what playing card c costs: a Joker's cost, else plain.
func jokerOr(c int8, plain int) int {
	if c == Joker {
		return pJoker
	}
	return plain
}
