package server

import (
	"context"
	"encoding/json"
	"time"

	"tapis/account"
	"tapis/history"
	"tapis/limit"
	"tapis/lobby"
	"tapis/rating/leaderboard"
	"tapis/store"
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
func (s *Server) rooms(acc *account.Service) {
	s.history = history.New(history.Config{Store: s.cfg.Store, Games: s.cfg.Games,
		Slots: limit.NewFair(histSlots, histQueue), Network: s.guard.network, Settle: s.settle, Logger: s.log})
	names := make([]string, 0, len(s.cfg.Games))
	for _, g := range s.cfg.Games {
		names = append(names, g.Name())
	}
	s.board = leaderboard.New(leaderboard.Config{Store: s.cfg.Store, Games: names, Player: s.player, Logger: s.log})
	s.hall = lobby.New(lobby.Config{Store: s.cfg.Store, Games: s.cfg.Games, Host: lobbyHost{s}, Accounts: acc,
		AllowCreate: s.guard.allowCreate, ListedFor: s.listedFor(), TurnUnit: s.cfg.TurnUnit, Logger: s.log})
}

// lobbyHost is the table host as package lobby sees it (lobby.Host).
type lobbyHost struct{ s *Server }

// Build makes a quick-match table (buildQueued).
func (h lobbyHost) Build(gameName string, players int, people []store.Entry, level string) (store.Table, *store.Start, error) {
	return h.s.buildQueued(gameName, players, people, level)
}

// Settle marks over a match that had ended before a crash (settle.go).
func (h lobbyHost) Settle(ctx context.Context, table string) bool { return h.s.settle(ctx, table) }

// SeatChanges counts the seat changes at this node's tables.
func (h lobbyHost) SeatChanges() int64 { return h.s.lobbyGen.Load() }

// buildQueued makes the table the matcher seats queued people at: the
// game's default options, the people in the first seats in the order the
// matcher gives them (the longest waiting first, who hosts), bots of the
// level asked in the others, and its first match started in the same
// write. A person's seat gets a token nobody holds: their session is
// their way in.
func (s *Server) buildQueued(gameName string, players int, people []store.Entry, level string) (store.Table, *store.Start, error) {
	now := time.Now()
	tab := store.Table{ID: randomID(), Game: gameName, Players: players, Options: json.RawMessage("{}"), Created: now, Active: now,
		Seats: make([]store.Seat, players), Host: 0, Creator: "queue"}
	for i, e := range people {
		tab.Seats[i] = store.Seat{Name: e.Name, Player: e.Player, TokenHash: hashToken(randomToken())}
	}
	for i := len(people); i < players; i++ {
		tab.Seats[i] = store.Seat{Name: level, Bot: level}
	}
	return tab, &store.Start{No: 1, Seed: s.cfg.Seed()}, nil
}
