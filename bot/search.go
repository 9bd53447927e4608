package bot

import (
	"encoding/json"
	"math"
	"time"

	"tapis/game"
)

// Search is an information-set Monte Carlo tree search player (single
// observer ISMCTS: Cowling, Powley & Whitehouse, 2012). Every iteration
// draws a full state from its seat's knowledge (Knowledge.Sample), walks
// one shared tree choosing by UCB among the moves legal in that drawn
// state, adds one edge, plays on with the game's rollout policy
// (game.Roller, else uniform moves) to the end of the round (game.Valuer),
// a few turns on (game.Horizon) or to the end of the game, and credits each edge with the result of the seat that
// chose it.
//
// The tree's nodes are the searching seat's information sets: after a
// move the walk goes to the child for what the seat now knows
// (game.Keyer, else a hash of its view), so that its later choices are
// judged per card it would see rather than averaged over all of them.
//
// With an iteration budget and a seed, its choices are deterministic.
type Search struct {
	// Iterations per move; when 0, Time bounds each move instead.
	Iterations int
	Time       time.Duration
	// Seats, when set, is the largest table at which a move searches
	// Iterations: at n seats above it, Iterations*Seats/n (game.Levels'
	// HardSeats), so that a move costs about the same CPU at any size.
	Seats int
	// Early, when set, replaces Iterations at a decision the game says a
	// search may not determinize yet (game.Determinable says no:
	// Papayoo's pass; game.Levels' HardEarly).
	Early int
	// C is the UCB exploration constant, for rewards in [0, 1], in games
	// that name none of their own (game.Explorer).
	C float64
	// Prior, when set, is a player for the same seat (the game's heuristic
	// bot) that is told the same events. Its choice is credited with
	// PriorShare of the iterations, as virtual visits, when the search
	// decides: the search must find a clearly better move to overrule it.
	Prior      game.Player
	PriorShare float64
	// RollOthers lets the other seats answer by the game's playout policy
	// during the walk down the tree too, in games whose policy says it
	// models them (game.OpponentModel), so that only the searching seat's
	// moves are edges. It measured better in Papayoo (61.5% of the
	// heuristics' points instead of 67%) and worse in Limits (88% share
	// instead of 96%), hence the game's say.
	RollOthers bool
	// Widen, in the same games, makes a node try the playout policy's move
	// first and admit another only while it has fewer than 1 + sqrt(visits)
	// edges, so a small budget is spent near the policy's choice instead
	// of on every move once (Cabo: 67% against the heuristic instead of
	// 62% at 800 iterations, 300 games).
	Widen bool
	// Horizon, in games that have one (game.Horizon), stops walks and
	// playouts a few turns after the root and keeps the tree as shallow as
	// the game asks, judging the position there by the game's Value (Da
	// Capo: 62% against the heuristic at 800 iterations, against 7%
	// playing whole games).
	Horizon bool
	// Plans, in games that list whole turns (game.Planner: Da Capo!),
	// makes the search judge turns rather than single moves: a flat
	// search over the game's plans, each played whole before the playout,
	// whose first move it plays; the rest of the chosen plan follows at
	// the next choices of the turn without searching again, while the
	// seat's knowledge is what the plan expected.
	Plans bool
	// Belief draws the iterations' worlds from a pool of samples weighted
	// by how likely the other seats' moves so far were in each, in games
	// whose states can say (game.Believer; bot/belief.go).
	Belief bool
	// Leaf, when set, may stop a playout before its bound and value the
	// position instead (bot/learn: a model learned by self-play).
	Leaf Evaluator
	// Worlds, when set, makes the search perfect-information Monte Carlo
	// (bot/pimc.go): it draws Worlds worlds from its seat's knowledge and
	// searches each as the cheating bot would search the true state,
	// sharing its iterations among them, and plays the move the worlds'
	// searches favour together.
	Worlds int
	// Flat, with Plans, judges the game's plans at a decision it says may
	// not be determinized yet (Papayoo's whole passes) by flat Monte Carlo
	// on common worlds, with the budget of all the plan's moves at once
	// (bot/flat.go).
	Flat bool
	// Cheat makes the search ask for the true state rather than samples
	// (game.Omniscient): the reference bot, for measurement only.
	Cheat bool
	// Blind, with Cheat, redraws each world's future randomness
	// (State.Reseed: the dice still to roll, the deals to come, the order
	// of Da Capo!'s cards face down): the cheat then sees every card in
	// someone's hand or face up, but not what nobody knows yet. Without
	// it, the true state's copy rolls its dice as the table will, so
	// that Papayoo's cheat knows at the pass which suit the die will make
	// the Papayoo's (docs/bots.md, Where Papayoo's gap lies).
	Blind bool
	// Yield, if set, is called every yieldEvery iterations. A host that
	// runs searches beside latency-bound work sets it to runtime.Gosched:
	// Go preempts a running goroutine only after about 10 ms, so without
	// it a person's move could wait that long behind a search at every
	// goroutine it passes through (socket, table, store, socket). It does
	// not change what the search chooses.
	Yield func()

	rng   game.RNG
	c     float64 // this search's exploration constant: C or the game's
	nodes []node
	edges []edge
	legal []game.Move
	buf   []game.Move
	hints []game.Move
	kids  []int32
	path  []int32
	plan  planned
	// worlds is the belief pool of the decision being made.
	worlds worlds
	// pimc is PIMC's scratch space (Worlds).
	pimc pimc
	// openRoot has the root try every move once before any twice, even
	// when widening (PIMC's worlds: each judges every move).
	openRoot bool
}

