package table

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"slices"
	"time"

	"tapis/account"
	"tapis/api"
	"tapis/bot"
	"tapis/game"
	"tapis/store"
	"tapis/tutorial"
	"tapis/wire"
)

// The table host's HTTP API: creating a table, reading one, taking a
// seat (the WebSocket is conn.go's), and the table quick match makes.

// Routes registers the table host's routes on mux: creating a table (on
// the least loaded node), reading one, taking a seat, and its WebSocket
// (on the node that owns it).
func (s *Host) Routes(m *http.ServeMux) {
	m.HandleFunc("POST /api/tables", s.own.Balanced(s.createTable))
	s.tutorialRoutes(m)
	m.HandleFunc("GET /api/tables/{id}", s.own.Owned(s.getTable))
	m.HandleFunc("POST /api/tables/{id}/join", s.own.Owned(s.joinTable))
	m.HandleFunc("GET /api/tables/{id}/ws", s.own.Owned(s.serveWS))
	s.httpRoutes(m)
}

// createReq asks for a new table. Bots has one entry per seat: "" for a
// person, else a bot's level; left out (or empty), every seat is a
// person's. The creator, the signed-in player or else Name, takes the
// first person's seat: one of the two is needed.
type createReq struct {
	Game    string          `json:"game"`
	Players int             `json:"players"`
	Options json.RawMessage `json:"options"`
	Bots    []string        `json:"bots"`
	Name    string          `json:"name"`
	// TurnSeconds is the time per move: 0 (none, the default) or from
	// minTurn to maxTurn seconds; a rated table must have one, ratedTurn
	// if left out (turntime.go).
	TurnSeconds *int `json:"turn_seconds"`
	// MemoryAid is a table option, off by default: a player's log then
	// repeats the cards they looked at privately (recall.go). Only for
	// the games where memory is a rule (recall.go).
	MemoryAid bool `json:"memory_aid"`
	// Public tables are listed in the lobby while they wait for players;
	// the others are reached by their invite link only.
	Public bool `json:"public"`
	// Lang is the creator's language ("en", "fr"), shown in the lobby.
	Lang string `json:"lang"`
	// Rated tables rate their matches: for signed-in players with a
	// username only (rated.go).
	Rated bool `json:"rated"`
	// TurnBased tables are played over days (days.go): TurnSeconds is
	// then from minDaysTurn to maxDaysTurn, defaultDaysTurn if left out.
	TurnBased bool `json:"turn_based"`
	// Coach lets the players ask for hints (coach.go): never at a rated
	// table.
	Coach bool `json:"coach"`
}

// langs are the languages a table may say its creator speaks.
var langs = []string{"", "en", "fr"}

// The time per move a table may have, in seconds.
const minTurn, maxTurn = 10, 600

// seatResp gives a seat and its secret token to the one who took it.
type seatResp struct {
	Table string    `json:"table"`
	Seat  game.Seat `json:"seat"`
	Token string    `json:"token,omitempty"`
	URL   string    `json:"url"`
	// Invite is the table's link for guests, absolute: built from the
	// name the request reached the server under (or a trusted proxy's
	// forwarded one), since the server cannot know what name its players
	// use, and "localhost" reaches nobody else.
	Invite string `json:"invite"`
}

// invite returns the absolute invite link of table id for a response to r.
func (s *Host) invite(r *http.Request, id string) string {
	scheme, host := s.cfg.Proxies.Origin(r)
	return (&url.URL{Scheme: scheme, Host: host, Path: "/t/" + id}).String()
}

func (s *Host) createTable(w http.ResponseWriter, r *http.Request) {
	var req createReq
	if !api.Read(w, r, &req) {
		return
	}
	s.create(w, r, req, nil)
}

