package server

import (
	"net/http"

	"tapis/api"
	"tapis/bot"
	"tapis/game"
)

// GET /api/games: the games offered, for the table-creation form.

// gameInfo describes a game for the table-creation form.
type gameInfo struct {
	Name    string        `json:"name"`
	Min     int           `json:"min"`
	Max     int           `json:"max"`
	Options []game.Option `json:"options"`
	Bots    []string      `json:"bots"`
	// MemoryAid: the game has private looks, so a table may be created
	// with the memory aid (package table's recall.go).
	MemoryAid bool `json:"memory_aid"`
	// Look is what the client needs to draw the game (its registration's;
	// the zero Look for a game that has none).
	game.Look
}

func (s *Server) listGames(w http.ResponseWriter, r *http.Request) {
	out := []gameInfo{}
	for _, g := range s.cfg.Games {
		lo, hi := g.Players()
		e, _ := game.EntryOf(g)
		gi := gameInfo{Name: g.Name(), Min: lo, Max: hi, Options: g.Options(), Bots: []string{}, MemoryAid: e.Forget != nil, Look: e.Look}
		for _, b := range bot.Offered {
			if _, err := bot.New(g, b, 0, 1); err == nil {
				gi.Bots = append(gi.Bots, b)
			}
		}
		out = append(out, gi)
	}
	api.Write(w, http.StatusOK, out)
}