// node is an information set of the searching seat.
type node struct {
	key  uint64
	edge int32 // first edge, or -1
	next int32 // next node under the same edge, or -1
}

// edge is a move from a node, with its statistics.
type edge struct {
	move   game.Move
	seat   game.Seat // who makes the move
	next   int32     // next edge of the same node, or -1
	child  int32     // first node reached, or -1
	visits float64
	avail  float64 // how often the move was legal when its node was walked
	reward float64
	top    float64 // the best reward an iteration through it brought
}

// NewSearch returns a search player with an iteration budget (or, when
// iterations is 0, a time budget per move).
func NewSearch(iterations int, budget time.Duration, seed uint64) *Search {
	return &Search{Iterations: iterations, Time: budget, C: 0.7, RollOthers: true, Widen: true, Horizon: true, rng: game.NewRNG(seed)}
}

// Observe implements game.Player. The search itself needs no memory, since
// Sample draws from everything its seat has been told; the prior might.
func (p *Search) Observe(e game.Event) {
	if p.Prior != nil {
		p.Prior.Observe(e)
	}
}

// yieldEvery is how many iterations a search runs between calls to its
// Yield (a power of two): 16 is 25–180 µs of search, so a person's move
// waits that long at most, while yielding costs well under 1% of it.
const yieldEvery = 16

// Cheats implements game.Cheater.
func (p *Search) Cheats() bool { return p.Cheat }

