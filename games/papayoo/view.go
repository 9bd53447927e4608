package papayoo

import (
	"math/bits"

	"tapis/game"
)

// Event is one thing that happened in a game of Papayoo, as a seat is
// told it. Cards a seat may not know never reach it: a pass is announced
// publicly without its cards ("passed"), and its cards go to the passer
// ("pass") and, at the transfer, to the receiver ("received").
type Event struct {
	// Type is "deal", "hand" (private), "pass_card" (private: one card
	// chosen), "pass" (private: the whole pass), "passed", "received"
	// (private), "die", "play", "trick", "round_end" or "game_over".
	Type string    `json:"type"`
	Seat game.Seat `json:"seat"` // who acted; deal: the dealer; trick: its winner
	// To is the receiver of a pass, From its giver.
	To    *game.Seat `json:"to,omitempty"`
	From  *game.Seat `json:"from,omitempty"`
	Round int        `json:"round,omitempty"`
	// Card is the card played, or the die's Papayoo.
	Card  string   `json:"card,omitempty"`
	Cards []string `json:"cards,omitempty"` // a hand, a pass, a trick in play order
	Suit  string   `json:"suit,omitempty"`  // die: the suit rolled
	// Points is what a trick's winner took.
	Points      *int        `json:"points,omitempty"`
	RoundScores []int       `json:"round_scores,omitempty"`
	Scores      []int       `json:"scores,omitempty"`
	Winners     []game.Seat `json:"winners,omitempty"`
}

// Played is one card on the table and who played it.
type Played struct {
	Seat game.Seat `json:"seat"`
	Card string    `json:"card"`
}

// Trick is a finished trick, shown until the next one completes.
type Trick struct {
	Cards  []Played  `json:"cards"`
	Winner game.Seat `json:"winner"`
	Points int       `json:"points"`
}

func seatPtr(s game.Seat) *game.Seat { return &s }

func intPtr(v int) *int { return &v }

// View is what one seat (or a spectator) may see.
type View struct {
	Seat    game.Seat `json:"seat"` // -1: a spectator
	Players int       `json:"players"`
	Options Options   `json:"options"`
	Round   int       `json:"round"` // the round being played, from 1
	Phase   string    `json:"phase"` // "pass", "play" or "over"
	Dealer  game.Seat `json:"dealer"`
	// Turn is whose card it is in the play phase, -1 otherwise.
	Turn   game.Seat   `json:"turn"`
	ToMove []game.Seat `json:"to_move"`
	// Hand is this seat's hand (cards chosen for a pass stay in it until
	// the transfer); nil for a spectator.
	Hand      []string `json:"hand"`
	HandSizes []int    `json:"hand_sizes"`
	PassSize  int      `json:"pass_size"`
	// Passed are who has committed their pass (pass phase).
	Passed []game.Seat `json:"passed"`
	// MyPass is this seat's pass: the cards chosen so far during the pass,
	// the cards it gave its left neighbour afterwards.
	MyPass []string `json:"my_pass,omitempty"`
	// Received are the cards this seat's right neighbour passed it, once
	// every pass is in.
	Received []string `json:"received,omitempty"`
	// Die is the suit the die named ("" during the pass); Papayoo its 7.
	Die     string `json:"die"`
	Papayoo string `json:"papayoo"`
	// Led is the led suit of the current trick, "" before its first card.
	Led       string   `json:"led"`
	Trick     []Played `json:"trick"`
	LastTrick *Trick   `json:"last_trick,omitempty"`
	// Taken are the points each seat has taken this round.
	Taken       []int       `json:"taken"`
	Scores      []int       `json:"scores"`
	RoundScores []int       `json:"round_scores"` // the last finished round's
	Winners     []game.Seat `json:"winners,omitempty"`
}

// View implements game.State.
func (st *State) View(s game.Seat) any { return st.view(s) }

