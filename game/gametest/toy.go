package gametest

import (
	"fmt"
	"strconv"

	"tapis/game"
)

// Toy is a tiny hidden-information game, sound by default, for testing
// the suite itself and whatever takes any game (the registry, the bots):
// each seat holds one face-down card of 0..7; on its turn a seat either
// draws the top card of the deck in place of its own (the old one is
// discarded face up) or stops. The game ends when every seat has stopped
// or the deck is empty; the highest card wins.
//
// Bug names a defect to plant, so that the suite can be shown to catch it:
// "copy", "rng", "mutate", "legal", "view", "key", "value", "horizon",
// "rollout" (see where each is read), and "plain", refusals as plain
// errors instead of game.Refusal.
type Toy struct{ Bug string }

type toyState struct {
	bug     string
	n       int
	rng     game.RNG
	hand    [4]int8
	deck    [8]int8
	nDeck   int
	discard [8]int8
	nDisc   int
	turn    game.Seat
	stopped game.Seats
	refused int // only the "mutate" bug touches it
}

const (
	toyDraw game.Move = 1
	toyStop game.Move = 2
)

func (g Toy) Name() string           { return "toy" }
func (g Toy) Players() (int, int)    { return 2, 4 }
func (g Toy) Options() []game.Option { return nil }
func (g Toy) MarshalMove(m game.Move) ([]byte, error) {
	if m != toyDraw && m != toyStop {
		return nil, fmt.Errorf("toy: not a move")
	}
	return []byte(strconv.Itoa(int(m))), nil
}
func (g Toy) UnmarshalMove(b []byte) (game.Move, error) {
	n, err := strconv.Atoi(string(b))
	if err != nil || (n != 1 && n != 2) {
		return 0, g.refuse(game.ReasonUnreadable, nil, "bad move %q", b)
	}
	return game.Move(n), nil
}

func (g Toy) New(c game.Config) (game.State, error) {
	if err := game.CheckPlayers(g, c.Players); err != nil {
		if g.Bug == "plain" {
			return nil, fmt.Errorf("toy: %v", err)
		}
		return nil, err
	}
	if err := game.DecodeOptions("toy", c.Options, &struct{}{}); err != nil {
		return nil, err
	}
	st := &toyState{bug: g.Bug, n: c.Players, rng: game.NewRNG(c.Seed)}
	var cards [8]int8
	for i := range cards {
		cards[i] = int8(i)
	}
	for i := 7; i > 0; i-- {
		j := st.rng.IntN(i + 1)
		cards[i], cards[j] = cards[j], cards[i]
	}
	copy(st.hand[:], cards[:st.n])
	st.nDeck = copy(st.deck[:], cards[st.n:])
	return st, nil
}

func (st *toyState) Players() int { return st.n }
func (st *toyState) Over() bool   { return st.stopped.Len() == st.n || st.nDeck == 0 }
func (st *toyState) ToMove() game.Seats {
	if st.Over() {
		return 0
	}
	return game.Only(st.turn)
}

func (st *toyState) Legal(s game.Seat, buf []game.Move) []game.Move {
	if !st.ToMove().Has(s) {
		return buf
	}
	buf = append(buf, toyDraw, toyStop)
	if st.bug == "legal" && st.nDeck == 1 {
		buf = append(buf, 3) // a move Apply refuses
	}
	return buf
}

func (st *toyState) Apply(s game.Seat, m game.Move, log *game.Log) error {
	if st.bug == "mutate" {
		st.refused++
	}
	if !st.ToMove().Has(s) {
		return Toy{st.bug}.refuse(game.ReasonNotYourTurn, map[string]any{"turn": int(st.turn)}, "not seat %d's turn", s)
	}
	switch m {
	case toyDraw:
		st.discard[st.nDisc] = st.hand[s]
		st.nDisc++
		st.nDeck--
		st.hand[s] = st.deck[st.nDeck]
		if log != nil {
			log.Add(game.Public, map[string]any{"type": "draw", "seat": s})
		}
	case toyStop:
		st.stopped = st.stopped.With(s)
	default:
		return Toy{st.bug}.refuse(game.ReasonBadMove, nil, "not a move")
	}
	for st.turn = (st.turn + 1) % game.Seat(st.n); st.stopped.Has(st.turn) && !st.Over(); {
		st.turn = (st.turn + 1) % game.Seat(st.n)
	}
	return nil
}

func (st *toyState) View(s game.Seat) any {
	v := map[string]any{"turn": st.turn, "deck": st.nDeck, "discard": st.discard[:st.nDisc]}
	if s >= 0 && int(s) < st.n {
		v["card"] = st.hand[s]
	}
	if st.bug == "view" {
		v["next"] = st.deck[max(st.nDeck-1, 0)]
	}
	return v
}

func (st *toyState) Result() game.Result {
	res := game.Result{Scores: make([]int, st.n), RoundScores: []int{}, Winners: []game.Seat{}}
	if !st.Over() {
		return res
	}
	best := game.Seat(0)
	for s := 0; s < st.n; s++ {
		res.Scores[s] = int(st.hand[s])
		if st.hand[s] > st.hand[best] {
			best = game.Seat(s)
		}
	}
	res.Winners = []game.Seat{best}
	return res
}

func (st *toyState) Clone() game.State  { c := *st; return &c }
func (st *toyState) Reseed(seed uint64) { st.rng = game.NewRNG(seed) }
func (st *toyState) Dump() any {
	return map[string]any{"hands": st.hand[:st.n], "deck": st.deck[:st.nDeck], "turn": st.turn}
}

// Sample redraws the other seats' cards and the deck.
func (st *toyState) Sample(s game.Seat, r *game.RNG) game.State {
	y := *st
	if st.bug == "copy" {
		y.rng = r.Child()
		return &y
	}
	var pool [8]int8
	n := 0
	for t := 0; t < st.n; t++ {
		if game.Seat(t) != s {
			pool[n] = st.hand[t]
			n++
		}
	}
	n += copy(pool[n:], st.deck[:st.nDeck])
	sortInt8(pool[:n])
	for i := n - 1; i > 0; i-- {
		j := r.IntN(i + 1)
		pool[i], pool[j] = pool[j], pool[i]
	}
	k := 0
	for t := 0; t < st.n; t++ {
		if game.Seat(t) != s {
			y.hand[t] = pool[k]
			k++
		}
	}
	copy(y.deck[:], pool[k:n])
	if st.bug != "rng" {
		y.rng = r.Child()
	}
	return &y
}

func (st *toyState) Check() error {
	seen := map[int8]bool{}
	for _, c := range append(append(append([]int8{}, st.hand[:st.n]...), st.deck[:st.nDeck]...), st.discard[:st.nDisc]...) {
		if seen[c] {
			return fmt.Errorf("card %d twice", c)
		}
		seen[c] = true
	}
	if len(seen) != 8 {
		return fmt.Errorf("%d cards", len(seen))
	}
	return nil
}

func sortInt8(a []int8) {
	for i := 1; i < len(a); i++ {
		for j := i; j > 0 && a[j] < a[j-1]; j-- {
			a[j], a[j-1] = a[j-1], a[j]
		}
	}
}

// refuse is the toy's refusal: a game.Refusal, or with the "plain" bug a
// plain error, which the refusal checks must catch.
func (g Toy) refuse(reason string, args map[string]any, format string, a ...any) error {
	if g.Bug == "plain" {
		return fmt.Errorf("toy: "+format, a...)
	}
	return game.Refuse("toy", "", reason, args, format, a...)
}
