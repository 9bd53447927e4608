// Package analysis judges the decisions people made in a finished match,
// and gives the coach's hints during one. A match is replayed move by move
// through its engine; at each decision of a person (a human seat with
// more than one legal move) the moves are valued by a search from that
// seat's knowledge only (game.KnowledgeOf: its view, its legal moves, and
// states drawn from what it was told), never from the cards it could not
// see: a move is judged against what the player could have known, not
// against the deal revealed afterwards.
//
// A move's value is the seat's win chance after it, from 0 to 1 (the
// games' own measure of a position, game.Valuer, or the game's result),
// estimated by bot.Assess; its cost is how far it falls short of the best
// move found. Costs are marked (an inaccuracy, a mistake, a blunder) and
// summed up per player as an accuracy from 0 to 100.
//
// The work is bounded: a decision is valued with a fixed number of
// playouts (Budget), at most MaxCandidates moves of it are compared, and
// at most MaxDecisions decisions of a match are judged. Worker computes
// each finished match's analysis once, in the bot pool at low priority,
// and keeps it in the store.
package analysis

import (
	"encoding/json"
	"errors"
	"fmt"
	"math"

	"tapis/bot"
	"tapis/game"
	"tapis/store"
)

// The marks of a decision, by its cost in win chance (0 to 1). The
// thresholds stand well above the estimates' noise at the default budget
// (a few points of win chance between two samples of one decision), so
// that a move is not called a mistake by luck of the draw.
const (
	// MarkInaccuracy: the move costs at least InaccuracyCost.
	MarkInaccuracy = "inaccuracy"
	// MarkMistake: the move costs at least MistakeCost.
	MarkMistake = "mistake"
	// MarkBlunder: the move costs at least BlunderCost.
	MarkBlunder = "blunder"
)

// The costs at which a decision is marked.
const (
	InaccuracyCost = 0.05
	MistakeCost    = 0.10
	BlunderCost    = 0.20
)

// Limits on the work of one analysis.
const (
	// MaxDecisions is the most decisions of a match judged; the rest are
	// left out and the report says so (Truncated).
	MaxDecisions = 400
	// MaxCandidates is the most moves of one decision compared: the move
	// played and, when there are more legal moves than that, a draw of
	// the others.
	MaxCandidates = 24
	// MinSamples and MaxSamples bound the drawn states a decision's
	// moves are each played on.
	MinSamples = 12
	MaxSamples = 96
	// pieceWork is about how many playouts one piece of a decision's
	// search runs in the pool at once (a few milliseconds).
	pieceWork = 160
)

// Budget is the playouts a decision is given at a table of players
// seats, shared among its candidate moves: the hard level's iterations
// a move in g there, which the search spends on one decision too (fewer
// above the game's HardSeats, as a playout costs more there).
func Budget(g game.Game, players int) int {
	n, _ := bot.LevelBudget(g, "hard")
	if hs := bot.Budgets(g).HardSeats; hs > 0 && players > hs {
		n = n * hs / players
	}
	return max(n, MinSamples*2)
}

// Decision is one judged move of a person.
type Decision struct {
	// N is the position the move reached, numbered as the history's
	// steps are (from 1).
	N    int       `json:"n"`
	Seat game.Seat `json:"seat"`
	// Value is the move's estimated win chance, Best the best found
	// among the candidates, Cost their difference (0 when the move
	// played is the best).
	Value float64 `json:"value"`
	Best  float64 `json:"best"`
	Cost  float64 `json:"cost"`
	// BestMove is the best move found, in REPLAY.md's JSON, when it is
	// not the move played.
	BestMove json.RawMessage `json:"best_move,omitempty"`
	// Mark is "", MarkInaccuracy, MarkMistake or MarkBlunder.
	Mark string `json:"mark,omitempty"`
	// Options is how many moves were legal.
	Options int `json:"options"`
}

// Player sums up one person's decisions.
type Player struct {
	Seat      game.Seat `json:"seat"`
	Decisions int       `json:"decisions"`
	// Accuracy is from 0 to 100: the mean of each decision's accuracy
	// (AccuracyOf its cost).
	Accuracy     float64 `json:"accuracy"`
	Inaccuracies int     `json:"inaccuracies"`
	Mistakes     int     `json:"mistakes"`
	Blunders     int     `json:"blunders"`
	// Cost is the total of the decisions' costs, in win chance.
	Cost float64 `json:"cost"`
}

