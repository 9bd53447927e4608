package gametest

import (
	"encoding/json"
	"fmt"
	"maps"
	"regexp"
	"slices"
	"sort"
	"testing"

	"tapis/game"
)

// snake is the form of a reason: lower-case words joined by underscores.
var snake = regexp.MustCompile(`^[a-z][a-z0-9]*(_[a-z0-9]+)*$`)

// Refusals checks that g refuses in words a client can translate: every
// move Apply refuses, every input UnmarshalMove cannot read and every
// config New cannot start must give a *game.Refusal of game g whose
// reason is one of reasons (the game's list, snake_case, each once).
//
// The moves come from random games of each config: at reachable states
// (every phase the games pass through), each seat (and seats that are not
// at the table) sends every legal move of the other seats, moves seen in
// other states and codes no game uses; once a game is over, moves seen
// during it. The inputs are each legal move's JSON with a field dropped,
// added, out of range or of the wrong type, and plain junk. The configs
// have too few or too many players, options out of their bounds, and
// stacks that cannot be dealt.
//
// Failures are reported with t.Errorf, never t.Fatalf, so that a wrapper
// of t can count them.
func Refusals(t testing.TB, g game.Game, reasons []string, cfgs []game.Config) {
	t.Helper()
	c := &refusals{t: t, g: g, listed: map[string]bool{}, seen: map[string]int{}, pool: newPool()}
	for _, r := range reasons {
		if !snake.MatchString(r) {
			t.Errorf("%s: reason %q is not snake_case", g.Name(), r)
		}
		if c.listed[r] {
			t.Errorf("%s: reason %q is listed twice", g.Name(), r)
		}
		c.listed[r] = true
	}
	c.rng = game.NewRNG(0x5eed)
	c.configs(cfgs)
	games := 8
	if testing.Short() {
		games = 3
	}
	for _, cfg := range cfgs {
		for i := 0; i < games && c.failures < 20; i++ {
			cfg.Seed = uint64(1000*cfg.Players + i)
			c.play(cfg)
		}
	}
	var seen []string
	for r, n := range c.seen {
		seen = append(seen, fmt.Sprintf("%s %d", r, n))
	}
	sort.Strings(seen)
	t.Logf("%s: %d refusals checked, by reason: %v", g.Name(), c.checked, seen)
}

// refusals is one run of Refusals.
type refusals struct {
	t        testing.TB
	g        game.Game
	listed   map[string]bool
	seen     map[string]int // reason → times given
	pool     *pool
	rng      game.RNG
	buf      []game.Move
	checked  int
	failures int
}

// refused checks err, the answer to what (for the failure's words).
func (c *refusals) refused(err error, what func() string) {
	c.t.Helper()
	if err == nil || c.failures >= 20 {
		return
	}
	c.checked++
	r, ok := game.AsRefusal(err)
	switch {
	case !ok:
		c.failf("%s: %q is not a game.Refusal", what(), err)
	case r.Game != c.g.Name():
		c.failf("%s: %q is refused by game %q, not %q", what(), err, r.Game, c.g.Name())
	case !c.listed[r.Reason]:
		c.failf("%s: %q has reason %q, not in the game's list", what(), err, r.Reason)
	default:
		c.seen[r.Reason]++
	}
}

func (c *refusals) failf(format string, a ...any) {
	c.t.Helper()
	c.failures++
	c.t.Errorf("%s: "+format, append([]any{c.g.Name()}, a...)...)
}

// configs checks New's refusals.
func (c *refusals) configs(cfgs []game.Config) {
	c.t.Helper()
	lo, hi := c.g.Players()
	try := func(cfg game.Config) {
		c.t.Helper()
		_, err := c.g.New(cfg)
		c.refused(err, func() string {
			return fmt.Sprintf("New(players %d, options %s, stacks %s)", cfg.Players, cfg.Options, cfg.Stacks)
		})
	}
	for _, n := range []int{-1, 0, lo - 1, hi + 1, 99} {
		try(game.Config{Players: n})
	}
	raws := []string{`{"zzz":1}`, `[]`, `1`, `"x"`, `{`, `{} {}`}
	for _, o := range c.g.Options() {
		for _, v := range []string{`-1`, `"x"`, `true`, `1.5`, `[]`, fmt.Sprint(o.Min - 1), fmt.Sprint(o.Max + 1), `1000000`} {
			raws = append(raws, fmt.Sprintf(`{%q:%s}`, o.Name, v))
		}
	}
	stacks := []string{`{"zzz":1}`, `[]`, `"x"`, `1`, `{"hands":[[]]}`, `{"hands":[["x"]]}`, `{"hands":[[1,1,1,1,1,1]]}`}
	for _, cfg := range cfgs {
		for _, raw := range raws {
			try(game.Config{Players: cfg.Players, Options: json.RawMessage(raw)})
		}
		for _, raw := range stacks {
			try(game.Config{Players: cfg.Players, Options: cfg.Options, Stacks: []json.RawMessage{json.RawMessage(raw)}})
			many := slices.Repeat([]json.RawMessage{json.RawMessage(`{}`)}, 3)
			try(game.Config{Players: cfg.Players, Options: cfg.Options, Stacks: append(many, json.RawMessage(raw))})
		}
	}
}

