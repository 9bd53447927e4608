package limits

import "tapis/game"

// Event is one thing that happened in a game of Limits, as a seat is told
// it. Every placed card is public (a player with perfect memory knows the
// whole pile); a seat's own hidden and drawn cards reach only that seat.
type Event struct {
	// Type is "round", "hide", "place", "draw", "exchange", "accuse",
	// "pass" or "game_over".
	Type string    `json:"type"`
	Seat game.Seat `json:"seat"` // who acted (round: who leads)
	// Round, Limit and Base describe a round that starts: its number from
	// 1, its limit card and that card's base limits (null: X, no limit).
	Round int    `json:"round,omitempty"`
	Limit int    `json:"limit,omitempty"`
	Base  []*int `json:"base,omitempty"`
	Card  string `json:"card,omitempty"`  // place: the card placed
	Color string `json:"color,omitempty"` // exchange: the colour shown
	// Cards are cards shown to this event's audience: the seat's own
	// hidden cards (hide, to that seat), its drawn cards (draw, to that
	// seat), the 4 shown cards (exchange, public).
	Cards      []string    `json:"cards,omitempty"`
	Count      int         `json:"count,omitempty"` // draw: how many cards
	Accusation *Accusation `json:"accusation,omitempty"`
	Winners    []game.Seat `json:"winners,omitempty"`
	Scores     []int       `json:"scores,omitempty"`
}

// Accusation is a resolved accusation, shown to everyone with every
// hidden card revealed.
type Accusation struct {
	Accuser game.Seat `json:"accuser"`
	Suspect game.Seat `json:"suspect"`
	Color   string    `json:"color"` // the suspect colour
	// Count is the cards of that colour up to the suspect's last card;
	// Limit the colour's limit (null: X, unlimited).
	Count     int        `json:"count"`
	Limit     *int       `json:"limit"`
	Over      bool       `json:"over"`  // the suspect was over: the accusation was right
	Taker     game.Seat  `json:"taker"` // who took the limit card
	LimitCard int        `json:"limit_card"`
	Hidden    [][]string `json:"hidden"` // every seat's hidden cards
	Scores    []int      `json:"round_scores"`
}

func (st *State) accusationJSON() *Accusation {
	a := &st.acc
	if !a.done {
		return nil
	}
	out := &Accusation{
		Accuser: a.accuser, Suspect: a.suspect, Color: ColourName(a.colour),
		Count: int(a.count), Over: a.over, Taker: a.taker, LimitCard: int(a.card),
		Scores: append([]int(nil), st.roundScores[:st.n]...),
	}
	if a.limit != X {
		l := int(a.limit)
		out.Limit = &l
	}
	for j := 0; j < int(st.n); j++ {
		out.Hidden = append(out.Hidden, names(&a.hidden[j]))
	}
	return out
}

// baseJSON lists a limit card's base limits, null for X.
func baseJSON(card int8) []*int {
	out := make([]*int, Colours)
	for c, v := range limitTable[card-1] {
		if v != X {
			x := int(v)
			out[c] = &x
		}
	}
	return out
}

