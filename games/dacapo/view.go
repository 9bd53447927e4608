package dacapo

import "tapis/game"

// Event is one thing that happened in a game of Da Capo!, as a seat is
// told it. Every play is public; the cards a seat draws are told to it
// alone (the others learn how many).
type Event struct {
	// Type is "deal", "hand", "turn", "build", "helper", "end" (the seat
	// stopped with the move End), "draw", "reshuffle", "game_end" or
	// "game_over".
	Type string    `json:"type"`
	Seat game.Seat `json:"seat"`           // who acted (deal: who starts)
	Game int       `json:"game,omitempty"` // deal, game_end: the game's number, from 1
	// Tops are the face-up personal cards after a deal, per seat.
	Tops []Card `json:"tops,omitempty"`
	// Cards are a seat's own cards: its hand after a deal, or what it drew.
	Cards []Card `json:"cards,omitempty"`
	From  string `json:"from,omitempty"` // build: hand, stock, helper or opponent
	Card  *Card  `json:"card,omitempty"` // build, helper: the card played
	Pile  *int   `json:"pile,omitempty"` // build: the building pile
	// Value is the value the card takes on its pile (a Joker's too).
	Value     int   `json:"value,omitempty"`
	Completed bool  `json:"completed,omitempty"` // the pile reached 10 and was set aside
	Index     *int  `json:"index,omitempty"`     // the helper pile played from or onto
	Owner     *int  `json:"owner,omitempty"`     // opponent build: whose personal card
	Top       *Card `json:"top,omitempty"`       // the personal card turned up next
	Left      *int  `json:"left,omitempty"`      // cards left in that personal pile
	Count     int   `json:"count,omitempty"`     // draw: cards drawn; reshuffle: the new draw pile
	// Winners, Scores, RoundScores and Stalemate describe a game's or the
	// match's end.
	Winners     []game.Seat `json:"winners,omitempty"`
	Scores      []int       `json:"scores,omitempty"`
	RoundScores []int       `json:"round_scores,omitempty"`
	Stalemate   bool        `json:"stalemate,omitempty"`
}

// Stock is a personal pile as everyone sees it: its size and its
// face-up top.
type Stock struct {
	Count int   `json:"count"`
	Top   *Card `json:"top"` // nil once empty
}

// View is what one seat (or a spectator) may see: every face-up card, its
// own hand, the sizes of everything face down.
type View struct {
	Seat    game.Seat   `json:"seat"` // -1: a spectator
	Players int         `json:"players"`
	Options Options     `json:"options"`
	Game    int         `json:"game"` // the game being played, from 1
	Turn    game.Seat   `json:"turn"`
	ToMove  []game.Seat `json:"to_move"`
	Stocks  []Stock     `json:"stocks"`
	// Hand is this seat's hand in increasing order; nil for a spectator.
	Hand      []Card `json:"hand"`
	HandSizes []int  `json:"hand_sizes"`
	// Helpers[s][i] is seat s's helper pile i, bottom first (the top is
	// the last card).
	Helpers [][][]Card `json:"helpers"`
	// Piles are the building piles by position, bottom first; a pile's
	// value is its length, and an empty position holds no pile.
	Piles     [][]Card `json:"piles"`
	DrawCount int      `json:"draw_count"`
	// SetAside are the completed piles waiting to be reshuffled, the
	// latest first, each bottom first.
	SetAside []Card `json:"set_aside"`
	// QuietTurns counts the turns in a row with no personal card played
	// since the draw pile and set-aside piles ran out (the stalemate rule).
	QuietTurns  int         `json:"quiet_turns"`
	Scores      []int       `json:"scores"`
	RoundScores []int       `json:"round_scores"` // the last finished game's
	LastWinners []game.Seat `json:"last_winners"` // the last finished game's
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
		Seat: s, Players: n, Options: st.opt, Game: st.games + 1, Turn: st.turn,
		ToMove: st.ToMove().List(), DrawCount: int(st.nDraw), QuietTurns: int(st.quiet),
		SetAside: cards(st.aside()), Scores: append([]int(nil), st.scores[:n]...),
		RoundScores: []int{}, LastWinners: st.lastWinners.List(),
	}
	if st.games > 0 {
		v.RoundScores = append(v.RoundScores, st.roundScores[:n]...)
	}
	if s != game.Spectator {
		v.Hand = st.handCards(s)
	}
	for t := game.Seat(0); int(t) < n; t++ {
		v.Stocks = append(v.Stocks, Stock{Count: int(st.nStock[t]), Top: cardPtr(st.stockTop(t))})
		v.HandSizes = append(v.HandSizes, int(st.nHand[t]))
		hs := make([][]Card, Helpers)
		for i := range hs {
			hs[i] = cards(st.helperPile(t, i))
		}
		v.Helpers = append(v.Helpers, hs)
	}
	for p := 0; p < Piles; p++ {
		v.Piles = append(v.Piles, cards(st.pile[p][:st.nPile[p]]))
	}
	if st.over {
		v.Game = st.games
		v.Winners = st.winners.List()
	}
	return v
}