// create makes the table req asks for; a tutorial's (tutorial.go) when sc
// is not nil: its bots and its seed are the script's.
func (s *Host) create(w http.ResponseWriter, r *http.Request, req createReq, sc *tutorial.Script) {
	if s.stopping() {
		api.Error(w, http.StatusServiceUnavailable, api.CodeStopping, errStopping.Error())
		return
	}
	client := s.guard.Client(r)
	if !s.guard.AllowCreate(w, r) {
		return
	}
	g := s.games[req.Game]
	if g == nil {
		api.Error(w, http.StatusBadRequest, api.CodeBadGame, fmt.Sprintf("server: unknown game %q", req.Game))
		return
	}
	if err := game.CheckPlayers(g, req.Players); err != nil {
		api.Refuse(w, http.StatusBadRequest, api.CodeBadPlayers, err)
		return
	}
	// A list of another length is a plan of other seats: a short one,
	// like ["easy"] for two players, silently left a seat free.
	if len(req.Bots) != 0 && len(req.Bots) != req.Players {
		api.Write(w, http.StatusBadRequest, api.Refusal{Code: api.CodeBadBots, Reason: api.ReasonBotsLength,
			Args:  map[string]any{"bots": len(req.Bots), "players": req.Players},
			Error: fmt.Sprintf("server: bots has %d entries for %d seats: give one per seat, \"\" for a person", len(req.Bots), req.Players)})
		return
	}
	turn, err := req.turn()
	if err != nil {
		api.Error(w, http.StatusBadRequest, api.CodeBadTurnSeconds, err.Error())
		return
	}
	if req.MemoryAid && s.memRules[g.Name()] == nil {
		api.Error(w, http.StatusBadRequest, api.CodeBadMemoryAid,
			fmt.Sprintf("server: %s has no private looks to remember: the memory aid is for Cabo", g.Name()))
		return
	}
	if !slices.Contains(langs, req.Lang) {
		api.Error(w, http.StatusBadRequest, api.CodeBadLang, fmt.Sprintf("server: unknown language %q (want en or fr)", req.Lang))
		return
	}
	if rf := coachRefused(req); rf != nil {
		api.Write(w, http.StatusBadRequest, *rf)
		return
	}
	if req.Rated && !claimed(s.Player(r)) {
		api.Error(w, http.StatusForbidden, api.CodeRatedNeedsAccount, errRatedAccount.Error())
		return
	}
	opts := req.Options
	if len(opts) == 0 || string(opts) == "null" {
		opts = json.RawMessage("{}")
	}
	if _, err := g.New(game.Config{Players: req.Players, Options: opts, Seed: 1}); err != nil {
		api.Refuse(w, http.StatusBadRequest, api.CodeBadOptions, err)
		return
	}
	created := time.Now()
	// Nobody seated has connected yet: the table's Active is put before
	// the lobby's window, so that it is listed only once a seated
	// person's page connects (attach touches it), never for a grace
	// after creation. Otherwise tables made and never opened, 654 in
	// 70 s from six /24s, pushed the real ones out of the lobby's newest
	// 100 (issue 24, red team). WaitingTTL, counted from Active, ends a
	// never-opened table that much sooner.
	tab := store.Table{ID: randomID(), Game: g.Name(), Players: req.Players, Options: opts, Created: created,
		Active: created.Add(-s.cfg.ListedFor - time.Second),
		Seats:  make([]store.Seat, req.Players), TurnTime: time.Duration(turn) * s.cfg.TurnUnit,
		MemoryAid: req.MemoryAid, Host: -1, Public: req.Public, Lang: req.Lang, Rated: req.Rated, Coach: req.Coach}
	for i, b := range req.Bots {
		if b == "" {
			continue
		}
		if sc != nil && b == tutorialBot {
			tab.Seats[i] = store.Seat{Name: b, Bot: b}
			continue
		}
		if !seatable(b) {
			api.Write(w, http.StatusBadRequest, api.Refusal{Code: api.CodeBadBots, Reason: api.ReasonUnknownBot,
				Args: map[string]any{"bot": b}, Error: fmt.Sprintf("server: no bot %q to seat (have %v)", b, bot.Offered)})
			return
		}
		if _, err := bot.New(g, b, game.Seat(i), 1); err != nil {
			api.Refuse(w, http.StatusBadRequest, api.CodeBadBots, err)
			return
		}
		tab.Seats[i] = store.Seat{Name: b, Bot: b}
	}
	// A table of bots alone would play on, costing CPU and disk, with
	// nobody to play for: `tapis sim` is the place for bots against bots.
	if len(req.Bots) == req.Players && !slices.Contains(req.Bots, "") {
		api.Error(w, http.StatusBadRequest, api.CodeNoHuman, "server: a table needs at least one seat for a person; bots play each other with `tapis sim`")
		return
	}
	resp := seatResp{Table: tab.ID, Seat: game.Spectator, URL: "/t/" + tab.ID, Invite: s.invite(r, tab.ID)}
	// The signed-in player sits under their own name, and their seat
	// follows them to their other devices.
	name, player := account.CleanName(req.Name), ""
	if p, ok := s.Player(r); ok {
		name, player = p.Name, p.ID
	}
	// Without anyone to take a seat, the table would wait for guests
	// invited by nobody, and have no host.
	if name == "" {
		api.Write(w, http.StatusBadRequest, api.Refusal{Code: api.CodeBadName, Reason: api.ReasonNameNeeded,
			Error: "server: a name is needed to create a table (or a session: POST /api/me)"})
		return
	}
	// The creator takes the first person's seat (there is one: no_human),
	// which is the host's.
	for i := range tab.Seats {
		if tab.Seats[i].Bot == "" {
			resp.Seat, resp.Token = game.Seat(i), randomToken()
			tab.Seats[i] = store.Seat{Name: name, TokenHash: hashToken(resp.Token), Player: player}
			tab.Host = i
			break
		}
	}
	loaded, _ := s.tables.Count()
	full := loaded >= s.cfg.MaxTables
	if full {
		api.Error(w, http.StatusServiceUnavailable, api.CodeBusy, "server: too many tables; try again later")
		return
	}
	// One network's clients together hold no more than their share of
	// the tables in memory (Limits.NetTables), from creation until the
	// table goes: many addresses of one network cannot fill the server.
	unhold, ok := s.guard.HoldTable(w, client)
	if !ok {
		return
	}
	// A table waiting for players holds one of its creator's places,
	// and one of its creator's network's, until it starts or goes.
	unwait := nothing
	if !seated(tab.Seats) {
		var refused string
		if unwait, refused = s.guard.HoldWaiting(client); refused != "" {
			unhold()
			s.guard.RefuseWaiting(w, refused)
			return
		}
	}
	// A table created full starts in the same write.
	var start *store.Start
	if seated(tab.Seats) {
		start = &store.Start{No: 1, Seed: s.cfg.Seed()}
		if sc != nil {
			start.Seed = sc.Seed
		}
	}
	tab.Creator = client
	ctx, cancel := s.persist()
	defer cancel()
	if err := s.cfg.Store.CreateTable(ctx, tab, start); err != nil {
		unwait()
		unhold()
		s.log.Error("create table", "err", err)
		api.Error(w, http.StatusInternalServerError, api.CodeStore, "server: the table could not be saved")
		return
	}
	// In a cluster, the node that made the table owns it first.
	if node, _, err := s.own.OwnerOf(ctx, tab.ID); err != nil || node != "" {
		s.log.Error("lease of a new table", "table", tab.ID, "err", err, "holder", node)
	}
	t := newTable(s, tab)
	t.unwait, t.unhold = unwait, unhold
	t.days.on = req.TurnBased
	if start != nil {
		// Before anyone can reach it: nobody else is told.
		t.open(start.No, start.Seed)
	}
	// A turn-based table is one because the store has its clock
	// (deadline.go): written before anyone is told of the table.
	if err := t.writeTurnBased(); err != nil {
		unwait()
		unhold()
		s.log.Error("create table: its clock", "table", tab.ID, "err", err)
		s.close(ctx, tab.ID, store.Broken, "its clock could not be written")
		api.Error(w, http.StatusInternalServerError, api.CodeStore, "server: the table could not be saved")
		return
	}
	s.tables.Add(t.id, t) // refused, and logged, only for an id held already
	s.lobbyGen.Add(1)
	s.launch(t)
	api.Write(w, http.StatusCreated, resp)
}

