package table

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"runtime"
	"sync/atomic"
	"time"

	"github.com/coder/websocket"

	"tapis/bot"
	"tapis/game"
	"tapis/history"
	"tapis/store"
	"tapis/table/chat"
	"tapis/table/codec"
	"tapis/table/tableset"
	"tapis/wire"
)

var errTableClosed = errors.New("server: the table is closed")

// seat is one place at a table, as the table's goroutine keeps it.
type seat struct {
	store.Seat
	// player is the bot of a bot seat during a match, or the stand-in
	// playing for an absent human seat.
	player game.Player
	conns  int // open connections of this seat
	// away is since when this human seat has had no connection: since
	// it dropped, or since the match began (or the table was loaded)
	// without one. It starts a stand-in's grace period (Config.AwayAfter).
	away time.Time
	// pending holds the events a bot is told while it thinks: its player
	// belongs to the thinking goroutine until the move comes back.
	pending []game.Event
	// due is since when the seat has been due to act (zero: it is not);
	// turnBot: player is a stand-in for one move, its time being up
	// (turntime.go).
	due     time.Time
	turnBot bool
	// dueN is how many moves the match had when the seat became due, and
	// warned the move it was last told its deadline is near of
	// (warn.go).
	dueN   int
	warned warnMark
	// missed is what the stand-in played for this seat while it had no
	// connection, not yet told to its player (standin.go).
	missed missedMoves
}

// table is one game table. Everything below inbox is owned by the table's
// goroutine (run): other goroutines only send it functions to run.
type table struct {
	srv     *Host
	id      string
	g       game.Game
	codec   *codec.Moves // g's moves' JSON, cached (package codec)
	players int
	opts    json.RawMessage
	created time.Time
	inbox   chan func()
	dead    chan struct{} // closed when run returns
	creator string        // the creating client's limit key
	// host is the seat of the table's creator, who may give seats to
	// bots (-1: none); memoryAid the table's option (recall.go).
	host      game.Seat
	memoryAid bool
	// seen is the last time a person sat connected at the table (the
	// store's Active), empty since when nobody at all has been.
	seen, empty time.Time
	// unwait gives back the place its creator's waiting table held
	// (Limits.Waiting): once it starts, or when it goes. unhold gives
	// back its creator's network's place among the tables in memory
	// (Limits.NetTables) when it goes.
	unwait, unhold func()
	// w is where the table writes its matches: the store, fenced by the
	// node's lease in a cluster (package lease). res is the table's
	// residence as its goroutine knows it: Loaded while it runs here, HandedOver
	// once the lease is lost, when the goroutine stops without another
	// write.
	w   store.TableWriter
	res tableset.Residence

	seats      []seat
	conns      map[*conn]struct{}
	st         game.State
	match      int
	seed       uint64   // the match's, for its bots' (botSeed)
	n          int      // moves applied in this match
	history    game.Log // every event of this match, with its audience
	moveEvents game.Log // the events of the move being applied (t.srv.log is the logger)
	botC       <-chan time.Time
	idleC      <-chan time.Time
	// awayC wakes the table when an absent seat's grace period ends, at
	// awayAt (armed by armAway).
	awayC  <-chan time.Time
	awayAt time.Time
	// turnTime is the table's time per move (0: none); turnC wakes the
	// table when a seat's time is up, at turnAt (armed by armTurn).
	turnTime time.Duration
	turnC    <-chan time.Time
	turnAt   time.Time
	// watchers is the number of spectators' connections; watchC wakes
	// the table to tell everyone the count, at most once a watchEvery,
	// and told is the count last told (audience.go).
	watchers, told int
	// coming counts the connections admitted (admit) and not yet
	// attached, by seat (game.Spectator for spectators).
	coming map[game.Seat]int
	watchC <-chan time.Time
	// thinking is the number of the bot move being searched in another
	// goroutine (0: none), so that a late answer from an earlier match or
	// position is recognised.
	thinking, thoughts int
	thinker            game.Seat
	thinkN             int // t.n when the thinking began

	// rounds is every completed round's scores in this match (wire.State's
	// Rounds), appended as Result.Rounds grows, not rebuilt per message.
	rounds [][]int
	// wctx is the context of the moves' store writes (moveCtx), wdl its
	// deadline; wcancel releases it.
	wctx    context.Context
	wdl     time.Time
	wcancel context.CancelFunc
	// result is the game's Result as the last state message said it,
	// written over at each one (game.ResultWriter): Result allocates three
	// slices, at every move otherwise.
	result game.Result
	// byStandin: the move being applied is a stand-in's (botChose), which
	// its state message says (wire.State's Standin).
	byStandin bool

	// talk is the table's chat as this node keeps it (chat.go).
	talk chat.Room

	// rated: the table rates its matches (rated.go); moved counts each
	// human seat's moves in this match, its player's and a stand-in's;
	// ratings is each seat's rating change once a rated match is over.
	rated   bool
	moved   [][2]int
	ratings []wire.Rating
	// closed: the host closed the table (leave.go); its goroutine ends.
	closed bool
	// tut is a tutorial table's script, nil at any other (tutorial.go).
	tut *script
	// coach is the table's coach and its hints (coach.go).
	coach coachState

	// answering is the type of the client message being handled, for
	// the refusals' metrics ("" outside handle); shown is the table's
	// status as the metrics read it from another goroutine (countTables).
	answering string
	shown     atomic.Value // Status
	// turns is who is due to act, published for GET /api/me/turns
	// (turns.go).
	turns turnBoard
	// days is what a turn-based table keeps of being one (days.go).
	days days
}