// Choose implements game.Player.
func (p *Search) Choose(k game.Knowledge) game.Move {
	if m, ok := p.plan.next(k); ok {
		return m
	}
	// The seat's true legal moves, kept apart from buf, which the
	// iterations reuse for the sampled states' moves.
	p.legal = k.Legal(p.legal[:0])
	if len(p.legal) > 1 {
		p.legal = p.prune(k, p.legal)
	}
	if len(p.legal) == 1 {
		return p.legal[0]
	}
	p.believe(k)
	if p.Plans {
		// Where the game says a decision may not be determinized yet
		// (Papayoo's pass), plans are judged flat when Flat says so, and
		// otherwise not at all: the UCB search over plans, crediting the
		// policy's with the prior's share, kept the heuristic's pass.
		if !p.perfectHere(k) {
			if p.Flat {
				if m, ok := p.chooseFlat(k); ok {
					return m
				}
			}
		} else if m, ok := p.choosePlan(k); ok {
			return m
		}
	}
	prior, hasPrior := game.Move(0), false
	if p.Prior != nil {
		prior, hasPrior = p.Prior.Choose(k), true
	}
	if p.Worlds > 0 && !p.Cheat && p.perfectHere(k) {
		return p.choosePIMC(k, prior, hasPrior)
	}
	n := p.grow(k, p.budgetHere(k))
	best, most := game.Move(0), -1.0
	for e := p.nodes[0].edge; e >= 0; e = p.edges[e].next {
		ed := &p.edges[e]
		if ed.seat != k.Seat() || !game.Contains(p.legal, ed.move) {
			// Not a move of this seat in the true state: the walk puts
			// the seat's own moves at the root (mover), so this is only
			// a guard, that a table never be sent a move it refuses.
			continue
		}
		v := ed.visits
		if hasPrior && ed.move == prior {
			v += p.PriorShare * float64(n)
		}
		if v > most {
			best, most = ed.move, v
		}
	}
	if most < 0 {
		return p.legal[0]
	}
	return best
}

// grow builds a new tree from k's samples with the given iterations (when
// 0, for the search's Time), and returns how many it ran.
func (p *Search) grow(k game.Knowledge, iterations int) int {
	p.nodes = append(p.nodes[:0], node{edge: -1, next: -1})
	p.edges = p.edges[:0]
	p.c = p.C
	return p.run(iterations, func(int) { p.iterate(k) })
}

// iterations is the search's budget a move at a table of n seats: its
// Iterations, fewer above Seats; 0 for a time budget.
func (p *Search) iterations(n int) int { return p.scaled(p.Iterations, n) }

// scaled is a budget of iterations at a table of n seats: fewer above
// Seats.
func (p *Search) scaled(iterations, n int) int {
	if iterations > 0 && p.Seats > 0 && n > p.Seats {
		return max(iterations*p.Seats/n, 1)
	}
	return iterations
}

// budgetHere is the search's iterations for the decision of k: Early
// where the game says the decision may not be determinized yet, else
// iterations.
func (p *Search) budgetHere(k game.Knowledge) int {
	if p.Early > 0 && p.Iterations > 0 && !p.perfectHere(k) {
		return p.scaled(p.Early, k.Players())
	}
	return p.iterations(k.Players())
}

// run calls iterate with 0, 1, ... for iterations (when 0, for the
// search's Time), and returns how many iterations it ran.
func (p *Search) run(iterations int, iterate func(n int)) int {
	var deadline time.Time
	if iterations <= 0 {
		deadline = time.Now().Add(p.Time)
	}
	n := 0
	for ; iterations <= 0 || n < iterations; n++ {
		if iterations <= 0 && n&15 == 0 && n > 0 && time.Now().After(deadline) {
			break
		}
		if p.Yield != nil && n&(yieldEvery-1) == yieldEvery-1 {
			p.Yield()
		}
		iterate(n)
	}
	return n
}

// prune narrows the seat's true legal moves as the game's Pruner would in
// every state the seat might sample: a Pruner judges from the seat's
// knowledge alone, so one sample tells. The sample is drawn with a copy
// of the search's generator, so that the iterations' draws are the same
// whether or not the game prunes.
func (p *Search) prune(k game.Knowledge, legal []game.Move) []game.Move {
	r := p.rng
	if pr, ok := k.Sample(&r).(game.Pruner); ok {
		return pr.Prune(k.Seat(), legal)
	}
	return legal
}

