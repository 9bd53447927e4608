package table

import (
	"encoding/json"
	"net/http"
	"time"

	"tapis/store"
)

// The table host's side of players (package account keeps them): who a
// request's player is, the seats that follow them, and the public tables
// the lobby lists (package lobby serves the list, from the store).

// Identity is what the table host needs of accounts (an
// *account.Service): a request's player.
type Identity interface {
	Current(r *http.Request) (store.Player, bool)
}

// Player returns the signed-in player of r, if any.
func (s *Host) Player(r *http.Request) (store.Player, bool) {
	if s.acc == nil {
		return store.Player{}, false
	}
	return s.acc.Current(r)
}

// keepListed tells the store that the waiting tables loaded here where a
// seated person is connected are attended now (store.Touch), so that the
// lobby, on any node, lists them for another Config.ListedFor: it runs
// every quarter of it (sweep). A table nobody seated is connected to is
// left alone, and leaves the lobby once its last touch is that old
// (issue 24, finding 17).
func (s *Host) keepListed() {
	ts := s.tables.Tables()
	for _, t := range ts {
		touch := func() {
			if t.st != nil || !t.seatedConnected() {
				return
			}
			// A waiting table has no moves to delay: the write is done
			// on its goroutine, in order with its others.
			ctx, cancel := s.persist()
			defer cancel()
			if err := s.cfg.Store.Touch(ctx, t.id, time.Now()); err != nil {
				s.log.Error("touch table", "table", t.id, "err", err)
			}
		}
		// A table whose inbox is full is not waited for: the next round
		// touches it, well within ListedFor.
		select {
		case t.inbox <- touch:
		default:
		}
	}
}

// listNow tells the store that a seated person has just connected to the
// waiting table t, so that the lobby lists it at once rather than at
// keepListed's next round (a table is listed only once someone seated
// there has connected). It runs in the table's goroutine.
func (s *Host) listNow(t *table) {
	ctx, cancel := s.persist()
	defer cancel()
	if err := s.cfg.Store.Touch(ctx, t.id, time.Now()); err != nil {
		s.log.Error("touch table", "table", t.id, "err", err)
	}
	s.lobbyGen.Add(1)
}

// seatedConnected reports whether a person seated at the table is
// connected. It runs in the table's goroutine.
func (t *table) seatedConnected() bool {
	for _, st := range t.seats {
		if st.Bot == "" && st.conns > 0 {
			return true
		}
	}
	return false
}

// SeatsMoved makes the loaded tables where guest from sat seat the account
// to instead, as the store has done (store.MoveSeats), so that the
// account's session reaches those seats at once.
func (s *Host) SeatsMoved(from string, to store.Player) {
	s.reseatEverywhere(to.ID, from, to)
}

// PlayerChanged makes the loaded tables where a player sits show their
// new name, or none once they deleted their account (the page then says
// "deleted player"); the store has changed the seats already, for the
// tables asleep.
func (s *Host) PlayerChanged(p store.Player) {
	s.reseatEverywhere(p.ID, p.ID, p)
}

// reseat gives the seats of player was at the loaded tables among those
// the store lists for player to now, to p under p's name, and tells each
// table's connections.
func (s *Host) reseat(now, was string, p store.Player) {
	ctx, cancel := s.persist()
	defer cancel()
	ts, err := s.cfg.Store.PlayerTables(ctx, now)
	if err != nil {
		s.log.Error("player tables", "err", err)
		return
	}
	for _, pt := range ts {
		t := s.tables.Get(pt.ID)
		if t == nil {
			continue
		}
		t.post(ctx, func() {
			for i := range t.seats {
				if t.seats[i].Player == was && t.seats[i].Bot == "" {
					t.seats[i].Player, t.seats[i].Name = p.ID, p.Name
				}
			}
			t.broadcastInfo()
		})
	}
}

// reseatSubject carries a player's new seats to every node of a cluster:
// their tables may be loaded on any of them.
const reseatSubject = "tapis.players.reseat"

// reseatNote is a reseat as it travels: ids and the name to show, nothing
// else of the player (no username, no password hash).
type reseatNote struct {
	Now  string `json:"now"`
	Was  string `json:"was"`
	ID   string `json:"id"`
	Name string `json:"name"`
}

// reseatEverywhere is reseat on every node of the cluster (this one
// included, through NATS), or on this one alone.
func (s *Host) reseatEverywhere(now, was string, p store.Player) {
	b, _ := json.Marshal(reseatNote{Now: now, Was: was, ID: p.ID, Name: p.Name})
	s.own.Everywhere(reseatSubject, b, func() { s.reseat(now, was, p) })
}

// heardReseat reseats this node's tables when any node says so.
func (s *Host) heardReseat(msg []byte) {
	var n reseatNote
	if json.Unmarshal(msg, &n) != nil {
		return
	}
	go s.reseat(n.Now, n.Was, store.Player{ID: n.ID, Name: n.Name})
}
