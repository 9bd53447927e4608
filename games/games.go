// Package games is the one list of the games Tapis plays. Each game's own
// package registers everything Tapis knows about it in its register.go
// (game.Entry); adding a game is one new folder and one line below
// (docs/games.md).
package games

import (
	"sort"

	"tapis/game"
	"tapis/games/cabo"
	"tapis/games/dacapo"
	"tapis/games/limits"
	"tapis/games/papayoo"
)

// registered is every game, one line each.
func registered() []game.Registered {
	return []game.Registered{
		cabo.Game{},
		papayoo.Game{},
		limits.Game{},
		dacapo.Game{},
	}
}

// All returns every game, by name.
func All() []game.Game {
	var all []game.Game
	for _, g := range registered() {
		all = append(all, g)
	}
	sort.Slice(all, func(i, j int) bool { return all[i].Name() < all[j].Name() })
	return all
}

// Entries returns every game's Entry, by name.
func Entries() []game.Entry {
	var out []game.Entry
	for _, g := range All() {
		e, _ := game.EntryOf(g)
		out = append(out, e)
	}
	return out
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

// Lookup returns the Entry of the game called name, and false for a game
// not listed.
func Lookup(name string) (game.Entry, bool) {
	if g := Named(name); g != nil {
		return game.EntryOf(g)
	}
	return game.Entry{}, false
}
