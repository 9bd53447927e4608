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
// collect round scores, say). When every player is deaf (game.Deaf), moves
// are applied with a nil log: nobody would read their events.
func PlayWatch(st game.State, players []game.Player, maxMoves int, watch func(game.State)) (int, error) {
	if len(players) != st.Players() {
		return 0, fmt.Errorf("bot: %d players for %d seats", len(players), st.Players())
	}
	// Who cheats and who listens is asked once a game, not once a move.
	var cheats [game.MaxPlayers]bool
	var log *game.Log
	for s, p := range players {
		if c, ok := p.(game.Cheater); ok && c.Cheats() {
			cheats[s] = true
		}
		if d, ok := p.(game.Deaf); (!ok || !d.Deaf()) && log == nil {
			log = new(game.Log)
		}
	}
	moves := 0
	for !st.Over() {
		if moves >= maxMoves {
			return moves, fmt.Errorf("bot: game not over after %d moves", maxMoves)
		}
		s := st.ToMove().First()
		k := game.KnowledgeOf(st, s)
		if cheats[s] {
			k = game.Omniscient(st, s)
		}
		m := players[s].Choose(k)
		if log != nil {
			log.Reset()
		}
		if err := st.Apply(s, m, log); err != nil {
			return moves, fmt.Errorf("bot: seat %d chose a refused move: %v", s, err)
		}
		moves++
		if watch != nil {
			watch(st)
		}
		if log == nil {
			continue
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