func newTable(srv *Host, t store.Table) *table {
	tb := &table{
		srv: srv, id: t.ID, g: srv.games[t.Game], codec: codec.For(srv.games[t.Game]), players: t.Players, opts: t.Options, created: t.Created, turnTime: t.TurnTime,
		creator: t.Creator, seen: t.Active, empty: time.Now(), host: game.Seat(t.Host), memoryAid: t.MemoryAid, rated: t.Rated,
		inbox: make(chan func(), 64), dead: make(chan struct{}), unwait: nothing, unhold: nothing,
		conns: map[*conn]struct{}{}, coming: map[game.Seat]int{}, w: srv.own.Writer(t.ID), res: tableset.Loaded,
	}
	if tb.rated && tb.turnTime <= 0 {
		// A rated table stored without a time per move (made before
		// rated tables needed one) gets the default one.
		tb.turnTime = ratedTurn * srv.cfg.TurnUnit
	}
	for _, s := range t.Seats {
		tb.seats = append(tb.seats, seat{Seat: s})
	}
	tb.tut = scriptOf(tb.g, t)
	tb.coach.on = t.Coach
	if tb.seen.IsZero() {
		tb.seen = t.Created
	}
	tb.shown.Store(StatusWaiting)
	return tb
}

// call runs f in the table's goroutine and waits for it.
func (t *table) call(ctx context.Context, f func()) error {
	done := make(chan struct{})
	select {
	case t.inbox <- func() { f(); close(done) }:
	case <-ctx.Done():
		return ctx.Err()
	case <-t.dead:
		return errTableClosed
	}
	select {
	case <-done:
		return nil
	case <-t.dead:
		return errTableClosed
	}
}

// post queues f to run in the table's goroutine without waiting for it.
func (t *table) post(ctx context.Context, f func()) error {
	select {
	case t.inbox <- f:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	case <-t.dead:
		return errTableClosed
	}
}

// run owns the table until ctx ends or the table has been idle too long.
// When ctx ends it first runs what is already in its inbox: a move read
// from a client before the server stopped is still applied and saved.
func (t *table) run(ctx context.Context) {
	defer close(t.dead)
	defer func() {
		if t.wcancel != nil {
			t.wcancel()
			t.wctx, t.wcancel = nil, nil
		}
	}()
	defer func() { t.unwait(); t.unhold() }()
	defer func() {
		for c := range t.conns {
			t.drop(c)
		}
	}()
	for {
		t.schedule()
		select {
		case <-ctx.Done():
			t.drain()
			return
		case f := <-t.inbox:
			f()
			if t.res == tableset.HandedOver {
				return
			}
			if t.closed {
				t.srv.ended(t)
				return
			}
		case <-t.botC:
			t.botC = nil
			t.playBot(ctx)
		case <-t.awayC:
			t.awayC = nil
			t.standIn()
		case <-t.turnC:
			t.turnC = nil
			t.turnUp()
		case <-t.watchC:
			t.watchC = nil
			t.tellWatchers()
		case <-t.idleC:
			t.idleC = nil
			if t.idle() {
				t.srv.evict(t)
				t.srv.own.Release(t.id)
				return
			}
		}
	}
}

// handOver stops the table on this node, its lease lost (package lease): its
// sockets close with "reconnecting", so that their clients come back
// through the table's next owner, and the goroutine ends.
func (t *table) handOver() {
	t.res = tableset.HandedOver
	for c := range t.conns {
		c.bye = websocket.StatusServiceRestart
		t.drop(c)
	}
}

// drain runs the functions waiting in the inbox.
func (t *table) drain() {
	for {
		select {
		case f := <-t.inbox:
			f()
		default:
			return
		}
	}
}

