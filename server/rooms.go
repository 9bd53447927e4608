package server

import (
	"tapis/history"
	"tapis/limit"
	"tapis/rating/leaderboard"
)

// The rooms that never touch a table goroutine live in packages of their
// own, each with its routes (as package account's): the server builds
// them here over its store and its guards, and gives them the few hooks
// into the table host they need.

// histSlots is how many history answers are computed at once, and
// histQueue how many one network may have waiting for a slot (package
// history).
const (
	histSlots = 2
	histQueue = 4
)

// rooms builds the services of the rooms; New calls it once the guard is
// made.
func (s *Server) rooms() {
	s.history = history.New(history.Config{Store: s.cfg.Store, Games: s.cfg.Games,
		Slots: limit.NewFair(histSlots, histQueue), Network: s.guard.network, Settle: s.settle, Logger: s.log})
	names := make([]string, 0, len(s.cfg.Games))
	for _, g := range s.cfg.Games {
		names = append(names, g.Name())
	}
	s.board = leaderboard.New(leaderboard.Config{Store: s.cfg.Store, Games: names, Player: s.player, Logger: s.log})
}
