package analysis

import (
	"tapis/bot"
	"tapis/game"
)

// HintSamples is how many drawn states a hint's move is valued on.
const HintSamples = 200

// Hint is the coach's answer to the seat of k: the move the hard bot p
// (made for that seat and told what the seat was told, nothing more)
// chooses from k, and its value, the seat's win chance after it (0 to 1),
// estimated as the analysis values moves (bot.Assess). Like the bots and
// the analysis, it reads the seat's knowledge only.
func Hint(k game.Knowledge, p game.Player, seed uint64) (game.Move, float64) {
	m := p.Choose(k)
	v := bot.Assess(k, []game.Move{m}, HintSamples, seed, nil, nil)
	return m, round(v[0])
}