func (s *Host) getTable(w http.ResponseWriter, r *http.Request) {
	id := r.PathValue("id")
	t, err := s.lookup(id)
	// A closed table is no longer played here, but its page says what
	// became of it (closed.go, issue 26).
	if t == nil && err == nil && s.tables.IsEnded(id) && s.writeClosed(w, r, id) {
		return
	}
	if t == nil {
		refuse(w, err)
		return
	}
	// You is the signed-in player's seat at the table, -1 for none: a
	// page opened on another device finds its seat without a token.
	var in struct {
		wire.Table
		You game.Seat `json:"you"`
	}
	p, _ := s.Player(r)
	if err := s.callAwake(r.Context(), t, func(t *table) { // sleep.go: a table gone to sleep since is woken
		in.Table = t.info()
		in.You, _ = t.seatOfPlayer(p.ID)
	}); err != nil {
		// Closed while the request waited (its host closed it): the
		// page says so, as for a request that came after.
		if s.tables.IsEnded(id) && s.writeClosed(w, r, id) {
			return
		}
		api.Error(w, http.StatusServiceUnavailable, api.CodeClosed, err.Error())
		return
	}
	api.Write(w, http.StatusOK, in)
}

func (s *Host) joinTable(w http.ResponseWriter, r *http.Request) {
	t := s.find(w, r.PathValue("id"))
	if t == nil {
		return
	}
	var req struct {
		Name string `json:"name"`
	}
	if !api.Read(w, r, &req) {
		return
	}
	name, player := account.CleanName(req.Name), ""
	p, ok := s.Player(r)
	if ok {
		name, player = p.Name, p.ID
	}
	mayRate := claimed(p, ok)
	if name == "" {
		api.Error(w, http.StatusBadRequest, api.CodeBadName, "server: a name is needed to sit down")
		return
	}
	if s.stopping() {
		api.Error(w, http.StatusServiceUnavailable, api.CodeStopping, errStopping.Error())
		return
	}
	if !s.guard.AllowJoin(w, r) {
		return
	}
	// Blocked by someone seated: told the table is full (blocks.go).
	if s.blockedJoin(r.Context(), t, player) {
		api.Error(w, http.StatusConflict, api.CodeFull, errFull.Error())
		return
	}
	var seat game.Seat
	var token string
	var err error
	// Once asked, the join is done whole, whether or not the client waits.
	if cerr := t.call(context.Background(), func() {
		if _, back := t.seatOfPlayer(player); t.rated && !mayRate && !back {
			err = errRatedAccount
			return
		}
		seat, token, err = t.join(name, player)
	}); cerr != nil {
		err = cerr
	}
	switch {
	case errors.Is(err, errFull):
		api.Error(w, http.StatusConflict, api.CodeFull, err.Error())
	case errors.Is(err, errRatedAccount):
		api.Error(w, http.StatusForbidden, api.CodeRatedNeedsAccount, err.Error())
	case errors.Is(err, errNameTaken):
		api.Error(w, http.StatusConflict, api.CodeNameTaken, err.Error())
	case err != nil:
		s.log.Error("join", "table", t.id, "err", err)
		api.Error(w, http.StatusInternalServerError, api.CodeStore, "server: the seat could not be saved")
	default:
		api.Write(w, http.StatusOK, seatResp{Table: t.id, Seat: seat, Token: token, URL: "/t/" + t.id, Invite: s.invite(r, t.id)})
	}
}

// seatable reports whether a table may seat the bot called name: one of the
// levels offered. Budgets (hard@N), the cheating reference bot and
// "heuristic" (the old name of easy, never listed by /api/games nor sent
// by the web client) are for measurement only (tapis sim).
func seatable(name string) bool {
	return slices.Contains(bot.Offered, name)
}

// Build makes the table the matcher seats queued people at (lobby.Host):
// the game's default options, the people in the first seats in the order
// the matcher gives them (the longest waiting first, who hosts), bots of
// the level asked in the others, and its first match started in the same
// write. A person's seat gets a token nobody holds: their session is
// their way in.
func (s *Host) Build(gameName string, players int, people []store.Entry, level string) (store.Table, *store.Start, error) {
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
