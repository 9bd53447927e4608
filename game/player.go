package game

// Player chooses the moves of one seat from what that seat is told: the
// events it may see and its Knowledge. A bot is a Player; so is the bridge
// to a human's browser.
type Player interface {
	// Observe is told every event the seat may see, in order.
	Observe(e Event)
	// Choose returns a move for the seat, which is in ToMove.
	Choose(k Knowledge) Move
}

// Knowledge is what a seat may consult when it chooses: its view, its legal
// moves, and full states sampled from its information. It holds the true
// state but shows nothing else of it, so a Player cannot cheat.
type Knowledge struct {
	st    State
	seat  Seat
	cheat bool
}

// KnowledgeOf returns seat s's knowledge of st.
func KnowledgeOf(st State, s Seat) Knowledge { return Knowledge{st: st, seat: s} }

// Seat is the seat this knowledge belongs to.
func (k Knowledge) Seat() Seat { return k.seat }

// Players is the number of seats at the table.
func (k Knowledge) Players() int { return k.st.Players() }

// View is the seat's view (the game's View type).
func (k Knowledge) View() any { return k.st.View(k.seat) }

// Legal appends the seat's legal moves to buf.
func (k Knowledge) Legal(buf []Move) []Move { return k.st.Legal(k.seat, buf) }

// Sample draws a full state from the seat's information (State.Sample).
// Knowledge from Omniscient returns a copy of the true state instead.
func (k Knowledge) Sample(r *RNG) State {
	if k.cheat {
		return k.st.Clone()
	}
	return k.st.Sample(k.seat, r)
}

// Omniscient returns knowledge of st whose Sample is the true state itself,
// every hidden card included. It exists to measure how far honest bots are
// from perfect information; nothing that seats a player may use it.
func Omniscient(st State, s Seat) Knowledge { return Knowledge{st: st, seat: s, cheat: true} }

// Cheater is a Player that must be given Omniscient knowledge: drivers
// that measure bots check for it; a table never seats one.
type Cheater interface {
	Player
	Cheats() bool
}

// HeuristicGame is a Game that ships a hand-written bot, which plays like a
// sensible person from its seat's view and events only.
type HeuristicGame interface {
	Game
	Heuristic(s Seat, seed uint64) Player
}

// Deaf is a Player whose Observe does nothing: it chooses from its
// Knowledge alone. A driver whose players are all deaf applies moves with
// a nil log, so that no event is built: building a move's events (card
// names, boxed values) costs more than the move itself.
type Deaf interface {
	Player
	Deaf() bool
}