// idle reports whether the table need not stay in memory: nobody has been
// connected for Config.IdleTimeout (lifecycle.go).
func (t *table) idle() bool {
	if t.days.on {
		return t.sleepy() // sleep.go
	}
	return len(t.conns) == 0 && time.Since(t.empty) >= t.srv.idleAfter()
}

// attended reports whether anyone, player or spectator, is connected:
// bots and stand-ins play only then, so that a table everyone has left
// costs nothing and waits for its players. A turn-based table is always
// attended: its bots and its clocks play whoever is there (days.go).
func (t *table) attended() bool { return len(t.conns) > 0 || t.days.on }

// schedule arms the idle timer when nobody is connected, and, when
// someone is, the bot timer when a bot must act, the away timer when an
// absent seat must, and the turn timer when a human seat is on the clock.
func (t *table) schedule() {
	if t.srv.cfg.Metrics != nil {
		t.shown.Store(t.status())
	}
	t.publishTurns()
	t.warnSoon()
	t.keepClock()
	if t.days.on {
		t.armSleep()
	} else if t.idleC == nil && len(t.conns) == 0 {
		t.idleC = time.After(t.srv.idleCheck(t.empty))
	}
	if t.st == nil || t.st.Over() || !t.attended() {
		return
	}
	t.armAway()
	t.armTurn()
	if t.botC != nil || t.thinking != 0 {
		return
	}
	for s := range t.st.ToMove().All() {
		if t.seats[s].player != nil && !t.scriptWaits(s) {
			// The bot starts thinking at once; BotDelay is paced in
			// playBot, so that a slow search adds no extra pause.
			t.botC = time.After(0)
			return
		}
	}
}

// status returns where the table's game is: waiting while no match has
// begun, then playing, or over.
func (t *table) status() Status {
	switch {
	case t.st == nil:
		return StatusWaiting
	case t.st.Over():
		return StatusOver
	}
	return StatusPlaying
}

func (t *table) info() wire.Table {
	in := wire.Table{ID: t.id, Game: t.g.Name(), Players: t.players, Options: t.opts, Status: t.status(), Match: t.match,
		TurnSeconds: t.turnSeconds(), Watchers: t.watchers, Host: int(t.host), MemoryAid: t.memoryAid,
		Rated: t.rated, Ratings: t.ratings, TurnBased: t.days.on, Coach: t.coach.on, Hints: t.coach.list(t.match, t.players)}
	if len(in.Options) == 0 {
		in.Options = json.RawMessage("{}")
	}
	for _, s := range t.seats {
		in.Seats = append(in.Seats, wire.SeatInfo{Name: s.Name, Bot: s.Bot, Free: s.Bot == "" && s.TokenHash == "",
			Connected: s.Bot != "" || s.conns > 0, Standin: s.Bot == "" && s.player != nil})
	}
	return in
}

// start begins the next match with the same seats: stored, then played.
func (t *table) start() error {
	seed := t.srv.cfg.Seed()
	ctx, cancel := t.srv.persist()
	defer cancel()
	if err := t.w.StartMatch(ctx, t.match+1, seed); err != nil {
		return err
	}
	t.open(t.match+1, seed)
	t.tellStart(0)
	return nil
}

// open plays match no, already stored, and tells everyone. Its options
// were checked when the table was made, so the game cannot refuse it; if
// it did, the table would be broken, and the next load says so.
func (t *table) open(no int, seed uint64) {
	if err := t.begin(no, seed); err != nil {
		t.srv.log.Error("begin match", "table", t.id, "match", no, "err", err)
		return
	}
	t.unwait()
	t.broadcastInfo()
	t.broadcastState(game.Spectator, t.moveEvents.Events)
}

// begin sets up match no from its seed: the state, and fresh bots. The
// opening's events (the first deal) are left in t.moveEvents and passed to the
// history and the bots like a move's.
func (t *table) begin(no int, seed uint64) error {
	t.moveEvents.Reset()
	st, err := t.g.New(game.Config{Players: t.players, Options: t.opts, Seed: seed, Log: &t.moveEvents})
	if err != nil {
		return err
	}
	t.st, t.match, t.seed, t.n = st, no, seed, 0
	t.history = game.Log{}
	t.rounds = [][]int{}
	t.moved, t.ratings = nil, nil
	t.botC, t.thinking = nil, 0
	now := time.Now()
	for i := range t.seats {
		seat := &t.seats[i]
		// No stand-in: an absent seat's grace period starts again.
		seat.player, seat.pending, seat.away = nil, nil, now
		seat.due, seat.turnBot = time.Time{}, false
		if seat.Bot != "" {
			p, err := t.newBot(seat.Bot, game.Seat(i), t.srv.botSeed(seed, game.Seat(i), 0))
			if err != nil {
				return err
			}
			seat.player = p
		}
	}
	t.deliver()
	t.clocks(game.Spectator)
	return nil
}

