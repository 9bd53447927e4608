package bot

import (
	"fmt"

	"tapis/game"
)

// Play plays st to its end between players (one per seat): each seat to
// move chooses from its knowledge, the move is applied, and every event is
// delivered to the seats it is meant for. Seats that act at the same time
// choose one after another in seat order, which the engines make harmless:
// nobody is told another's simultaneous choice before making their own.
// It returns the number of moves played, or an error if a player chose an
// illegal move or the game passed maxMoves.
func Play(st game.State, players []game.Player, maxMoves int) (int, error) {
	return PlayWatch(st, players, maxMoves, nil)
}

// PlayWatch is Play with watch, when not nil, called after every move (to
// collect round scores, say).
func PlayWatch(st game.State, players []game.Player, maxMoves int, watch func(game.State)) (int, error) {
	if len(players) != st.Players() {
		return 0, fmt.Errorf("bot: %d players for %d seats", len(players), st.Players())
	}
	var log game.Log
	moves := 0
	for !st.Over() {
		if moves >= maxMoves {
			return moves, fmt.Errorf("bot: game not over after %d moves", maxMoves)
		}
		s := st.ToMove().First()
		k := game.KnowledgeOf(st, s)
		if c, ok := players[s].(game.Cheater); ok && c.Cheats() {
			k = game.Omniscient(st, s)
		}
		m := players[s].Choose(k)
		log.Reset()
		if err := st.Apply(s, m, &log); err != nil {
			return moves, fmt.Errorf("bot: seat %d chose a refused move: %v", s, err)
		}
		moves++
		if watch != nil {
			watch(st)
		}
		for _, e := range log.Events {
			for t, p := range players {
				if e.To.Has(game.Seat(t)) {
					p.Observe(e)
				}
			}
		}
	}
	return moves, nil
}
