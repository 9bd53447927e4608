package dacapo

import "tapis/game"

// Heuristic implements game.HeuristicGame.
func (Game) Heuristic(s game.Seat, seed uint64) game.Player { return &Bot{seat: s} }

// Bot plays Da Capo! from its seat's view alone. Before each move it
// searches the sequences of builds it could make this turn with what it
// sees (its hand, its helper piles, every personal top, the building
// piles) and plays the first move of the best one; the next move searches
// again, with whatever the last one turned up. A sequence is worth most if
// it reaches the bot's own personal top; Jokers and opponents' cards cost
// enough to be spent only for that; and every sequence pays for leaving
// piles that the next players' tops fit. When no sequence beats stopping,
// it chooses its helper card and pile, or, with an empty hand that cannot
// be refilled, ends the turn (End) rather than feed the next players.
type Bot struct {
	seat game.Seat
	buf  []game.Move
}

// Observe implements game.Player: everything the bot uses is in the view.
func (b *Bot) Observe(game.Event) {}

// Values of the search, in points.
const (
	winValue      = 100000 // the last personal card
	stockValue    = 1000   // a personal card played
	refillValue   = 15     // an emptied hand draws 4 new cards
	jokerCost     = 25     // a Joker from hand or helper spent
	opponentCost  = 30     // an opponent's pile shortened
	handCost      = 1      // any other hand card
	helperCost    = 0.5    // any other helper card (uncovers the next)
	nextDanger    = 20     // the next player's top fits a pile we leave
	laterDanger   = 6      // a later player's top does
	searchBudget  = 20000  // nodes searched per move
	coverJoker    = 25     // helper choice: burying a Joker
	coverCard     = 4      // burying any other card
	coverUseful   = 6      // burying a card below our own top
	descendBonus  = 6      // placing c on c+1: both play in a row
	newPileBonus  = 3      // starting a helper pile: one more card in reach
	sameCardBonus = 1      // placing c on c
)

// Choose implements game.Player.
func (b *Bot) Choose(k game.Knowledge) game.Move {
	v := k.View().(*View)
	b.buf = k.Legal(b.buf[:0])
	p := newPlanner(v, b.seat)
	p.search(p.root(v))
	if p.bestFirst != 0 && game.Contains(b.buf, p.bestFirst) {
		return p.bestFirst
	}
	if m := b.helperMove(v); m != 0 && game.Contains(b.buf, m) {
		return m
	}
	// No helper move: the hand is empty and nothing is left to draw, and
	// stopping is worth more than any build.
	if game.Contains(b.buf, endMove) {
		return endMove
	}
	return b.buf[0]
}

// spos is a position of the search: what changes as the bot builds.
type spos struct {
	piles   [Piles]int8
	hand    [Kinds]int8
	nHand   int8
	helpers [Helpers]int16 // heights of the bot's helper piles (up to 165 - 4)
	oppUsed uint8          // opponents whose top was played (the next is unknown)
	// aside: a pile was completed on the way, so an emptied hand draws
	// again even when nothing was left to draw.
	aside bool
}

type planner struct {
	me        game.Seat
	n         int
	helpers   [Helpers][]Card
	stockTop  int8
	stockLeft int
	oppTop    [MaxPlayers]int8
	oppLeft   [MaxPlayers]int
	canRefill bool

	// seen keeps the lowest cost at which each position was expanded: a
	// dearer way to the same position has nothing new to find.
	seen  map[spos]float64
	nodes int

	best      float64
	bestLen   int
	bestFirst game.Move // 0: stop building
}

func newPlanner(v *View, me game.Seat) *planner {
	p := &planner{me: me, n: v.Players, seen: map[spos]float64{}, canRefill: v.DrawCount > 0 || len(v.SetAside) > 0}
	for t := 0; t < v.Players; t++ {
		st := v.Stocks[t]
		var top int8
		if st.Top != nil {
			top = int8(*st.Top)
		}
		if game.Seat(t) == me {
			p.stockTop, p.stockLeft = top, st.Count
		} else {
			p.oppTop[t], p.oppLeft[t] = top, st.Count
		}
	}
	for i := 0; i < Helpers; i++ {
		p.helpers[i] = v.Helpers[me][i]
	}
	return p
}

func (p *planner) root(v *View) spos {
	var r spos
	for i, pile := range v.Piles {
		r.piles[i] = int8(len(pile))
	}
	for _, c := range v.Hand {
		r.hand[c]++
		r.nHand++
	}
	for i := range p.helpers {
		r.helpers[i] = int16(len(p.helpers[i]))
	}
	return r
}

// search explores the build sequences from r depth first and keeps the
// best first move.
func (p *planner) search(r spos) {
	p.best = -p.danger(r.piles, 0)
	p.dfs(r, 0, 0, 0)
}

