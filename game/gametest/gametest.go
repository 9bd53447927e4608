// Package gametest is the conformance suite every Tapis game passes, as
// OpenSpiel's games all pass the same checks: random games to the end,
// clones equal to their original, refused moves that change nothing,
// determinism, honest views and samples, and JSON round trips.
//
// Every registered game passes it: games' TestContract runs it over each
// game's Trials (game.Entry). Another game is tried with one line:
//
//	func TestContract(t *testing.T) { gametest.Run(t, gametest.Toy{}, gametest.Configs(2, 4)) }
package gametest

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"reflect"
	"testing"

	"tapis/game"
)

// Checker is implemented by states that can verify their own invariants
// (cards conserved, a round's points). The suite calls it after every move
// and on every sample.
type Checker interface {
	Check() error
}

// Suite tunes Run. The zero value is usable: Run fills in defaults.
type Suite struct {
	// Games is how many random games each config plays (default 300).
	Games int
	// MaxMoves bounds one game; reaching it is a failure (default 20000).
	MaxMoves int
	// Every is how often, in moves, the expensive checks run (default 7).
	Every int
}

// Configs returns one default-options config per player count in [lo, hi]
// (game.Configs).
func Configs(lo, hi int) []game.Config { return game.Configs(lo, hi) }

// Run runs the whole suite with default tuning.
func Run(t *testing.T, g game.Game, cfgs []game.Config) {
	t.Helper()
	Suite{}.Run(t, g, cfgs)
}

// Run plays s.Games random games for each config and checks the contract
// along the way.
func (s Suite) Run(t *testing.T, g game.Game, cfgs []game.Config) {
	t.Helper()
	if s.Games == 0 {
		s.Games = 300
	}
	if s.MaxMoves == 0 {
		s.MaxMoves = 20000
	}
	if s.Every == 0 {
		s.Every = 7
	}
	if testing.Short() {
		s.Games = max(s.Games/10, 5)
	}
	for _, cfg := range cfgs {
		name := fmt.Sprintf("%dp%s", cfg.Players, string(cfg.Options))
		t.Run(name, func(t *testing.T) {
			pool := newPool()
			var sampled, differed int
			for i := 0; i < s.Games; i++ {
				c := cfg
				c.Seed = uint64(i)*0x9e3779b97f4a7c15 + 1
				r := &runner{t: t, g: g, cfg: c, suite: s, pool: pool, rng: game.NewRNG(c.Seed ^ 0xabcdef)}
				r.play()
				sampled += r.sampled
				differed += r.differed
				if t.Failed() {
					return
				}
			}
			// A Sample that copies the true state would pass every equality
			// above; it must also redraw what the seat cannot know.
			if sampled > 20 && differed*10 < sampled {
				t.Errorf("Sample changed the hidden state in only %d of %d samples: is it redrawing what the seat cannot see?", differed, sampled)
			}
		})
	}
}

type runner struct {
	t     *testing.T
	g     game.Game
	cfg   game.Config
	suite Suite
	pool  *pool
	rng   game.RNG

	history           []step
	sampled, differed int
	buf               []game.Move
	// res is written over by ResultTo move after move, as a simulator does.
	res game.Result
}

type step struct {
	seat game.Seat
	move game.Move
}

func (r *runner) fail(format string, args ...any) {
	r.t.Helper()
	r.t.Fatalf("seed %d, %d players, move %d: %s", r.cfg.Seed, r.cfg.Players, len(r.history), fmt.Sprintf(format, args...))
}

func (r *runner) play() {
	t := r.t
	t.Helper()
	var log game.Log
	var events [][]byte
	c := r.cfg
	c.Log = &log
	st, err := r.g.New(c)
	if err != nil {
		r.fail("New: %v", err)
	}
	// The opening's events must not change play either.
	if quiet, _ := r.g.New(r.cfg); !reflect.DeepEqual(st, quiet) {
		r.fail("New with and without a log gave different states")
	}
	for _, e := range log.Events {
		events = append(events, r.eventJSON(e))
	}
	for !st.Over() {
		if len(r.history) >= r.suite.MaxMoves {
			r.fail("game not over after %d moves", r.suite.MaxMoves)
		}
		r.checkTurn(st)
		if r.rng.IntN(r.suite.Every) == 0 {
			r.checkClone(st)
			r.checkRefused(st)
			r.checkSample(st)
			r.checkJSON(st)
		}
		seat, m := r.randomMove(st)
		// Events must not change play: the same move without a log gives
		// the same state.
		quiet := st.Clone()
		log.Reset()
		if err := st.Apply(seat, m, &log); err != nil {
			r.fail("legal move %s by seat %d refused: %v", r.moveJSON(m), seat, err)
		}
		if err := quiet.Apply(seat, m, nil); err != nil {
			r.fail("legal move refused without a log: %v", err)
		}
		if !reflect.DeepEqual(st, quiet) {
			r.fail("applying %s with and without a log gave different states", r.moveJSON(m))
		}
		for _, e := range log.Events {
			events = append(events, r.eventJSON(e))
		}
		r.history = append(r.history, step{seat, m})
		r.check(st, "after a move")
	}
	r.checkOver(st)
	r.checkReplay(st, events)
}

