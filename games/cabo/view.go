package cabo

import "tapis/game"

// Event is one thing that happened in a game of Cabo, as a seat is told
// it. Private details (Seen) go only to the seats allowed to see them; the
// same action reaches the others without them.
type Event struct {
	// Type is "deal", "peek_initial", "draw", "take_discard", "replace",
	// "discard", "peek", "spy", "swap", "cabo", "reshuffle", "round_end"
	// or "game_over".
	Type  string    `json:"type"`
	Seat  game.Seat `json:"seat"`            // who acted (deal: who starts)
	Round int       `json:"round,omitempty"` // deal: the round that starts
	Slots []int     `json:"slots,omitempty"` // the actor's slots involved
	// Target is the slot looked at by a peek or a spy.
	Target *Slot `json:"target,omitempty"`
	A      *Slot `json:"a,omitempty"` // swap
	B      *Slot `json:"b,omitempty"`
	// Card is a card made public: the first discard of a deal, the card
	// taken from the discard, or the card that went onto the discard pile.
	Card *int `json:"card,omitempty"`
	// Discarded are the cards a placement sent onto the discard pile.
	Discarded []int `json:"discarded,omitempty"`
	// Seen are cards shown to this event's audience: a peek's or a draw's
	// (private), a failed set's (public), in slot order.
	Seen    []int       `json:"seen,omitempty"`
	Failed  bool        `json:"failed,omitempty"` // a set claim that failed
	Count   int         `json:"count,omitempty"`  // reshuffle: cards in the new draw pile
	End     *RoundEnd   `json:"end,omitempty"`
	Winners []game.Seat `json:"winners,omitempty"`
	Scores  []int       `json:"scores,omitempty"`
}

// View is what one seat (or a spectator) may see: the table as it lies,
// never a face-down card. Cards the seat peeked at are not repeated here.
type View struct {
	Seat      game.Seat   `json:"seat"` // -1: a spectator
	Players   int         `json:"players"`
	Options   Options     `json:"options"`
	Round     int         `json:"round"` // the round being played, from 1
	Phase     string      `json:"phase"` // "peek", "turn", "drawn" or "over"
	Turn      game.Seat   `json:"turn"`
	ToMove    []game.Seat `json:"to_move"`
	Peeked    []game.Seat `json:"peeked"` // who has made their initial peek
	Slots     [][]bool    `json:"slots"`  // per seat: which slots hold a card
	Discard   []int       `json:"discard"`
	DrawCount int         `json:"draw_count"`
	// Drawn is the card this seat holds after drawing; nil for anyone else.
	Drawn          *int        `json:"drawn,omitempty"`
	Caller         game.Seat   `json:"caller"` // -1: nobody called yet
	FinalTurnsLeft int         `json:"final_turns_left"`
	Scores         []int       `json:"scores"`
	Resets         []int       `json:"resets"`
	LastRound      *RoundEnd   `json:"last_round,omitempty"`
	Winners        []game.Seat `json:"winners,omitempty"`
}

// View implements game.State.
func (st *State) View(s game.Seat) any { return st.view(s) }

func (st *State) view(s game.Seat) *View {
	n := int(st.n)
	if s < 0 || int(s) >= n {
		s = game.Spectator
	}
	v := &View{
		Seat: s, Players: n, Options: st.opt, Round: st.rounds + 1,
		Phase: st.phase.String(), Turn: st.turn, ToMove: st.ToMove().List(),
		Peeked: st.peeked.List(), DrawCount: int(st.nDraw),
		Caller: st.caller, FinalTurnsLeft: int(st.finalLeft),
		Scores: append([]int(nil), st.scores[:n]...), Resets: append([]int(nil), st.resets[:n]...),
	}
	for t := 0; t < n; t++ {
		row := make([]bool, st.opt.HandSize)
		for i := range row {
			row[i] = st.hands[t][i] != none
		}
		v.Slots = append(v.Slots, row)
	}
	for _, c := range st.discard[:st.nDisc] {
		v.Discard = append(v.Discard, int(c))
	}
	if st.phase == phaseDrawn && s == st.turn {
		v.Drawn = card(st.drawn)
	}
	if st.rounds > 0 {
		v.LastRound = st.roundEnd()
	}
	if st.Over() {
		v.Round = st.rounds
		v.Winners = st.winners.List()
	}
	return v
}

// dump is the whole state, hidden cards included.
type dump struct {
	Phase     string      `json:"phase"`
	Round     int         `json:"round"`
	Turn      game.Seat   `json:"turn"`
	Hands     [][]int     `json:"hands"`
	Draw      []int       `json:"draw"` // top first
	Discard   []int       `json:"discard"`
	Drawn     *int        `json:"drawn,omitempty"`
	Caller    game.Seat   `json:"caller"`
	FinalLeft int         `json:"final_turns_left"`
	Known     [][]int     `json:"known"` // known[k][j]: bit set of seat j's slots seat k knows
	Scores    []int       `json:"scores"`
	Resets    []int       `json:"resets"`
	Winners   []game.Seat `json:"winners"`
}

// Dump implements game.State.
func (st *State) Dump() any {
	n := int(st.n)
	d := dump{
		Phase: st.phase.String(), Round: st.rounds + 1, Turn: st.turn, Caller: st.caller,
		FinalLeft: int(st.finalLeft), Draw: []int{}, Discard: []int{},
		Scores: append([]int(nil), st.scores[:n]...), Resets: append([]int(nil), st.resets[:n]...),
		Winners: st.winners.List(),
	}
	for s := 0; s < n; s++ {
		h := make([]int, st.opt.HandSize)
		k := make([]int, n)
		for i := range h {
			h[i] = int(st.hands[s][i])
		}
		for j := range k {
			k[j] = int(st.known[s][j])
		}
		d.Hands = append(d.Hands, h)
		d.Known = append(d.Known, k)
	}
	for i := int(st.nDraw) - 1; i >= 0; i-- {
		d.Draw = append(d.Draw, int(st.draw[i]))
	}
	for _, c := range st.discard[:st.nDisc] {
		d.Discard = append(d.Discard, int(c))
	}
	if st.drawn != none {
		d.Drawn = card(st.drawn)
	}
	return d
}
