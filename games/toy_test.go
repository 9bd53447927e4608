package games_test

import (
	"fmt"
	"strconv"

	"tapis/game"
)

// toy is a fifth game, registered as docs/games.md says a new game is:
// its engine (here, in a real game, games/toy/toy.go and its other rule
// files) and its Entry (games/toy/register.go), then one line in
// games/games.go, which a test stands in for with registeredAndToy.
//
// Each seat holds one face-down card of 0..7; on its turn a seat either
// draws the top card of the deck in place of its own (the old one is
// discarded face up) or stops. The game ends when every seat has stopped
// or the deck is empty; the highest card wins.
type toy struct{}

// Entry is the toy's registration: everything Tapis knows about it.
func (toy) Entry() game.Entry {
	return game.Entry{
		Game:    toy{},
		Levels:  game.Levels{Normal: 20, Hard: 50},
		Anchors: map[string]float64{"random": 0, "easy": 20, "normal": 25, "hard": 30},
		Look:    game.Look{Title: "Toy", Scoring: "high", Round: "round"},
		Trials:  []game.Trial{{Games: 100, Configs: game.Configs(2, 4)}},
		Reasons: []string{game.ReasonNotYourTurn, game.ReasonBadMove, game.ReasonUnreadable, game.ReasonBadPlayers, game.ReasonBadOptions},
	}
}

type toyState struct {
	n       int
	rng     game.RNG
	hand    [4]int8
	deck    [8]int8
	nDeck   int
	discard [8]int8
	nDisc   int
	turn    game.Seat
	stopped game.Seats
}

const (
	toyDraw game.Move = 1
	toyStop game.Move = 2
)

func (toy) Name() string           { return "toy" }
func (toy) Players() (int, int)    { return 2, 4 }
func (toy) Options() []game.Option { return nil }
func (toy) MarshalMove(m game.Move) ([]byte, error) {
	if m != toyDraw && m != toyStop {
		return nil, fmt.Errorf("toy: not a move")
	}
	return []byte(strconv.Itoa(int(m))), nil
}
func (toy) UnmarshalMove(b []byte) (game.Move, error) {
	n, err := strconv.Atoi(string(b))
	if err != nil || (n != 1 && n != 2) {
		return 0, game.Refuse("toy", "", game.ReasonUnreadable, nil, "bad move %q", b)
	}
	return game.Move(n), nil
}

func (g toy) New(c game.Config) (game.State, error) {
	if err := game.CheckPlayers(g, c.Players); err != nil {
		return nil, err
	}
	if err := game.DecodeOptions("toy", c.Options, &struct{}{}); err != nil {
		return nil, err
	}
	st := &toyState{n: c.Players, rng: game.NewRNG(c.Seed)}
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
	return append(buf, toyDraw, toyStop)
}

func (st *toyState) Apply(s game.Seat, m game.Move, log *game.Log) error {
	if !st.ToMove().Has(s) {
		return game.Refuse("toy", "", game.ReasonNotYourTurn, map[string]any{"turn": int(st.turn)}, "not seat %d's turn", s)
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
		return game.Refuse("toy", "", game.ReasonBadMove, nil, "not a move")
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
	var pool [8]int8
	n := 0
	for t := 0; t < st.n; t++ {
		if game.Seat(t) != s {
			pool[n] = st.hand[t]
			n++
		}
	}
	n += copy(pool[n:], st.deck[:st.nDeck])
	for i := 1; i < n; i++ { // sorted: the sample must not depend on the order
		for j := i; j > 0 && pool[j] < pool[j-1]; j-- {
			pool[j], pool[j-1] = pool[j-1], pool[j]
		}
	}
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
	y.rng = r.Child()
	return &y
}