// newBot builds the bot of level name for seat s, through Config.Levels.
func (t *table) newBot(name string, s game.Seat, seed uint64) (game.Player, error) {
	if name == tutorialBot {
		return t.newScriptBot(s, seed)
	}
	if spec, ok := t.srv.cfg.Levels[name]; ok {
		name = spec
	}
	p, err := bot.New(t.g, name, s, seed)
	if sp, ok := p.(*bot.Search); ok {
		// Searches share the cores with people's moves: they step aside
		// every few iterations (bot.Search.Yield).
		sp.Yield = runtime.Gosched
	}
	return p, err
}

// replay rebuilds a saved match by applying its moves again.
func (t *table) replay(m *store.Match) error {
	if err := t.begin(m.No, m.Seed); err != nil {
		return err
	}
	for i, mv := range m.Moves {
		if mv.Seat < 0 || mv.Seat >= t.players {
			return fmt.Errorf("server: table %s: move %d is by seat %d, not a seat of the table", t.id, i, mv.Seat)
		}
		gm, err := t.codec.Unmarshal(mv.Move)
		if err == nil {
			err = t.step(game.Seat(mv.Seat), gm)
		}
		if err != nil {
			return fmt.Errorf("server: table %s: replaying move %d: %v", t.id, i, err)
		}
	}
	return nil
}

// step applies a move in memory: state, history, bots.
func (t *table) step(s game.Seat, m game.Move) error {
	t.moveEvents.Reset()
	if err := t.st.Apply(s, m, &t.moveEvents); err != nil {
		return err
	}
	t.record(s)
	return nil
}

// record counts seat s's move just applied, delivers its events and
// sets the clocks.
func (t *table) record(s game.Seat) {
	t.n++
	t.noteRound()
	t.deliver()
	t.clocks(s)
}

// noteRound keeps the round scores of a round the last move completed.
// A move completes at most one round in every game (Result.RoundScores
// is only the last round's), so one append per increase keeps them all.
func (t *table) noteRound() {
	if v, ok := t.st.(game.Valuer); ok && v.Rounds() <= len(t.rounds) {
		return // no round completed: Result would allocate for nothing
	}
	t.rounds = history.NoteRound(t.rounds, t.st.Result())
}

// deliver passes the events in t.moveEvents to the history and to the bots.
func (t *table) deliver() {
	t.history.Events = append(t.history.Events, t.moveEvents.Events...)
	for i := range t.seats {
		seat := &t.seats[i]
		if seat.player == nil {
			continue
		}
		busy := t.thinking != 0 && t.thinker == game.Seat(i)
		for _, e := range t.moveEvents.Events {
			switch {
			case !e.To.Has(game.Seat(i)):
			case busy:
				seat.pending = append(seat.pending, e)
			default:
				seat.player.Observe(e)
			}
		}
	}
}

// apply plays a move: the rules check it, the store makes it durable, then
// every connection is told what its seat may see of it. If the store
// fails, the move is undone, so memory never runs ahead of the disk.
// read is when the move was read, for the metrics (zero without them).
func (t *table) apply(s game.Seat, m game.Move, read time.Time) error {
	met := t.srv.cfg.Metrics
	prev, was := t.st.Clone(), t.st.ToMove()
	t.moveEvents.Reset()
	if err := t.st.Apply(s, m, &t.moveEvents); err != nil {
		return err
	}
	applied := met.Now()
	js, err := t.codec.Marshal(m)
	ctx := t.moveCtx()
	if err == nil {
		err = t.w.AppendMove(ctx, t.match, t.n, store.Move{Seat: int(s), Move: js})
	}
	if err != nil {
		t.st = prev
		if errors.Is(err, store.ErrLeaseLost) {
			// Another node owns the table now: this one lets it go.
			go t.srv.own.Disown(t.id, "its write was fenced off")
		}
		return &storeError{err}
	}
	saved := met.Now()
	t.countMove(s)
	t.record(s)
	if t.byStandin {
		t.noteMissed(s)
	}
	if t.st.Over() {
		// Rated before the end is marked: a crash between the two
		// leaves the match open, so the restart replays it and rates
		// it then, or finds it rated (rated.go).
		t.rateMatch()
		if err := t.w.EndMatch(ctx, t.match); err != nil {
			t.srv.log.Error("end match", "table", t.id, "err", err)
		}
		t.broadcastInfo()
	}
	t.broadcastState(s, t.moveEvents.Events)
	t.notifyMove(was)
	// Every move applied and saved is counted, a person's or a bot's.
	met.Moved(read, applied, saved, met.Now())
	return nil
}