// iterate is one walk down the tree, one playout and its backup.
func (p *Search) iterate(k game.Knowledge) {
	st := p.sample(k)
	me := k.Seat()
	if x, ok := st.(game.Explorer); ok {
		p.c = x.Exploration()
	}
	end := newBound(st, p.Horizon)
	keyer, canKey := st.(game.Keyer)
	model, canModel := st.(game.OpponentModel)
	othersRoll := p.RollOthers && canModel && model.ModelsOpponents()
	// last is the edge just taken: its child is found at the next
	// decision, once forced moves have shown what they show.
	cur, last := int32(0), int32(-1)
	p.path = p.path[:0]
	for !end.reached(st) {
		s := mover(st.ToMove(), me)
		if othersRoll && s != me {
			p.apply(st, s, model.RolloutMove(&p.rng, p.buf[:0]))
			continue
		}
		p.buf = st.Legal(s, p.buf[:0])
		if pr, ok := st.(game.Pruner); ok && len(p.buf) > 1 {
			p.buf = pr.Prune(s, p.buf)
		}
		if len(p.buf) == 1 {
			// A forced move is no decision: the walk stays on its node.
			p.apply(st, s, p.buf[0])
			continue
		}
		if last >= 0 {
			var key uint64
			if canKey {
				key = keyer.InfoKey(me)
			} else {
				key = p.viewKey(st, me)
			}
			cur, last = p.reach(last, key), -1
		}
		hint, widen := game.Move(0), false
		if othersRoll && p.Widen && (cur != 0 || !p.openRoot) {
			hint, widen = model.RolloutMove(&p.rng, p.hints[:0]), true
		}
		e, added := p.step(cur, s, hint, widen)
		p.path = append(p.path, e)
		p.apply(st, s, p.edges[e].move)
		if added || end.depth > 0 && len(p.path) >= end.depth {
			break
		}
		last = e
	}
	rewards := p.playout(st, &end)
	for _, e := range p.path {
		ed := &p.edges[e]
		ed.visits++
		ed.reward += rewards[ed.seat]
		ed.top = max(ed.top, rewards[ed.seat])
	}
}

// mover is the seat whose move the walk makes next among those to move:
// the searching seat when it is one of them, else the first. Several seats
// act at once only in a simultaneous phase, where nobody is told another's
// choice before making their own, so the order is free; taking the
// searcher's first makes the root's edges its own moves. Taking the first
// seat instead made the root, for a seat that was not the first to move,
// a tree of another seat's moves in sampled hands: Limits' search bots
// then chose another seat's hide, which their own hand could not make
// (issue 26).
func mover(toMove game.Seats, me game.Seat) game.Seat {
	if toMove.Has(me) {
		return me
	}
	return toMove.First()
}

func (p *Search) apply(st game.State, s game.Seat, m game.Move) {
	if err := st.Apply(s, m, nil); err != nil {
		panic("bot: search: a move its own Legal listed was refused: " + err.Error())
	}
}

// viewKey hashes what seat s sees when the game has no Keyer: its view's
// JSON, which is slow but always right.
func (p *Search) viewKey(st game.State, s game.Seat) uint64 {
	data, err := json.Marshal(st.View(s))
	if err != nil {
		panic("bot: search: view does not encode: " + err.Error())
	}
	h := uint64(14695981039346656037) // FNV-1a
	for _, b := range data {
		h = (h ^ uint64(b)) * 1099511628211
	}
	return h
}

// reach returns the node under edge e with the given key, adding it if new.
func (p *Search) reach(e int32, key uint64) int32 {
	for n := p.edges[e].child; n >= 0; n = p.nodes[n].next {
		if p.nodes[n].key == key {
			return n
		}
	}
	id := int32(len(p.nodes))
	p.nodes = append(p.nodes, node{key: key, edge: -1, next: p.edges[e].child})
	p.edges[e].child = id
	return id
}

