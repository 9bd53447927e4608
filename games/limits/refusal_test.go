package limits

import (
	"testing"

	"tapis/game/gametest"
)

// Every refusal is a game.Refusal with a reason of Reasons, so that a
// client translates it without reading the English words.
func TestRefusals(t *testing.T) {
	gametest.Refusals(t, Game{}, Reasons(), gametest.Configs(MinPlayers, MaxPlayers))
}
