package game

// The interfaces below are optional capabilities of a State that search
// bots use when a game offers them. None of them may read what the seat in
// question could not know: a search calls them on states drawn by Sample,
// where hidden cards are guesses, and on the true state only when it is
// the measuring bot that cheats.

// Roller is a State that picks a quick, sensible move for the seat to move,
// for search playouts: far better estimates than uniform random moves, at
// a fraction of the cost of a full heuristic bot. buf is scratch space.
type Roller interface {
	RolloutMove(r *RNG, buf []Move) Move
}

// Valuer is a State that can judge a position at the end of a round, so a
// search need not play whole games whose later rounds drown the effect of
// one move.
type Valuer interface {
	// Rounds counts completed rounds, cheaply (Result allocates).
	Rounds() int
	// Value says how well seat s stands, from 0 (a certain loss) to 1 (a
	// certain win), from public scores only.
	Value(s Seat) float64
}

// Keyer is a State that hashes what seat s knows cheaply. Two states that
// look the same to s (equal Views) must have equal keys. A search keys its
// tree's nodes by it, so that its own later choices are judged per card it
// would then see rather than averaged over every card it might see.
type Keyer interface {
	InfoKey(s Seat) uint64
}

// OpponentModel is a Roller whose playout policy is close enough to how
// the other seats play that a search may let it answer for them during
// its walk down the tree as well, rather than trying every reply. Whether
// that helps depends on the game, so the game says.
type OpponentModel interface {
	Roller
	ModelsOpponents() bool
}

// Horizon is a Valuer whose Value also judges a position between turns,
// for games whose rounds are long and whose single moves change little:
// a search then stops its walks and playouts a few turns after its root,
// where one move's effect is not yet drowned by the noise of many others.
type Horizon interface {
	Valuer
	// Turns counts the turns ended so far, cheaply.
	Turns() int
	// Horizon is how many turns from its root a search plays before it
	// values the position, the root's own turn included.
	Horizon() int
	// TreeDepth is how many of its own decisions a search's walk keeps
	// in the tree (0: no limit); the playout policy makes the rest.
	TreeDepth() int
}

// Explorer is a State whose values call for their own UCB exploration
// constant (a search's C, for rewards in [0, 1]) rather than the search's
// default: how far apart its moves' mean values lie depends on how the
// game spreads its rewards, and a constant made for one game explores too
// much or too little in another. It is a constant of the game, never of
// what a state holds.
type Explorer interface {
	Exploration() float64
}

// Pruner is a State that narrows the moves a search considers for seat s
// to those worth its time, from what s knows alone (it is called on
// sampled states): moves s knows to be no better than another (a claim
// its cards already showed false), or, where the rules give a round no
// end, all but the move that ends it once the round has gone on far
// longer than any round between people. It returns a non-empty subset of
// moves, in moves' own storage.
type Pruner interface {
	Prune(s Seat, moves []Move) []Move
}

// Planner is a State whose turns chain many moves of one seat (Da Capo!'s
// builds): it lists seat s's whole turns from here as plans, so that a
// search judges turns rather than single moves and their orders. A plan
// is a sequence of s's moves that its knowledge alone decides: it stops
// where s would learn a card (one turned up or drawn) or where the turn
// ends. Plans appends each plan's moves to buf and the index after its
// last move to ends; the first plan is the game's playout policy's own.
// Like every capability, it reads only what s knows.
type Planner interface {
	Plans(s Seat, buf []Move, ends []int) ([]Move, []int)
}

// Believer is a State that can say how likely the moves the other seats
// made so far were, given this state's hidden cards, had each been made
// by the game's model of that seat (its playout policy's choice with
// probability 1−eps, else uniformly among its legal moves): the log of
// that probability, up to a constant that is the same for every sample
// of one seat's knowledge. It reads the public record of moves and this
// state's own cards, so on a sample it reads only what seat s knows and
// what the sample guessed. A search weighs its samples by it
// (belief-weighted sampling): worlds where the others' moves were what
// a sensible player holding those cards would make count for more.
type Believer interface {
	Belief(s Seat, eps float64) float64
}

// Determinable is a State that says whether a search may choose seat s's
// move here by perfect-information Monte Carlo: searching worlds drawn
// from s's knowledge each as if its every card were seen, and playing the
// move they favour together. It says no where the worlds' searches would
// each plan on hidden cards that will not show for long, so that they
// agree on nothing s could act on (Papayoo's pass, chosen before any card
// is played). Like every capability, it reads only what s knows. A search
// takes a State without it as saying yes.
type Determinable interface {
	Determinable(s Seat) bool
}