// View is what one seat (or a spectator) may see: its own hand and hidden
// cards, how many cards the others hold, the limit card, and only the top
// card of the active pile, as at the table. Earlier placed cards were told
// as events: remembering them is the player's job.
type View struct {
	Seat      game.Seat   `json:"seat"` // -1: a spectator
	Players   int         `json:"players"`
	Round     int         `json:"round"` // the round being played, from 1
	Phase     string      `json:"phase"` // "hide", "turn" or "over"
	Turn      game.Seat   `json:"turn"`
	ToMove    []game.Seat `json:"to_move"`
	Leader    game.Seat   `json:"leader"`
	Led       bool        `json:"led"` // the leader has placed the first card
	Limit     int         `json:"limit"`
	Base      []*int      `json:"base"` // the limit card's base limits, null for X
	LimitLeft int         `json:"limits_left"`
	// Hand and Hidden are this seat's own cards, in colour order (empty
	// for a spectator).
	Hand       []string    `json:"hand"`
	Hidden     []string    `json:"hidden"`
	HandCounts []int       `json:"hand_counts"`
	HasHidden  []game.Seat `json:"has_hidden"` // seats whose cards are hidden this round
	PileTop    *string     `json:"pile_top"`   // null: the active pile is empty
	PileCount  int         `json:"pile_count"`
	// Placed lists the seats with a card on the active pile: who may be
	// accused.
	Placed         []game.Seat `json:"placed"`
	DrawCount      int         `json:"draw_count"`
	Points         []int       `json:"points"`
	Taken          []int       `json:"limits_taken"`
	Scores         []int       `json:"scores"`
	LastAccusation *Accusation `json:"last_accusation,omitempty"`
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
		Seat: s, Players: n, Round: st.rounds + 1, Phase: st.phase.String(), Turn: st.turn,
		ToMove: st.ToMove().List(), Leader: st.leader, Led: st.led, Limit: int(st.cur),
		Base: baseJSON(st.cur), LimitLeft: int(st.nLimits), Hand: []string{}, Hidden: []string{},
		HasHidden: st.hid.List(), PileCount: int(st.nPile), Placed: []game.Seat{},
		DrawCount: int(st.nDraw), LastAccusation: st.accusationJSON(),
	}
	if s >= 0 {
		v.Hand = names(&st.hand[s])
		v.Hidden = names(&st.hidden[s])
	}
	if st.nPile > 0 {
		top := ColourName(st.pile[st.nPile-1])
		v.PileTop = &top
	}
	for t := 0; t < n; t++ {
		v.HandCounts = append(v.HandCounts, int(st.nHand[t]))
		if st.last[t] != none {
			v.Placed = append(v.Placed, game.Seat(t))
		}
		v.Points = append(v.Points, st.points[t])
		v.Taken = append(v.Taken, st.taken[t])
		v.Scores = append(v.Scores, st.Score(game.Seat(t)))
	}
	if st.Over() {
		v.Round = st.rounds
		v.Winners = st.winners.List()
	}
	return v
}

// dump is the whole state, hidden cards included.
type dump struct {
	Phase  string     `json:"phase"`
	Round  int        `json:"round"`
	Leader game.Seat  `json:"leader"`
	Turn   game.Seat  `json:"turn"`
	Led    bool       `json:"led"`
	Limit  int        `json:"limit"`
	Limits []int      `json:"limits"` // the limit deck, top first
	Hands  [][]string `json:"hands"`
	Hidden [][]string `json:"hidden"`
	// KnownHand lists, per seat, the cards everyone knows are in its hand;
	// KnownHeld those known to be in its hand or among its hidden cards.
	KnownHand [][]string `json:"known_hand"`
	KnownHeld [][]string `json:"known_held"`
	Draw      []string   `json:"draw"` // top first
	// DrawKnownAbove and DrawUnknown describe the draw pile from the top:
	// that many publicly known cards, then that many nobody knows; the
	// rest is known.
	DrawKnownAbove int         `json:"draw_known_above"`
	DrawUnknown    int         `json:"draw_unknown"`
	Pile           []string    `json:"pile"`    // bottom first
	PileBy         []int       `json:"pile_by"` // who placed each pile card
	Points         []int       `json:"points"`
	Taken          []int       `json:"limits_taken"`
	Scores         []int       `json:"scores"`
	Winners        []game.Seat `json:"winners"`
}

// Dump implements game.State.
func (st *State) Dump() any {
	n := int(st.n)
	d := dump{
		Phase: st.phase.String(), Round: st.rounds + 1, Leader: st.leader, Turn: st.turn, Led: st.led,
		Limit: int(st.cur), Limits: []int{}, Draw: []string{}, Pile: []string{}, PileBy: []int{},
		DrawKnownAbove: int(st.above), DrawUnknown: int(st.unk), Winners: st.winners.List(),
	}
	if st.Over() {
		d.Round = st.rounds
	}
	for i := int(st.nLimits) - 1; i >= 0; i-- {
		d.Limits = append(d.Limits, int(st.limits[i]))
	}
	for s := 0; s < n; s++ {
		d.Hands = append(d.Hands, names(&st.hand[s]))
		d.Hidden = append(d.Hidden, names(&st.hidden[s]))
		d.KnownHand = append(d.KnownHand, names(&st.knownHand[s]))
		d.KnownHeld = append(d.KnownHeld, names(&st.knownHeld[s]))
		d.Points = append(d.Points, st.points[s])
		d.Taken = append(d.Taken, st.taken[s])
		d.Scores = append(d.Scores, st.Score(game.Seat(s)))
	}
	for i := int(st.nDraw) - 1; i >= 0; i-- {
		d.Draw = append(d.Draw, colourNames[st.draw[i]])
	}
	for i := 0; i < int(st.nPile); i++ {
		d.Pile = append(d.Pile, colourNames[st.pile[i]])
		d.PileBy = append(d.PileBy, int(st.pileBy[i]))
	}
	return d
}