// randomMove picks a seat that must act and one of its legal moves.
func (r *runner) randomMove(st game.State) (game.Seat, game.Move) {
	seats := st.ToMove().List()
	seat := seats[r.rng.IntN(len(seats))]
	r.buf = st.Legal(seat, r.buf[:0])
	return seat, r.buf[r.rng.IntN(len(r.buf))]
}

func (r *runner) check(st game.State, when string) {
	r.t.Helper()
	if c, ok := st.(Checker); ok {
		if err := c.Check(); err != nil {
			r.fail("%s: invariant broken: %v", when, err)
		}
	}
	if w, ok := st.(game.ResultWriter); ok {
		w.ResultTo(&r.res)
		if want := st.Result(); !reflect.DeepEqual(r.res, want) {
			r.fail("%s: ResultTo wrote %+v over the last result, Result is %+v", when, r.res, want)
		}
	}
}

// checkTurn: exactly the seats in ToMove have legal moves, and every legal
// move is recorded for the refused-move checks of other states.
func (r *runner) checkTurn(st game.State) {
	r.t.Helper()
	to := st.ToMove()
	if to.Empty() {
		r.fail("game not over but nobody is to move")
	}
	for s := game.Seat(0); int(s) < st.Players(); s++ {
		r.buf = st.Legal(s, r.buf[:0])
		if to.Has(s) != (len(r.buf) > 0) {
			r.fail("seat %d: in ToMove %v but %d legal moves", s, to.Has(s), len(r.buf))
		}
		for _, m := range r.buf {
			r.pool.add(m)
		}
	}
}

func (r *runner) checkClone(st game.State) {
	r.t.Helper()
	c := st.Clone()
	if !reflect.DeepEqual(c, st) {
		r.fail("Clone differs from the original")
	}
	// The clone must be independent: playing it leaves the original alone.
	before := st.Clone()
	seat, m := r.randomMove(c)
	if err := c.Apply(seat, m, nil); err != nil {
		r.fail("clone refused a legal move: %v", err)
	}
	if !reflect.DeepEqual(before, st) {
		r.fail("a move on a clone changed the original")
	}
}

// checkRefused tries moves that are not legal for a seat and requires each
// to be refused with an error and no change at all.
func (r *runner) checkRefused(st game.State) {
	r.t.Helper()
	before := st.Clone()
	seats := []game.Seat{game.Spectator, game.Seat(st.Players()), game.Seat(r.rng.IntN(st.Players()))}
	for _, seat := range seats {
		var legal []game.Move
		if seat >= 0 && int(seat) < st.Players() {
			legal = st.Legal(seat, nil)
		}
		for k := 0; k < 8; k++ {
			m := r.pool.pick(&r.rng)
			if game.Contains(legal, m) {
				continue
			}
			var log game.Log
			if err := st.Apply(seat, m, &log); err == nil {
				r.fail("seat %d: move %s (%#x) is not in Legal but was applied", seat, r.moveJSON(m), uint64(m))
			} else if err.Error() == "" {
				r.fail("refused move gave an empty error")
			}
			if len(log.Events) > 0 {
				r.fail("refused move logged %d events", len(log.Events))
			}
			if !reflect.DeepEqual(before, st) {
				r.fail("refused move %s by seat %d changed the state", r.moveJSON(m), seat)
			}
		}
	}
}

