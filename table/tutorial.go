package table

import (
	"fmt"
	"net/http"

	"tapis/api"
	"tapis/bot"
	"tapis/game"
	"tapis/store"
	"tapis/table/codec"
	"tapis/tutorial"
	"tapis/wire"
)

// A tutorial table (POST /api/tutorials/{game}) is an unrated private
// table whose first match is dealt from its script's seed (package
// tutorial): the player sits at seat 0, the other seats are the script
// bot, which plays the script's next move at the bots' pace, and the
// player's seat may make only the script's move. Each state is preceded,
// for the player alone, by the step of the moment (wire.Tutorial). Once
// the script is played out, the match goes on as an ordinary one against
// easy bots. The table is stored like any other: the player leaves and
// comes back by its link, and a restart replays it.

// tutorialBot is the bot of a tutorial's other seats, as the store keeps
// it (store.Seat.Bot): it is how a table is known to be a tutorial. No
// table may seat it but a tutorial (seatable).
const tutorialBot = "tutorial"

// afterScript is the bots' level once the script is played out.
const afterScript = "easy"

// script is a tutorial table's script, its moves packed.
type script struct {
	*tutorial.Script
	moves []game.Move
}

// scriptOf returns the script of the stored table t, nil when t is no
// tutorial (or its game's script can no longer be read).
func scriptOf(g game.Game, t store.Table) *script {
	tut := false
	for _, s := range t.Seats {
		tut = tut || s.Bot == tutorialBot
	}
	sc, ok := tutorial.For(t.Game)
	if !tut || !ok || g == nil {
		return nil
	}
	out := &script{Script: sc}
	for _, m := range sc.Moves {
		gm, err := g.UnmarshalMove(m.Move)
		if err != nil {
			return nil // the package's test replays every script
		}
		out.moves = append(out.moves, gm)
	}
	return out
}

// scripting reports whether the table's match follows its script now:
// a tutorial's first match, not yet played out.
func (t *table) scripting() bool {
	return t.tut != nil && t.st != nil && t.match == 1 && !t.tut.Done(t.n)
}

// scriptWaits reports whether seat s is the script bot and the script's
// next move is another seat's: the bot waits (schedule, playBot).
func (t *table) scriptWaits(s game.Seat) bool {
	return t.scripting() && t.seats[s].Bot == tutorialBot && t.tut.Moves[t.n].Seat != int(s)
}

// scripted refuses, at a tutorial, a player's move other than the one
// its step asks for.
func (t *table) scripted(s game.Seat, m game.Move) error {
	if !t.scripting() {
		return nil
	}
	want, step, _ := t.tut.At(t.n)
	switch {
	case want.Seat != int(s):
		return game.Refuse(t.g.Name(), "", api.ReasonTutorialStep, map[string]any{"step": step},
			"tutorial: the other players play now; wait for your step")
	case t.tut.moves[t.n] != m:
		return game.Refuse(t.g.Name(), "", api.ReasonTutorialStep, map[string]any{"step": step},
			"tutorial: step %d asks for another move: %s", step, want.Move)
	}
	return nil
}

// scriptBot plays a tutorial's other seats: the script's move while the
// table follows it, then an easy bot's, which it has told every event.
type scriptBot struct {
	moves []game.Move
	seats []int
	// next is the script's move due now, set by the table before each
	// choice (playBot); -1 once the script no longer leads.
	next  int
	after game.Player
}

// Observe implements game.Player.
func (b *scriptBot) Observe(e game.Event) { b.after.Observe(e) }

// Choose implements game.Player.
func (b *scriptBot) Choose(k game.Knowledge) game.Move {
	if b.next >= 0 && b.next < len(b.moves) && b.seats[b.next] == int(k.Seat()) {
		return b.moves[b.next]
	}
	return b.after.Choose(k)
}

// newScriptBot builds the script bot of seat s.
func (t *table) newScriptBot(s game.Seat, seed uint64) (game.Player, error) {
	if t.tut == nil {
		return nil, fmt.Errorf("server: %s has no tutorial", t.g.Name())
	}
	after, err := bot.New(t.g, afterScript, s, seed)
	if err != nil {
		return nil, err
	}
	b := &scriptBot{moves: t.tut.moves, after: after, next: -1}
	for _, m := range t.tut.Moves {
		b.seats = append(b.seats, m.Seat)
	}
	return b, nil
}

// cue tells a script bot about to choose which move of the script is due.
func (t *table) cue(p game.Player) {
	if b, ok := p.(*scriptBot); ok {
		b.next = -1
		if t.scripting() {
			b.next = t.n
		}
	}
}

// tellTutorial sends the player's connections the step of the moment,
// before each state (broadcastState), or only the connection only, on
// its arrival (attach).
func (t *table) tellTutorial(only *conn) {
	if t.tut == nil || t.st == nil || t.match != 1 {
		return
	}
	var b []byte
	for c := range t.conns {
		if c.seat != tutorial.Seat || only != nil && c != only {
			continue
		}
		if b == nil {
			b = codec.Encode(t.tutorialStep())
		}
		t.send(c, b)
	}
}

// tutorialStep is the step message of the moment: the words of the step
// awaited now only, never of a later one.
func (t *table) tutorialStep() *wire.Tutorial {
	m := &wire.Tutorial{Type: wire.TypeTutorial, Game: t.g.Name(), Of: t.tut.Steps()}
	want, step, ok := t.tut.At(t.n)
	switch {
	case !ok:
		m.Step, m.Done = m.Of, true
		m.End = map[string]string{"en": t.tut.End.EN, "fr": t.tut.End.FR}
	case want.Seat != tutorial.Seat:
		m.Step, m.Waiting = step, true
	default:
		m.Step, m.Point = step, want.Step.Point
		m.Text = map[string]string{"en": want.Step.Text.EN, "fr": want.Step.Text.FR}
	}
	return m
}

// tutorialRoutes registers the tutorials' routes: their list, and making
// one.
func (s *Host) tutorialRoutes(m *http.ServeMux) {
	m.HandleFunc("GET /api/tutorials", s.listTutorials)
	m.HandleFunc("POST /api/tutorials/{game}", s.own.Balanced(s.createTutorial))
}

// listTutorials lists the games this server has a tutorial of.
func (s *Host) listTutorials(w http.ResponseWriter, r *http.Request) {
	out := []string{}
	for _, g := range tutorial.Games() {
		if s.games[g] != nil {
			out = append(out, g)
		}
	}
	api.Write(w, http.StatusOK, map[string][]string{"games": out})
}

// createTutorial makes a tutorial table of the game named in the path for
// its caller (the signed-in player, or else the body's name), as
// createTable makes a table: the same guards and limits.
func (s *Host) createTutorial(w http.ResponseWriter, r *http.Request) {
	var req struct {
		Name string `json:"name"`
		Lang string `json:"lang"`
	}
	if !api.Read(w, r, &req) {
		return
	}
	sc, ok := tutorial.For(r.PathValue("game"))
	if !ok || s.games[sc.Game] == nil {
		api.Error(w, http.StatusBadRequest, api.CodeBadGame, fmt.Sprintf("server: no tutorial for %q (have %v)", r.PathValue("game"), tutorial.Games()))
		return
	}
	bots := make([]string, sc.Players)
	for i := range bots {
		if i != tutorial.Seat {
			bots[i] = tutorialBot
		}
	}
	s.create(w, r, createReq{Game: sc.Game, Players: sc.Players, Options: sc.Options, Bots: bots, Name: req.Name, Lang: req.Lang}, sc)
}