// Report is the analysis of one finished match.
type Report struct {
	// Status is "ready" (the history answers "pending" while a match
	// waits to be analysed).
	Status string `json:"status"`
	Table  string `json:"table"`
	Match  int    `json:"match"`
	Game   string `json:"game"`
	// Measure names what values are: "win_chance", from 0 to 1.
	Measure string `json:"measure"`
	// Players are the people's summaries, by seat; a bot's seat has none.
	Players []Player `json:"players"`
	// Moves are the judged decisions, in the match's order.
	Moves []Decision `json:"moves"`
	// Truncated: the match had more than MaxDecisions decisions of
	// people, and only the first were judged.
	Truncated bool `json:"truncated,omitempty"`
}

// AccuracyOf is a decision's accuracy, from 100 (the best move) down to 0,
// from its cost in win chance: the curve Lichess fits to win-percentage
// loss (103.1668·e^(−0.04354·loss) − 3.1669, the loss in points of 100),
// so that small slips cost little and a blunder nearly everything.
func AccuracyOf(cost float64) float64 {
	a := 103.1668*math.Exp(-0.04354*cost*100) - 3.1669
	return math.Max(0, math.Min(100, a))
}

// MarkOf is the mark of a decision costing cost.
func MarkOf(cost float64) string {
	switch {
	case cost >= BlunderCost:
		return MarkBlunder
	case cost >= MistakeCost:
		return MarkMistake
	case cost >= InaccuracyCost:
		return MarkInaccuracy
	}
	return ""
}

// Analyzer judges matches.
type Analyzer struct {
	// Playouts is each decision's budget (0: Budget of the game and
	// table size).
	Playouts int
	// Think runs one piece of a decision's search (pieceWork playouts or
	// so), and reports false if it could not (the host stopping): Worker
	// runs it in the bot pool. Nil runs it at once.
	Think func(search func()) bool
	// Yield is passed to the search (bot.Assess).
	Yield func()

	// know is the knowledge a decision is judged from: the seat's
	// knowledge of the true state. The honesty test replaces it.
	know func(st game.State, s game.Seat) game.Knowledge
}

// ErrStopped is Analyze's error when Think refused to run a search.
var ErrStopped = errors.New("analysis: stopped")

// Analyze judges every decision of the people (the seats without a bot)
// in the finished match sv of game g.
func (a *Analyzer) Analyze(g game.Game, sv store.Saved) (Report, error) {
	if sv.Match == nil {
		return Report{}, errors.New("analysis: no match")
	}
	rep := Report{Status: "ready", Table: sv.ID, Match: sv.Match.No, Game: g.Name(), Measure: "win_chance", Players: []Player{}, Moves: []Decision{}}
	st, err := g.New(game.Config{Players: sv.Players, Options: sv.Options, Seed: sv.Match.Seed})
	if err != nil {
		return rep, fmt.Errorf("analysis: deal: %v", err)
	}
	person := make([]bool, sv.Players)
	for s, se := range sv.Seats {
		if s < len(person) && se.Bot == "" {
			person[s] = true
		}
	}
	know := a.know
	if know == nil {
		know = game.KnowledgeOf
	}
	playouts := a.Playouts
	if playouts <= 0 {
		playouts = Budget(g, sv.Players)
	}
	var legal, cands []game.Move
	var vals []float64
	for i, mv := range sv.Match.Moves {
		if mv.Seat < 0 || mv.Seat >= sv.Players {
			return rep, fmt.Errorf("analysis: move %d is by seat %d", i, mv.Seat)
		}
		s := game.Seat(mv.Seat)
		m, err := g.UnmarshalMove(mv.Move)
		if err != nil {
			return rep, fmt.Errorf("analysis: move %d: %v", i, err)
		}
		legal = st.Legal(s, legal[:0])
		if person[s] && len(legal) > 1 && game.Contains(legal, m) {
			if len(rep.Moves) >= MaxDecisions {
				rep.Truncated = true
			} else {
				k := know(st, s)
				seed := sv.Match.Seed ^ uint64(i+1)*0x9e3779b97f4a7c15
				cands = candidates(cands[:0], legal, m, seed)
				// First every candidate on the same samples, to find the
				// best; then the best and the move played again, on as
				// many samples as the budget gives two moves, new ones:
				// the best of many noisy estimates is flattered by its
				// noise, and the fresh samples do not share it.
				samples := min(MaxSamples, max(MinSamples, playouts/len(cands)))
				var ok bool
				if vals, ok = a.assess(k, cands, 0, samples, seed, vals); !ok {
					return rep, ErrStopped
				}
				best := 0
				for j, v := range vals {
					if v > vals[best] {
						best = j
					}
				}
				d := Decision{N: i + 1, Seat: s, Options: len(legal)}
				d.Value, d.Best = vals[0], vals[0]
				if best != 0 {
					pair := []game.Move{m, cands[best]}
					again := max(samples, playouts/2)
					if vals, ok = a.assess(k, pair, samples, samples+again, seed, vals); !ok {
						return rep, ErrStopped
					}
					d.Value, d.Best = vals[0], max(vals[0], vals[1])
					if vals[1] > vals[0] {
						if b, err := g.MarshalMove(cands[best]); err == nil {
							d.BestMove = b
						}
					}
				}
				d.Value, d.Best = round(d.Value), round(d.Best)
				d.Cost = round(d.Best - d.Value)
				d.Mark = MarkOf(d.Cost)
				rep.Moves = append(rep.Moves, d)
			}
		}
		if err := st.Apply(s, m, nil); err != nil {
			return rep, fmt.Errorf("analysis: move %d: %v", i, err)
		}
	}
	if !st.Over() {
		return rep, errors.New("analysis: the match's moves do not end the game")
	}
	rep.Players = summarize(person, rep.Moves)
	return rep, nil
}

