package learn

import (
	"testing"

	"tapis/game"
	"tapis/games/papayoo"
)

// Training with the committed settings writes the committed file, byte for
// byte: the weights in the repository are the ones `tapis train --game
// papayoo --seed 1` makes.
func TestTrainReproducesCommitted(t *testing.T) {
	if testing.Short() {
		t.Skip("trains the committed model (some seconds)")
	}
	m, err := Train(Committed)
	if err != nil {
		t.Fatal(err)
	}
	if got := m.Format(); got != papayooWeights {
		t.Fatalf("training with %+v does not give papayoo.txt: run tapis train --game papayoo --seed %d --out bot/learn/papayoo.txt\ngot:\n%s", Committed, Committed.Seed, got)
	}
}

// The same settings give the same weights; another seed, others.
func TestTrainIsDeterministic(t *testing.T) {
	a, err := Train(Settings{Seed: 7, Games: 300})
	if err != nil {
		t.Fatal(err)
	}
	b, _ := Train(Settings{Seed: 7, Games: 300})
	c, _ := Train(Settings{Seed: 8, Games: 300})
	if a.Format() != b.Format() {
		t.Fatal("the same seed trained different weights")
	}
	if a.Format() == c.Format() {
		t.Fatal("two seeds trained the same weights")
	}
	back, err := Parse(a.Format())
	if err != nil || back.Format() != a.Format() {
		t.Fatalf("a weights file does not read back as written: %v", err)
	}
}

func TestParseRefusesNonsense(t *testing.T) {
	for _, text := range []string{"0.5\nx\n", "NaN\n", "+Inf\n"} {
		if _, err := Parse(text); err == nil {
			t.Errorf("%q was read as weights", text)
		}
	}
}

// The committed model predicts the points a seat will still take better
// than their mean does, on rounds it did not learn from (another seed):
// its squared error is well under the variance of what it predicts.
func TestModelPredictsPoints(t *testing.T) {
	m := Papayoo()
	rng := game.NewRNG(12345)
	var errSum, sum, sq float64
	n := 0
	var f []float64
	for g := 0; g < 300; g++ {
		st, err := papayoo.NewState(game.Config{Players: 4, Seed: rng.Uint64(), Options: []byte(`{"rounds":1}`)})
		if err != nil {
			t.Fatal(err)
		}
		type row struct {
			pred  float64
			seat  int
			taken int
		}
		var rows []row
		for moves := 0; !st.Over(); moves++ {
			if moves%8 == 0 {
				for s := 0; s < 4; s++ {
					var ok bool
					if f, ok = st.Features(game.Seat(s), f[:0]); ok {
						rows = append(rows, row{100 * m.dot(f), s, st.Taken(game.Seat(s))})
					}
				}
			}
			if err := st.Apply(st.ToMove().First(), st.RolloutMove(&rng, nil), nil); err != nil {
				t.Fatal(err)
			}
		}
		for _, r := range rows {
			y := float64(st.Result().Scores[r.seat] - r.taken)
			errSum += (y - r.pred) * (y - r.pred)
			sum += y
			sq += y * y
			n++
		}
	}
	mse := errSum / float64(n)
	mean := sum / float64(n)
	variance := sq/float64(n) - mean*mean
	t.Logf("%d positions: squared error %.1f, variance %.1f (R² %.2f)", n, mse, variance, 1-mse/variance)
	if mse > 0.7*variance {
		t.Fatalf("the model's squared error %.1f is not well under the variance %.1f: it has learned little", mse, variance)
	}
}

// A Leaf lets a playout run its first Plies moves, values nothing during
// the pass, and then gives every seat a value in [0, 1].
func TestLeafStopsAfterItsPlies(t *testing.T) {
	st, err := papayoo.NewState(game.Config{Players: 4, Seed: 3})
	if err != nil {
		t.Fatal(err)
	}
	l := For("papayoo")
	var r [game.MaxPlayers]float64
	if l.Evaluate(st, 100, &r) {
		t.Fatal("valued a position of the pass")
	}
	rng := game.NewRNG(3)
	for !playing(st) {
		if err := st.Apply(st.ToMove().First(), st.RolloutMove(&rng, nil), nil); err != nil {
			t.Fatal(err)
		}
	}
	if l.Evaluate(st, l.Plies-1, &r) {
		t.Fatal("stopped a playout before its plies")
	}
	if !l.Evaluate(st, l.Plies, &r) {
		t.Fatal("did not stop a playout of the play phase at its plies")
	}
	for s := 0; s < 4; s++ {
		if r[s] < 0 || r[s] > 1 {
			t.Fatalf("seat %d valued %v", s, r[s])
		}
	}
	if For("cabo") != nil {
		t.Fatal("a game without a model has an evaluator")
	}
}

func playing(st *papayoo.State) bool {
	_, ok := st.Features(0, nil)
	return ok
}