// checkSample: a sample from seat s looks the same to s as the true state,
// and sampling from either gives the same state for the same generator.
func (r *runner) checkSample(st game.State) {
	r.t.Helper()
	for s := game.Seat(0); int(s) < st.Players(); s++ {
		seed := r.rng.Uint64()
		r1 := game.NewRNG(seed)
		y := st.Sample(s, &r1)
		r.check(y, fmt.Sprintf("sample for seat %d", s))
		r.sameTo(st, y, s)
		r.sameTo(st, y, game.Spectator)
		if !bytes.Equal(dump(st), dump(y)) {
			r.differed++
		}
		r.sampled++
		ra, rb := game.NewRNG(seed+1), game.NewRNG(seed+1)
		if !reflect.DeepEqual(st.Sample(s, &ra), y.Sample(s, &rb)) {
			r.fail("seat %d: Sample depends on what the seat cannot know: two states that look the same to it gave different samples", s)
		}
		r.playOn(y, 12)

		// Reseed is in game.State: every state has it, which the compiler
		// checks.
		re := st.Clone()
		re.Reseed(seed + 2)
		ra, rb = game.NewRNG(seed+3), game.NewRNG(seed+3)
		if !reflect.DeepEqual(st.Sample(s, &ra), re.Sample(s, &rb)) {
			r.fail("seat %d: Sample depends on the state's own random generator (the future nobody knows)", s)
		}
	}
}

// sameTo fails unless a and b look the same to seat s.
func (r *runner) sameTo(a, b game.State, s game.Seat) {
	r.t.Helper()
	va, _ := json.Marshal(a.View(s))
	vb, _ := json.Marshal(b.View(s))
	if !bytes.Equal(va, vb) {
		r.fail("seat %d: the view of a sample differs from the true view:\n true: %s\n sample: %s", s, va, vb)
	}
	if a.ToMove() != b.ToMove() || a.Over() != b.Over() {
		r.fail("seat %d: a sample changed who is to move", s)
	}
	if !reflect.DeepEqual(a.Result(), b.Result()) {
		r.fail("seat %d: a sample changed the scores", s)
	}
	if s != game.Spectator {
		la, lb := a.Legal(s, nil), b.Legal(s, nil)
		if !reflect.DeepEqual(la, lb) {
			r.fail("seat %d: legal moves depend on what the seat cannot know", s)
		}
		r.sameSearch(a, b, s)
	}
}

// sameSearch: the optional search capabilities see no more than seat s.
func (r *runner) sameSearch(a, b game.State, s game.Seat) {
	r.t.Helper()
	if ka, ok := a.(game.Keyer); ok {
		if ka.InfoKey(s) != b.(game.Keyer).InfoKey(s) {
			r.fail("seat %d: InfoKey depends on what the seat cannot know", s)
		}
	}
	if va, ok := a.(game.Valuer); ok {
		vb := b.(game.Valuer)
		if va.Rounds() != vb.Rounds() || va.Rounds() != a.Result().Rounds {
			r.fail("Valuer.Rounds is %d and %d on states that look the same, Result says %d", va.Rounds(), vb.Rounds(), a.Result().Rounds)
		}
		for t := game.Seat(0); int(t) < a.Players(); t++ {
			x, y := va.Value(t), vb.Value(t)
			if x != y || x < 0 || x > 1 || math.IsNaN(x) {
				r.fail("seat %d: Value(%d) is %v and %v on states that look the same; it must be public and in [0, 1]", s, t, x, y)
			}
		}
	}
	if ha, ok := a.(game.Horizon); ok {
		hb := b.(game.Horizon)
		if ha.Turns() != hb.Turns() || ha.Horizon() != hb.Horizon() || ha.TreeDepth() != hb.TreeDepth() {
			r.fail("seat %d: Horizon's Turns, Horizon or TreeDepth differ on states that look the same", s)
		}
		if ha.Horizon() < 0 || ha.TreeDepth() < 0 {
			r.fail("Horizon is %d and TreeDepth %d; neither may be negative", ha.Horizon(), ha.TreeDepth())
		}
	}
}

// playOn plays a sample forward: it must be a real state, not a facade.
func (r *runner) playOn(st game.State, n int) {
	r.t.Helper()
	for i := 0; i < n && !st.Over(); i++ {
		seat, m := r.randomMove(st)
		if ro, ok := st.(game.Roller); ok && i%2 == 0 {
			seat = st.ToMove().First()
			m = ro.RolloutMove(&r.rng, nil)
			if !game.Contains(st.Legal(seat, nil), m) {
				r.fail("RolloutMove %s for seat %d is not among its legal moves", r.moveJSON(m), seat)
			}
		}
		if err := st.Apply(seat, m, nil); err != nil {
			r.fail("a sampled state refused a legal move: %v", err)
		}
		r.check(st, "playing on a sample")
	}
}

