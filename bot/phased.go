package bot

import (
	"fmt"
	"strconv"
	"strings"

	"tapis/game"
)

// Phased plays two bots for one seat, for measurement: Early where the
// game says a search may not yet determinize the seat's choice
// (game.Determinable says no: Papayoo's pass) and at the seat's first
// From choices after it (in Papayoo, its first From tricks), Late
// everywhere else (the play of cards). Swapping one part for the cheating
// bot, or for the heuristic, tells which part of a round holds the points
// an honest bot loses to the cheat (docs/bots.md, Where Papayoo's gap
// lies). It is named by a level with +Lpass (hard+cheatpass: the cheat at
// the pass, hard at the play; cheat+hardpass: the reverse; hard+easypass)
// or +LN (cheat+hard5: hard at the pass and the first 5 tricks).
//
// A Phased bot with a cheating part is a cheater (game.Cheater): it is
// given the true state, and hands its honest part only that state's
// knowledge for its seat (game.KnowledgeOf), so the honest part still
// decides from its seat's knowledge alone. No table seats one.
type Phased struct {
	Early, Late game.Player
	From        int

	played int // choices since the last undeterminable one
}

// Observe implements game.Player: both parts are told every event, so
// that each keeps the memory it would keep alone.
func (p *Phased) Observe(e game.Event) {
	p.Early.Observe(e)
	p.Late.Observe(e)
}

// Cheats implements game.Cheater: the bot must be given the true state
// when either part cheats.
func (p *Phased) Cheats() bool { return cheats(p.Early) || cheats(p.Late) }

func cheats(pl game.Player) bool {
	c, ok := pl.(game.Cheater)
	return ok && c.Cheats()
}

// Choose implements game.Player.
func (p *Phased) Choose(k game.Knowledge) game.Move {
	// One sample tells the phase: a Determinable judges from the seat's
	// knowledge alone. A fixed generator leaves the parts' draws alone.
	r := game.NewRNG(1)
	st := k.Sample(&r)
	part := p.Late
	if d, ok := st.(game.Determinable); ok && !d.Determinable(k.Seat()) {
		part, p.played = p.Early, 0
	} else {
		if p.played < p.From {
			part = p.Early
		}
		p.played++
	}
	if p.Cheats() && !cheats(part) {
		// k is omniscient, so st is the true state: the honest part gets
		// what its seat knows of it, nothing more.
		k = game.KnowledgeOf(st, k.Seat())
	}
	return part.Choose(k)
}

// phasedSuffix is the +Lpass ending of a Phased bot's name.
const phasedSuffix = "pass"

// newPhased makes the Phased bot named head+Lpass or head+LN, with a
// budget for both (hard+cheatpass@2000) or for the early part alone
// (hard+hard@5000pass), or reports false when name is not one.
func newPhased(g game.Game, name string, s game.Seat, seed uint64) (game.Player, bool, error) {
	head, tail, ok := strings.Cut(name, "+")
	if !ok || strings.Contains(tail, "+") {
		return nil, false, nil
	}
	budget := ""
	if j := strings.LastIndex(tail, "@"); j >= 0 && !strings.HasSuffix(tail, phasedSuffix) {
		budget, tail = tail[j+1:], tail[:j]
	}
	from := 0
	early, ok := strings.CutSuffix(tail, phasedSuffix)
	if !ok {
		i := strings.LastIndexFunc(tail, func(r rune) bool { return r < '0' || r > '9' })
		n, err := strconv.Atoi(tail[i+1:])
		if err != nil {
			return nil, false, nil
		}
		early, from = tail[:i+1], n
	}
	level, own, hasOwn := strings.Cut(early, "@")
	if head == "" || level == "" {
		return nil, true, fmt.Errorf("bot: %q: +Lpass and +LN take two bots (hard+cheatpass)", name)
	}
	with := func(level, budget string) string {
		if budget != "" && level != "easy" && level != "heuristic" && level != "random" {
			return level + "@" + budget
		}
		return level
	}
	if !hasOwn {
		own = budget
	}
	late, err := New(g, with(head, budget), s, seed)
	if err != nil {
		return nil, true, err
	}
	first, err := New(g, with(level, own), s, seed)
	if err != nil {
		return nil, true, err
	}
	return &Phased{Early: first, Late: late, From: from}, true, nil
}
