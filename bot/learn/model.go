// Package learn holds the search's evaluators learned offline by
// self-play: small models that value a position at a search's leaf, so
// that a playout may stop there instead of playing the round out. The
// first is Papayoo's, a linear estimate of the points each seat will still
// take this round from features of the position
// (games/papayoo/features.go); its weights are in papayoo.txt, which
// `tapis train --game papayoo` reproduces from its seed (Train).
package learn

import (
	"bufio"
	_ "embed"
	"fmt"
	"math"
	"strconv"
	"strings"

	"tapis/game"
	"tapis/games/papayoo"
)

// Model is a linear model: its estimate is the dot product of its weights
// with a position's features.
type Model struct {
	// Header is the comment lines the weights file starts with (the
	// command that made it), without their "# ".
	Header  []string
	Weights []float64
}

// Parse reads a weights file: comment lines starting with "#", then one
// weight a line.
func Parse(text string) (*Model, error) {
	m := &Model{}
	sc := bufio.NewScanner(strings.NewReader(text))
	for line := 1; sc.Scan(); line++ {
		t := strings.TrimSpace(sc.Text())
		switch {
		case t == "":
		case strings.HasPrefix(t, "#"):
			m.Header = append(m.Header, strings.TrimSpace(strings.TrimPrefix(t, "#")))
		default:
			w, err := strconv.ParseFloat(t, 64)
			if err != nil || math.IsNaN(w) || math.IsInf(w, 0) {
				return nil, fmt.Errorf("learn: line %d: %q is not a weight", line, t)
			}
			m.Weights = append(m.Weights, w)
		}
	}
	return m, sc.Err()
}

// Format writes the model as Parse reads it, each weight in the shortest
// form that reads back exactly, so that the same weights are the same
// bytes.
func (m *Model) Format() string {
	var b strings.Builder
	for _, h := range m.Header {
		b.WriteString("# " + h + "\n")
	}
	for _, w := range m.Weights {
		b.WriteString(strconv.FormatFloat(w, 'g', -1, 64) + "\n")
	}
	return b.String()
}

// dot is the model's estimate for features f.
func (m *Model) dot(f []float64) float64 {
	v := 0.0
	for i, w := range m.Weights {
		v += float64(w * f[i]) // rounded before the sum, as in Train
	}
	return v
}

//go:embed papayoo.txt
var papayooWeights string

// Papayoo returns the committed Papayoo model (papayoo.txt).
func Papayoo() *Model {
	m, err := Parse(papayooWeights)
	if err != nil || len(m.Weights) != papayoo.FeatureCount {
		panic(fmt.Sprintf("learn: papayoo.txt: %d weights for %d features (%v): run tapis train --game papayoo", len(m.Weights), papayoo.FeatureCount, err))
	}
	return m
}

// Leaf values a Papayoo position for every seat with a model, once a
// playout has played Plies moves: a seat's value is the game's (Value)
// for the points it has taken plus those the model expects it to take.
// It reads only the state it is given, a world the search drew from its
// seat's knowledge, so it is as honest as the playout it cuts short.
// A Leaf holds a buffer: one per search.
type Leaf struct {
	Model *Model
	Plies int
	buf   []float64
}

// DefaultPlies is how many moves a playout plays before a Leaf values it:
// two tricks at 4 players, so that the position is judged after the
// tricks the walk's move most affects.
const DefaultPlies = 8

// For returns the learned leaf evaluator of the game called name, or nil
// when it has none.
func For(name string) *Leaf {
	if name != "papayoo" {
		return nil
	}
	return &Leaf{Model: Papayoo(), Plies: DefaultPlies}
}

// Evaluate sets r to each seat's value in [0, 1] and reports true when the
// playout is to stop here: it has played at least Plies moves and the
// state is a round of Papayoo in its play phase.
func (l *Leaf) Evaluate(st game.State, played int, r *[game.MaxPlayers]float64) bool {
	ps, ok := st.(*papayoo.State)
	if !ok || played < l.Plies {
		return false
	}
	for s := 0; s < ps.Players(); s++ {
		var f []float64
		if f, ok = ps.Features(game.Seat(s), l.buf[:0]); !ok {
			return false
		}
		l.buf = f
		pts := float64(ps.Taken(game.Seat(s))) + max(0, 100*l.Model.dot(f))
		r[s] = max(0, 1-pts/papayoo.ValueScale)
	}
	return true
}
