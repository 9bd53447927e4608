package table

import (
	"encoding/json"
	"net/http"

	"tapis/api"
	"tapis/game"
	"tapis/store"
	"tapis/wire"
)

// A closed table's page (issue 26): expired, abandoned or closed by its
// host, a table is no longer played, but its page still says what
// became of it and links its finished matches, after a restart too and
// for a player who was not there when it closed, rather than "not found".

// closedByHost is the reason closeTable records: the page says "closed by
// its host" from it.
const closedByHost = "closed by its host"

// closedTable is GET /api/tables/{id}'s answer for a closed table: the
// table as it was left, "you" as for an open one, why it closed ("host"
// for its host, else the store's word: "expired" or "abandoned"), and
// how many of its matches were finished (numbered from 1,
// each with its page /m/{id}/{no}).
type closedTable struct {
	wire.Table
	You      game.Seat `json:"you"`
	Closed   string    `json:"closed"`
	Finished int       `json:"finished"`
}

// writeClosed answers for table id if the store has it closed, and says
// whether it did.
func (s *Host) writeClosed(w http.ResponseWriter, r *http.Request, id string) bool {
	ctx, cancel := s.persist()
	defer cancel()
	sv, err := s.cfg.Store.Load(ctx, id)
	// A broken table stays "not found" (broken): what was read of it
	// may be what broke.
	if err != nil || sv.Closed == store.NotClosed || sv.Closed == store.Broken {
		return false
	}
	out := closedTable{You: -1, Closed: string(sv.Closed)}
	if sv.Reason == closedByHost {
		out.Closed = "host"
	}
	out.Table = wire.Table{ID: sv.ID, Game: sv.Game, Players: sv.Players, Options: sv.Options, Status: wire.StatusWaiting,
		TurnSeconds: int(sv.TurnTime.Seconds()), Host: sv.Host, MemoryAid: sv.MemoryAid, Rated: sv.Rated}
	if len(out.Options) == 0 {
		out.Options = json.RawMessage("{}")
	}
	if m := sv.Match; m != nil {
		out.Match, out.Status, out.Finished = m.No, wire.StatusPlaying, m.No-1
		if m.Over {
			out.Status, out.Finished = wire.StatusOver, m.No
		}
	}
	p, signedIn := s.Player(r)
	for i, se := range sv.Seats {
		out.Seats = append(out.Seats, wire.SeatInfo{Name: se.Name, Bot: se.Bot, Free: se.Bot == "" && se.TokenHash == "", Connected: se.Bot != ""})
		if signedIn && p.ID != "" && se.Player == p.ID && se.Bot == "" {
			out.You = game.Seat(i)
		}
	}
	api.Write(w, http.StatusOK, out)
	return true
}