// handCards lists seat s's hand in increasing order (Jokers last).
func (st *State) handCards(s game.Seat) []Card {
	out := make([]Card, 0, st.nHand[s])
	for c := int8(1); c < Kinds; c++ {
		for k := int8(0); k < st.hand[s][c]; k++ {
			out = append(out, Card(c))
		}
	}
	return out
}

func cards(cs []int8) []Card {
	out := make([]Card, len(cs))
	for i, c := range cs {
		out[i] = Card(c)
	}
	return out
}

// dump is the whole state, hidden cards included.
type dump struct {
	Game      int         `json:"game"`
	Over      bool        `json:"over"`
	Turn      game.Seat   `json:"turn"`
	Starter   game.Seat   `json:"starter"`
	Stocks    [][]Card    `json:"stocks"` // top first, as REPLAY.md stacks them
	Hands     [][]Card    `json:"hands"`
	Helpers   [][][]Card  `json:"helpers"` // bottom first
	Piles     [][]Card    `json:"piles"`   // bottom first
	Draw      []Card      `json:"draw"`    // top first
	SetAside  []Card      `json:"set_aside"`
	Played    bool        `json:"played"` // a personal card was played this turn
	Quiet     int         `json:"quiet_turns"`
	Scores    []int       `json:"scores"`
	Round     []int       `json:"round_scores"`
	Stalemate bool        `json:"stalemate"` // the last game ended by the stalemate rule
	Winners   []game.Seat `json:"winners"`
}

// Dump implements game.State.
func (st *State) Dump() any {
	n := int(st.n)
	d := dump{
		Game: st.games + 1, Over: st.over, Turn: st.turn, Starter: st.starter,
		SetAside: cards(st.aside()), Played: st.played, Quiet: int(st.quiet),
		Scores: append([]int(nil), st.scores[:n]...), Round: append([]int(nil), st.roundScores[:n]...),
		Stalemate: st.stalemate, Winners: st.winners.List(),
	}
	if st.over {
		d.Game = st.games
	}
	for s := game.Seat(0); int(s) < n; s++ {
		stock := cards(st.stock[s][:st.nStock[s]])
		reverse(stock)
		d.Stocks = append(d.Stocks, stock)
		d.Hands = append(d.Hands, st.handCards(s))
		hs := make([][]Card, Helpers)
		for i := range hs {
			hs[i] = cards(st.helperPile(s, i))
		}
		d.Helpers = append(d.Helpers, hs)
	}
	for p := 0; p < Piles; p++ {
		d.Piles = append(d.Piles, cards(st.pile[p][:st.nPile[p]]))
	}
	d.Draw = cards(st.drawPile())
	reverse(d.Draw)
	return d
}

func reverse(cs []Card) {
	for i, j := 0, len(cs)-1; i < j; i, j = i+1, j-1 {
		cs[i], cs[j] = cs[j], cs[i]
	}
}