// assess values moves on samples from to to of a decision's (seeded by
// seed), into vals, in pieces of about pieceWork playouts, each run by
// Think in a place of the pool of its own, so that a bot that asks for the
// place waits for one piece at most; false if Think refused one.
func (a *Analyzer) assess(k game.Knowledge, moves []game.Move, from, to int, seed uint64, vals []float64) ([]float64, bool) {
	vals = append(vals[:0], make([]float64, len(moves))...)
	step := max(1, pieceWork/len(moves))
	for at := from; at < to; at += step {
		run := func() { bot.AssessSum(k, moves, at, min(to, at+step), seed, a.Yield, vals) }
		if a.Think == nil {
			run()
		} else if !a.Think(run) {
			return vals, false
		}
	}
	for j := range vals {
		vals[j] /= float64(to - from)
	}
	return vals, true
}

// round keeps four decimals: the estimates are not finer, and the stored
// report stays small.
func round(v float64) float64 { return math.Round(v*1e4) / 1e4 }

// candidates appends to buf the moves of a decision to compare: the move
// played first, then the other legal moves, or a draw of MaxCandidates-1
// of them (from seed) when there are more.
func candidates(buf, legal []game.Move, played game.Move, seed uint64) []game.Move {
	buf = append(buf, played)
	others := len(legal) - 1
	if others <= MaxCandidates-1 {
		for _, m := range legal {
			if m != played {
				buf = append(buf, m)
			}
		}
		return buf
	}
	// A partial Fisher–Yates shuffle of the others' indexes.
	idx := make([]int, 0, len(legal))
	for i, m := range legal {
		if m != played {
			idx = append(idx, i)
		}
	}
	r := game.NewRNG(seed)
	for i := 0; i < MaxCandidates-1; i++ {
		j := i + r.IntN(len(idx)-i)
		idx[i], idx[j] = idx[j], idx[i]
		buf = append(buf, legal[idx[i]])
	}
	return buf
}

// summarize sums up the decisions of each person.
func summarize(person []bool, ds []Decision) []Player {
	ps := []Player{}
	for s, is := range person {
		if !is {
			continue
		}
		p := Player{Seat: game.Seat(s), Accuracy: 100}
		acc := 0.0
		for _, d := range ds {
			if d.Seat != p.Seat {
				continue
			}
			p.Decisions++
			p.Cost += d.Cost
			acc += AccuracyOf(d.Cost)
			switch d.Mark {
			case MarkInaccuracy:
				p.Inaccuracies++
			case MarkMistake:
				p.Mistakes++
			case MarkBlunder:
				p.Blunders++
			}
		}
		if p.Decisions > 0 {
			p.Accuracy = math.Round(acc/float64(p.Decisions)*10) / 10
		}
		p.Cost = round(p.Cost)
		ps = append(ps, p)
	}
	return ps
}
