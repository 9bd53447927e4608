package games

import (
	"fmt"
	"strings"
	"testing"

	"tapis/game"
)

// Every bound a game declares for an int option (what /api/games shows the
// create form, and what docs/operating.md writes in the rules' terms) is enforced by
// the game itself: one past either end is refused, naming the option.
// Issue 24: Cabo declared max_resets up to 1000 and took 100,000,000.
func TestDeclaredOptionBoundsAreEnforced(t *testing.T) {
	for _, g := range All() {
		lo, hi := g.Players()
		for _, o := range g.Options() {
			if o.Kind != "int" {
				continue
			}
			for _, v := range []int{o.Min - 1, o.Max + 1} {
				for _, players := range []int{lo, hi} {
					opts := fmt.Sprintf(`{%q:%d}`, o.Name, v)
					_, err := g.New(game.Config{Players: players, Options: []byte(opts), Seed: 1})
					if err == nil {
						t.Errorf("%s, %d players: %s accepted, outside the declared %d to %d", g.Name(), players, opts, o.Min, o.Max)
						continue
					}
					if !strings.Contains(err.Error(), o.Name) {
						t.Errorf("%s: %s refused without naming the option: %v", g.Name(), opts, err)
					}
				}
			}
		}
	}
}