// moveCtx is the context of a move's store writes: persist's, but one
// for many moves. A move is the table's most frequent write, and a context
// with a timer of its own at each cost some 2% of a move's CPU (the timer
// set and stopped, four allocations). This one is made anew once less than
// storeTimeout is left of it, so that each write still has at least that
// long, as persist's have.
func (t *table) moveCtx() context.Context {
	if t.wctx == nil || time.Until(t.wdl) < storeTimeout {
		if t.wcancel != nil {
			t.wcancel()
		}
		t.wdl = time.Now().Add(2 * storeTimeout)
		t.wctx, t.wcancel = context.WithDeadline(context.WithoutCancel(t.srv.ctx), t.wdl)
	}
	return t.wctx
}

type storeError struct{ err error }

func (e *storeError) Error() string { return "server: the move could not be saved; try again" }

// handle acts on one decoded client message.
func (t *table) handle(c *conn, m clientMsg) {
	if _, ok := t.conns[c]; !ok {
		return
	}
	// The known types only: the default case says "unknown", so that no
	// client makes up a metric's label.
	t.answering = m.Type
	defer func() { t.answering = "" }()
	switch m.Type {
	case "ping":
		t.send(c, []byte(`{"type":"pong"}`))
	case "again":
		switch {
		case c.seat < 0:
			t.sendError(c, wire.CodeNotSeated, "server: only a seated player may start the next game", m.ID)
		case t.status() != StatusOver:
			t.sendError(c, wire.CodeNotStarted, "server: the game is not over", m.ID)
		default:
			if err := t.start(); err != nil {
				t.srv.log.Error("play again", "table", t.id, "err", err)
				t.sendError(c, wire.CodeStore, "server: the next game could not start; try again", m.ID)
			}
		}
	case "move":
		t.move(c, m)
	case "seat_bot":
		t.seatBot(c, m)
	case "chat":
		t.chat(c, m)
	case "hello":
		t.hello(c, m)
	case "mute":
		t.mute(c, m)
	case "leave":
		t.leaveSeat(c, m)
	case "close_table":
		t.closeTable(c, m)
	case "pace":
		t.setPace(c, m)
	default:
		t.answering = "unknown"
		t.sendError(c, wire.CodeBadMessage, fmt.Sprintf("server: unknown message type %q", m.Type), m.ID)
	}
}

func (t *table) move(c *conn, m clientMsg) {
	switch {
	case c.seat < 0:
		t.sendError(c, wire.CodeNotSeated, "server: you are watching: only a seated player may move", m.ID)
		return
	case m.Seat != nil && game.Seat(*m.Seat) != c.seat:
		t.sendError(c, wire.CodeWrongSeat, fmt.Sprintf("server: you sit at seat %d and may act for it only", c.seat), m.ID)
		return
	}
	if code, err := t.play(c.seat, m.N, m.Move, m.read); err != nil {
		t.sendRefusal(c, code, err, m.ID)
	}
}

// play is seat s's move raw, answering the position after n moves (nil:
// the table's, whatever it is): checked, applied and stored (apply), or
// refused with a code and why. A socket's move and an HTTP one
// (httpmove.go) both take it.
func (t *table) play(s game.Seat, n *int, raw json.RawMessage, read time.Time) (string, error) {
	switch {
	case t.st == nil:
		return wire.CodeNotStarted, errors.New("server: the game has not started: seats are still free")
	case t.st.Over():
		return wire.CodeOver, errors.New("server: the game is over")
	case n != nil && *n < t.n:
		return wire.CodeStale, fmt.Errorf("server: the move answers move %d, but %d moves have been played since: look again", *n, t.n-*n)
	case n != nil && *n > t.n:
		return wire.CodeBadMessage, fmt.Errorf("server: n is %d, but only %d moves have been played", *n, t.n)
	}
	gm, err := t.codec.Unmarshal(raw)
	if err != nil {
		return wire.CodeBadMove, err
	}
	if err := t.scripted(s, gm); err != nil {
		return wire.CodeRefused, err
	}
	if err := t.apply(s, gm, read); err != nil {
		var se *storeError
		if errors.As(err, &se) {
			t.srv.log.Error("store", "table", t.id, "err", se.err)
			return wire.CodeStore, err
		}
		return wire.CodeRefused, err
	}
	return "", nil
}