// dfs visits pos, reached by first (0 at the root) after depth builds
// that cost cost, and goes on from it.
func (p *planner) dfs(pos spos, first game.Move, depth int, cost float64) {
	p.nodes++
	refill := pos.nHand == 0 && depth > 0 && (p.canRefill || pos.aside)
	val := -cost - p.danger(pos.piles, pos.oppUsed)
	if refill {
		val += refillValue
	}
	p.consider(first, depth, val)
	if refill || p.nodes >= searchBudget {
		return // unknown cards come next, or enough was searched
	}
	if c, ok := p.seen[pos]; ok && c <= cost {
		return
	}
	p.seen[pos] = cost
	// Our own top first: it ends the sequence, since the card below is
	// unknown until it is turned up.
	if c := p.stockTop; c != 0 {
		p.targets(pos, c, func(pile int, next [Piles]int8) {
			val := stockValue - cost - p.danger(next, pos.oppUsed)
			if p.stockLeft == 1 {
				val += winValue
			}
			p.consider(orFirst(first, mkBuild(FromStock, 0, pile)), depth+1, val)
		})
	}
	for c := int8(1); c < Kinds; c++ {
		if pos.hand[c] == 0 {
			continue
		}
		add := float64(handCost)
		if c == Joker {
			add = jokerCost
		}
		p.targets(pos, c, func(pile int, next [Piles]int8) {
			q := pos
			q.piles = next
			q.aside = pos.aside || next[pile] == 0
			q.hand[c]--
			q.nHand--
			p.dfs(q, orFirst(first, mkBuild(FromHand, c, pile)), depth+1, cost+add)
		})
	}
	for i := 0; i < Helpers; i++ {
		h := pos.helpers[i]
		if h == 0 {
			continue
		}
		c := int8(p.helpers[i][h-1])
		add := helperCost
		if c == Joker {
			add = jokerCost
		}
		p.targets(pos, c, func(pile int, next [Piles]int8) {
			q := pos
			q.piles = next
			q.aside = pos.aside || next[pile] == 0
			q.helpers[i]--
			p.dfs(q, orFirst(first, mkBuild(FromHelper, int8(i), pile)), depth+1, cost+add)
		})
	}
	for t := 0; t < p.n; t++ {
		c := p.oppTop[t]
		// Never empty an opponent's pile: that wins them the game.
		if c == 0 || pos.oppUsed&(1<<uint(t)) != 0 || p.oppLeft[t] <= 1 {
			continue
		}
		p.targets(pos, c, func(pile int, next [Piles]int8) {
			q := pos
			q.piles = next
			q.aside = pos.aside || next[pile] == 0
			q.oppUsed |= 1 << uint(t)
			p.dfs(q, orFirst(first, mkBuild(FromOpponent, int8(t), pile)), depth+1, cost+opponentCost)
		})
	}
}

// targets calls f for each building pile card c fits, once per pile
// value (piles of equal value are alike), with the piles after the build.
func (p *planner) targets(pos spos, c int8, f func(pile int, next [Piles]int8)) {
	var done uint16
	for i := 0; i < Piles; i++ {
		v := pos.piles[i]
		if done&(1<<uint(v)) != 0 || (c != Joker && c != v+1) {
			continue
		}
		done |= 1 << uint(v)
		next := pos.piles
		next[i]++
		if next[i] == Top {
			next[i] = 0
		}
		f(i, next)
	}
}

// consider records a sequence's value if it is the best so far.
func (p *planner) consider(first game.Move, depth int, val float64) {
	if first == 0 {
		return // the root was valued in search
	}
	if val > p.best || val == p.best && depth < p.bestLen {
		p.best, p.bestLen, p.bestFirst = val, depth, first
	}
}

func orFirst(first, m game.Move) game.Move {
	if first != 0 {
		return first
	}
	return m
}

// helperMove chooses the card and helper pile that end the turn: keep
// what is in reach in reach (a Joker, a card below our own top), make
// descending runs (c onto c+1 plays both in a row), start new piles.
func (b *Bot) helperMove(v *View) game.Move {
	me := b.seat
	var top int8
	if t := v.Stocks[me].Top; t != nil {
		top = int8(*t)
	}
	low := int8(Top)
	for _, pile := range v.Piles {
		low = min(low, int8(len(pile)))
	}
	best, bestScore := game.Move(0), -1e18
	for c := int8(1); c < Kinds; c++ {
		if !containsCard(v.Hand, c) {
			continue
		}
		for i := 0; i < Helpers; i++ {
			pile := v.Helpers[me][i]
			sc := 0.0
			if len(pile) == 0 {
				sc += newPileBonus
			} else {
				t := int8(pile[len(pile)-1])
				switch {
				case t == Joker:
					sc -= coverJoker
				case t == c+1:
					sc += descendBonus
				case t == c:
					sc += sameCardBonus
				default:
					sc -= coverCard
					if top != Joker && t > low && t < top {
						sc -= coverUseful
					}
				}
			}
			// A card we can play next turn anyway is better kept on top
			// than a card nobody needs soon: prefer the high ones there.
			sc += float64(c) / 100
			if sc > bestScore {
				best, bestScore = mkHelp(c, i), sc
			}
		}
	}
	return best
}

func containsCard(cs []Card, c int8) bool {
	for _, x := range cs {
		if int8(x) == c {
			return true
		}
	}
	return false
}

// danger is what leaving these piles costs: the points for every
// opponent whose visible top would fit.
func (p *planner) danger(piles [Piles]int8, used uint8) float64 {
	d := 0.0
	for k := 1; k < p.n; k++ {
		t := (int(p.me) + k) % p.n
		c := p.oppTop[t]
		if c == 0 || c == Joker || used&(1<<uint(t)) != 0 {
			continue
		}
		if c == piles[0]+1 || c == piles[1]+1 || c == piles[2]+1 {
			if k == 1 {
				d += nextDanger
			} else {
				d += laterDanger
			}
		}
	}
	return d
}