func (r *runner) checkJSON(st game.State) {
	r.t.Helper()
	for s := game.Spectator; int(s) < st.Players(); s++ {
		if _, err := json.Marshal(st.View(s)); err != nil {
			r.fail("view of seat %d does not marshal: %v", s, err)
		}
		if s == game.Spectator {
			continue
		}
		for _, m := range st.Legal(s, nil) {
			data, err := r.g.MarshalMove(m)
			if err != nil {
				r.fail("MarshalMove(%#x): %v", uint64(m), err)
			}
			back, err := r.g.UnmarshalMove(data)
			if err != nil || back != m {
				r.fail("move %s does not round-trip: got %#x, %v", data, uint64(back), err)
			}
		}
	}
	if _, err := json.Marshal(st.Dump()); err != nil {
		r.fail("Dump does not marshal: %v", err)
	}
}

func (r *runner) checkOver(st game.State) {
	r.t.Helper()
	if !st.ToMove().Empty() {
		r.fail("game over but ToMove is %v", st.ToMove().List())
	}
	res := st.Result()
	if len(res.Winners) == 0 {
		r.fail("game over with no winner")
	}
	if len(res.Scores) != st.Players() {
		r.fail("result has %d scores for %d players", len(res.Scores), st.Players())
	}
	before := st.Clone()
	for k := 0; k < 8; k++ {
		m := r.pool.pick(&r.rng)
		if err := st.Apply(game.Seat(r.rng.IntN(st.Players())), m, nil); err == nil {
			r.fail("a move was applied after the game ended")
		}
	}
	if !reflect.DeepEqual(before, st) {
		r.fail("a refused move changed a finished game")
	}
}

// checkReplay plays the same seed and moves again: same state, same events.
func (r *runner) checkReplay(final game.State, events [][]byte) {
	r.t.Helper()
	var log game.Log
	c := r.cfg
	c.Log = &log
	st, err := r.g.New(c)
	if err != nil {
		r.fail("New: %v", err)
	}
	for i, h := range r.history {
		if err := st.Apply(h.seat, h.move, &log); err != nil {
			r.fail("replay: move %d refused: %v", i, err)
		}
	}
	if !reflect.DeepEqual(st, final) {
		r.fail("replaying the same seed and moves gave a different state")
	}
	if len(log.Events) != len(events) {
		r.fail("replay gave %d events, first play %d", len(log.Events), len(events))
	}
	for i, e := range log.Events {
		if !bytes.Equal(r.eventJSON(e), events[i]) {
			r.fail("replay: event %d differs", i)
		}
	}
}

func (r *runner) eventJSON(e game.Event) []byte {
	r.t.Helper()
	if e.To == 0 {
		r.fail("an event with no audience: %#v", e.Data)
	}
	data, err := json.Marshal(e.Data)
	if err != nil {
		r.fail("event does not marshal: %v", err)
	}
	var typed struct {
		Type string `json:"type"`
	}
	if json.Unmarshal(data, &typed) != nil || typed.Type == "" {
		r.fail("event %s has no type", data)
	}
	return append(data, byte(e.To), byte(e.To>>8))
}

func (r *runner) moveJSON(m game.Move) string {
	data, err := r.g.MarshalMove(m)
	if err != nil {
		return fmt.Sprintf("%#x", uint64(m))
	}
	return string(data)
}

func dump(st game.State) []byte {
	data, _ := json.Marshal(st.Dump())
	return data
}

// pool keeps moves seen legal somewhere, so that refused-move checks try
// plausible moves (legal for another seat or another moment), not just noise.
type pool struct {
	moves []game.Move
	seen  map[game.Move]bool
}

func newPool() *pool {
	// Noise too: the zero move and bit patterns no game uses.
	return &pool{moves: []game.Move{0, ^game.Move(0), 1 << 62}, seen: map[game.Move]bool{}}
}

func (p *pool) add(m game.Move) {
	if !p.seen[m] && len(p.moves) < 1<<14 {
		p.seen[m] = true
		p.moves = append(p.moves, m)
	}
}

func (p *pool) pick(r *game.RNG) game.Move { return p.moves[r.IntN(len(p.moves))] }
