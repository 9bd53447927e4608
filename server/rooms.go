package server

import (
	"maps"
	"net/http"
	"strconv"
	"strings"

	"tapis/account"
	"tapis/analysis"
	"tapis/email"
	"tapis/friend"
	"tapis/history"
	"tapis/limit"
	"tapis/lobby"
	"tapis/notify"
	"tapis/push"
	"tapis/rating/leaderboard"
	"tapis/store"
)

// The rooms live in packages of their own, each with its routes (as
// package account's): the server builds them here over its store and its
// guards, and gives them the few hooks into the table host (package
// table) they need.

// histSlots is how many history answers are computed at once, and
// histQueue how many one network may have waiting for a slot (package
// history).
const (
	histSlots = 2
	histQueue = 4
)

// rooms builds the services of the rooms; New calls it once the guard
// and the table host are made.
func (s *Server) rooms(acc *account.Service) error {
	s.analyses = analysis.NewWorker(analysis.Config{Store: s.cfg.Store, Games: s.cfg.Games, Spare: s.host.Spare,
		Playouts: hardIterations(s.cfg.Levels), Logger: s.log})
	s.history = history.New(history.Config{Store: s.cfg.Store, Games: s.cfg.Games,
		Slots: limit.NewFair(histSlots, histQueue), Network: s.guard.network, Settle: s.host.Settle, Analyses: s.analyses, Logger: s.log,
		Me: func(r *http.Request) (string, bool) { p, ok := acc.Current(r); return p.ID, ok }})
	names := make([]string, 0, len(s.cfg.Games))
	for _, g := range s.cfg.Games {
		names = append(names, g.Name())
	}
	s.board = leaderboard.New(leaderboard.Config{Store: s.cfg.Store, Games: names, Player: s.host.Player, Logger: s.log})
	// The host is lobby.Host: it builds quick match's tables (Build),
	// settles a match a crash left open (Settle), and counts its seat
	// changes (SeatChanges).
	s.hall = lobby.New(lobby.Config{Store: s.cfg.Store, Games: s.cfg.Games, Host: s.host, Accounts: acc,
		AllowCreate: s.guard.AllowCreate, ListedFor: s.cfg.ListedFor, TurnUnit: s.cfg.TurnUnit, Logger: s.log})
	// Friends and notifications (issue 29): e-mail is a channel when a
	// mail server is given, Web Push when a subscriber is.
	nc := s.cfg.Notify
	nc.Store, nc.Player, nc.Logger = s.cfg.Store, s.host.Player, s.log
	nc.Senders = maps.Clone(nc.Senders)
	if nc.Senders == nil {
		nc.Senders = map[string]notify.Sender{}
	}
	if s.cfg.Mail.SMTP != nil {
		mc := s.cfg.Mail
		mc.Store, mc.Key, mc.Player, mc.Network, mc.Logger = s.cfg.Store, s.cfg.Secret, s.host.Player, s.guard.network, s.log
		m, err := email.New(mc)
		if err != nil {
			return err
		}
		s.mail, nc.Senders[store.ChannelEmail] = m, m
	}
	if s.cfg.Push.Subscriber != "" {
		pc := s.cfg.Push
		pc.Store, pc.Secret, pc.Player, pc.Logger = s.cfg.Store, s.cfg.Secret, s.host.Player, s.log
		p, err := push.New(pc)
		if err != nil {
			return err
		}
		s.push, nc.Senders[store.ChannelPush] = p, p
	}
	s.notes = notify.New(nc)
	// The tables tell players away of their turns and their games' ends.
	s.host.UseNotifier(s.notes)
	// Who is online: this node's sockets, or, in a cluster, every node's.
	var presence friend.Presence = s.host
	if s.cfg.Cluster != nil {
		p, err := s.cfg.Cluster.ServePresence(s.host)
		if err != nil {
			return err
		}
		presence = p
	}
	s.friends = friend.New(friend.Config{Store: s.cfg.Store, Player: s.host.Player, Network: s.guard.network,
		Presence: presence, Notifier: s.notes, Logger: s.log})
	return nil
}

// hardIterations is the budget the hard level is given by levels when it
// names one ("hard@60", as the tests' servers do), for the analysis's
// decisions to cost what that server's hard moves cost; 0 (the games'
// own budgets) otherwise.
func hardIterations(levels map[string]string) int {
	_, n, ok := strings.Cut(levels["hard"], "@")
	if !ok {
		return 0
	}
	i, err := strconv.Atoi(n)
	if err != nil || i < 1 {
		return 0
	}
	return i
}