// step picks the edge of node cur to follow among the legal moves in
// p.buf: an untried one (added as a new edge) if any, else the best by
// UCB, counting only moves legal in this drawn state. When widening, the
// hint (the playout policy's move) is tried first, and further moves only
// as the node's visits grow.
func (p *Search) step(cur int32, s game.Seat, hint game.Move, widen bool) (int32, bool) {
	p.kids = p.kids[:0]
	untried, hintAt, visits := 0, -1, 0.0
	for i, m := range p.buf {
		e := p.edgeOf(cur, m)
		p.kids = append(p.kids, e)
		switch {
		case e >= 0:
			visits += p.edges[e].visits
		default:
			untried++
			if widen && m == hint {
				hintAt = i
			}
		}
	}
	if tried := len(p.buf) - untried; widen && untried > 0 && tried > 0 && float64(tried) >= 1+math.Sqrt(visits) {
		untried = 0 // not wide enough yet: choose among the tried ones
	}
	if untried > 0 && hintAt >= 0 {
		return p.add(cur, p.buf[hintAt], s), true
	}
	if untried > 0 {
		pick := p.rng.IntN(untried)
		for i, e := range p.kids {
			if e >= 0 {
				continue
			}
			if pick == 0 {
				return p.add(cur, p.buf[i], s), true
			}
			pick--
		}
	}
	best, score := int32(-1), math.Inf(-1)
	for _, e := range p.kids {
		if e < 0 {
			continue
		}
		ed := &p.edges[e]
		ed.avail++
		u := ed.reward/ed.visits + p.c*math.Sqrt(math.Log(ed.avail)/ed.visits)
		if u > score {
			best, score = e, u
		}
	}
	return best, false
}

func (p *Search) edgeOf(cur int32, m game.Move) int32 {
	for e := p.nodes[cur].edge; e >= 0; e = p.edges[e].next {
		if p.edges[e].move == m {
			return e
		}
	}
	return -1
}

func (p *Search) add(n int32, m game.Move, s game.Seat) int32 {
	id := int32(len(p.edges))
	p.edges = append(p.edges, edge{move: m, seat: s, next: p.nodes[n].edge, child: -1, avail: 1})
	p.nodes[n].edge = id
	return id
}

// bound is where an iteration stops: the game's end, the end of the
// root's round when the state can value itself, or its horizon's last
// turn; and how deep the tree may grow.
type bound struct {
	valuer game.Valuer
	start  int // rounds done at the root
	hz     game.Horizon
	turns  int // with hz: the turn count at which play stops
	depth  int // the most decisions a walk keeps in the tree; 0: no limit
}

func newBound(st game.State, horizon bool) bound {
	var b bound
	if v, ok := st.(game.Valuer); ok {
		b.valuer, b.start = v, v.Rounds()
	}
	if h, ok := st.(game.Horizon); ok && horizon && h.Horizon() > 0 {
		b.hz, b.turns, b.depth = h, h.Turns()+h.Horizon(), h.TreeDepth()
	}
	return b
}

func (b *bound) reached(st game.State) bool {
	return st.Over() ||
		b.valuer != nil && b.valuer.Rounds() > b.start ||
		b.hz != nil && b.hz.Turns() >= b.turns
}

// playout plays on from st until the bound, and returns each seat's
// reward in [0, 1]: the state's own value when it has one, else the
// game's result.
func (p *Search) playout(st game.State, end *bound) [game.MaxPlayers]float64 {
	roller, canRoll := st.(game.Roller)
	var r [game.MaxPlayers]float64
	for played := 0; !end.reached(st); played++ {
		if p.Leaf != nil && p.Leaf.Evaluate(st, played, &r) {
			return r
		}
		s := st.ToMove().First()
		var m game.Move
		if canRoll {
			m = roller.RolloutMove(&p.rng, p.buf[:0])
		} else {
			p.buf = st.Legal(s, p.buf[:0])
			m = p.buf[p.rng.IntN(len(p.buf))]
		}
		p.apply(st, s, m)
	}
	if end.valuer != nil {
		for s := 0; s < st.Players(); s++ {
			r[s] = end.valuer.Value(game.Seat(s))
		}
		return r
	}
	w := st.Result().Winners
	for _, s := range w {
		r[s] = 1 / float64(len(w))
	}
	return r
}
