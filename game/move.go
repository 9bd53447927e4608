package game

// Move is one decision of one seat, packed by its game into an integer.
//
// A small value type keeps Legal and Apply free of allocation, makes moves
// comparable (a search tree keys its children by move, the same move across
// sampled states), and leaves the readable form to the game's JSON codec
// (Game.MarshalMove), which is what crosses the network and fills replays.
// The zero Move is never legal.
type Move uint64

// Contains reports whether m is in moves.
func Contains(moves []Move, m Move) bool {
	for _, x := range moves {
		if x == m {
			return true
		}
	}
	return false
}