// play plays one random game and sends refused moves along the way.
func (c *refusals) play(cfg game.Config) {
	c.t.Helper()
	st, err := c.g.New(cfg)
	if err != nil {
		c.failf("New: %v", err)
		return
	}
	var played []game.Move
	for steps := 0; !st.Over() && steps < 20000 && c.failures < 20; steps++ {
		if c.rng.IntN(3) == 0 && !c.moves(st) {
			return
		}
		seats := st.ToMove().List()
		seat := seats[c.rng.IntN(len(seats))]
		c.buf = st.Legal(seat, c.buf[:0])
		if len(c.buf) == 0 {
			c.failf("seat %d is to move with no legal move", seat)
			return
		}
		m := c.buf[c.rng.IntN(len(c.buf))]
		if c.rng.IntN(4) == 0 {
			c.inputs(m)
		}
		if err := st.Apply(seat, m, nil); err != nil {
			c.failf("legal move refused: %v", err)
			return
		}
		played = append(played, m)
	}
	// Over: every move is refused.
	for k := 0; k < 20 && k < len(played); k++ {
		m := played[c.rng.IntN(len(played))]
		s := game.Seat(c.rng.IntN(st.Players()))
		c.refused(st.Apply(s, m, nil), func() string { return fmt.Sprintf("seat %d, game over: move %#x", s, uint64(m)) })
	}
}

// moves sends moves that Legal does not give each seat, and reports
// whether the state is still the one to play on (no move was accepted).
func (c *refusals) moves(st game.State) bool {
	c.t.Helper()
	n := st.Players()
	legal := make([][]game.Move, n)
	for s := range legal {
		legal[s] = st.Legal(game.Seat(s), nil)
		for _, m := range legal[s] {
			c.pool.add(m)
		}
	}
	for s := game.Seat(-1); int(s) <= n; s++ {
		var own []game.Move
		if s >= 0 && int(s) < n {
			own = legal[s]
		}
		var try []game.Move
		for o := range legal {
			if game.Seat(o) != s {
				try = append(try, legal[o]...)
			}
		}
		for k := 0; k < 12; k++ {
			try = append(try, c.pool.pick(&c.rng))
		}
		// Codes near the legal ones: an index or a field out of range.
		for k := 0; k < 8; k++ {
			try = append(try, c.pool.pick(&c.rng)^1<<c.rng.IntN(48))
		}
		for _, m := range try {
			if game.Contains(own, m) {
				continue
			}
			err := st.Apply(s, m, nil)
			if err == nil {
				c.failf("seat %d: move %#x is not in Legal but was applied", s, uint64(m))
				return false
			}
			c.refused(err, func() string { return fmt.Sprintf("seat %d: move %#x", s, uint64(m)) })
		}
	}
	return true
}

// inputs sends UnmarshalMove m's JSON spoiled in every way it knows.
func (c *refusals) inputs(m game.Move) {
	c.t.Helper()
	data, err := c.g.MarshalMove(m)
	if err != nil {
		c.failf("MarshalMove(%#x): %v", uint64(m), err)
		return
	}
	inputs := []string{``, `{`, `null`, `[]`, `1`, `"x"`, `{"type":"zz"}`, `{"type":1}`, string(data) + ` x`}
	// REPLAY.md's moves are objects; a game whose moves are not gets only
	// the junk.
	var fields map[string]any
	_ = json.Unmarshal(data, &fields)
	spoil := func(k string, v any) {
		f := maps.Clone(fields)
		if v == nil {
			delete(f, k)
		} else {
			f[k] = v
		}
		b, _ := json.Marshal(f)
		inputs = append(inputs, string(b))
	}
	if fields != nil {
		spoil("zzz", 1)
	}
	for k, v := range fields {
		spoil(k, nil)
		for _, bad := range []any{-1, 1000, "zz", true, []any{}, map[string]any{}, 1.5} {
			spoil(k, bad)
		}
		if a, ok := v.([]any); ok && len(a) > 0 {
			spoil(k, append(slices.Clone(a), a[0]))
			spoil(k, append(slices.Clone(a), a...))
		}
		if o, ok := v.(map[string]any); ok {
			for ik := range o {
				for _, bad := range []any{-1, 1000, "zz"} {
					in := maps.Clone(o)
					in[ik] = bad
					spoil(k, in)
				}
			}
		}
	}
	for _, in := range inputs {
		_, err := c.g.UnmarshalMove([]byte(in))
		c.refused(err, func() string { return fmt.Sprintf("UnmarshalMove(%s)", in) })
	}
}
