// Package games lists the games Tapis plays.
package games

import (
	"sort"

	"tapis/game"
	"tapis/games/cabo"
	"tapis/games/dacapo"
	"tapis/games/limits"
	"tapis/games/papayoo"
)

// All returns every game, by name.
func All() []game.Game {
	all := []game.Game{
		cabo.Game{},
		papayoo.Game{},
		limits.Game{},
		dacapo.Game{},
	}
	sort.Slice(all, func(i, j int) bool { return all[i].Name() < all[j].Name() })
	return all
}

// Named returns the game called name, or nil.
func Named(name string) game.Game {
	for _, g := range All() {
		if g.Name() == name {
			return g
		}
	}
	return nil
}

// Names lists the games' names.
func Names() []string {
	var out []string
	for _, g := range All() {
		out = append(out, g.Name())
	}
	return out
}