func (st *State) view(s game.Seat) *View {
	n := int(st.n)
	if s < 0 || int(s) >= n {
		s = game.Spectator
	}
	v := &View{
		Seat: s, Players: n, Options: st.opt, Round: st.rounds + 1, Phase: st.phase.String(),
		Dealer: st.dealer, Turn: -1, ToMove: st.ToMove().List(), PassSize: st.passSize(),
		Passed: st.passed.List(), Die: SuitLetter(st.die), Trick: []Played{},
		Taken: append([]int(nil), st.taken[:n]...), Scores: append([]int(nil), st.scores[:n]...),
		RoundScores: []int{},
	}
	if st.papayoo >= 0 {
		v.Papayoo = CardName(st.papayoo)
	}
	if st.phase == phasePlay {
		v.Turn = st.turn
		v.Led = SuitLetter(st.led)
	}
	for t := 0; t < n; t++ {
		v.HandSizes = append(v.HandSizes, bits.OnesCount64(st.hands[t]))
	}
	if s >= 0 {
		v.Hand = names(st.hands[s])
		if st.pass[s] != 0 {
			v.MyPass = names(st.pass[s])
		}
		if st.phase == phasePlay {
			v.Received = names(st.pass[st.prev(s)])
		}
	}
	for i := 0; i < int(st.nTrick); i++ {
		v.Trick = append(v.Trick, Played{Seat: st.seatAt(st.leader, i), Card: CardName(st.trick[i])})
	}
	if st.last.valid {
		t := &Trick{Winner: st.last.winner, Points: st.last.points}
		for i := 0; i < n; i++ {
			t.Cards = append(t.Cards, Played{Seat: st.seatAt(st.last.leader, i), Card: CardName(st.last.cards[i])})
		}
		v.LastTrick = t
	}
	if st.rounds > 0 {
		v.RoundScores = append(v.RoundScores, st.roundScores[:n]...)
	}
	if st.Over() {
		v.Round = st.rounds
		v.Winners = st.winners.List()
		v.Hand, v.MyPass, v.Received = nil, nil, nil
	}
	return v
}

// seatAt is the seat i places clockwise from leader.
func (st *State) seatAt(leader game.Seat, i int) game.Seat {
	return game.Seat((int(leader) + i) % int(st.n))
}

// dump is the whole state, hidden cards included.
type dump struct {
	Phase    string      `json:"phase"`
	Round    int         `json:"round"`
	Dealer   game.Seat   `json:"dealer"`
	Turn     game.Seat   `json:"turn"`
	Hands    [][]string  `json:"hands"`
	Passes   [][]string  `json:"passes"`
	Passed   []game.Seat `json:"passed"`
	Die      string      `json:"die"`
	Papayoo  string      `json:"papayoo"`
	PlayedBy [][]string  `json:"played_by"`
	Voids    [][]string  `json:"voids"`
	Trick    []Played    `json:"trick"`
	Taken    []int       `json:"taken"`
	Scores   []int       `json:"scores"`
	Winners  []game.Seat `json:"winners"`
}

// Dump implements game.State.
func (st *State) Dump() any {
	n := int(st.n)
	d := dump{
		Phase: st.phase.String(), Round: st.rounds + 1, Dealer: st.dealer, Turn: st.turn,
		Passed: st.passed.List(), Die: SuitLetter(st.die), Trick: []Played{},
		Taken: append([]int(nil), st.taken[:n]...), Scores: append([]int(nil), st.scores[:n]...),
		Winners: st.winners.List(),
	}
	if st.papayoo >= 0 {
		d.Papayoo = CardName(st.papayoo)
	}
	for s := 0; s < n; s++ {
		d.Hands = append(d.Hands, names(st.hands[s]))
		d.Passes = append(d.Passes, names(st.pass[s]))
		d.PlayedBy = append(d.PlayedBy, names(st.playedBy[s]))
		voids := []string{}
		for k := int8(0); k < Suits; k++ {
			if st.voids[s]&(1<<uint(k)) != 0 {
				voids = append(voids, SuitLetter(k))
			}
		}
		d.Voids = append(d.Voids, voids)
	}
	for i := 0; i < int(st.nTrick); i++ {
		d.Trick = append(d.Trick, Played{Seat: st.seatAt(st.leader, i), Card: CardName(st.trick[i])})
	}
	return d
}
