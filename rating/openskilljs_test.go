package rating

import (
	"encoding/json"
	"math"
	"os"
	"testing"
)

// TestAgainstOpenSkillJS checks Update against numbers made by another
// implementation of the same paper, openskill.js (npm "openskill"), for the
// cases openskill.py's published test data does not hold: eight players,
// with and without ties, and ties between players of different ratings.
// openskill.js counts ties the paper's way (openskill.py 6 does not: see
// vectors_test.go). testdata/openskilljs.js made testdata/openskilljs.json;
// its "source" says with which version.
func TestAgainstOpenSkillJS(t *testing.T) {
	b, err := os.ReadFile("testdata/openskilljs.json")
	if err != nil {
		t.Fatal(err)
	}
	var data struct {
		Source string
		Cases  []struct {
			Name   string
			Before []Rating
			Rank   []int
			After  []Rating
		}
	}
	if err := json.Unmarshal(b, &data); err != nil {
		t.Fatal(err)
	}
	if len(data.Cases) < 6 {
		t.Fatalf("%d cases read", len(data.Cases))
	}
	for _, c := range data.Cases {
		t.Run(c.Name, func(t *testing.T) {
			ranks := make([]int, len(c.Rank))
			for i, r := range c.Rank {
				ranks[i] = r - 1 // openskill.js ranks from 1
			}
			got, err := Update(c.Before, ranks)
			if err != nil {
				t.Fatal(err)
			}
			for i := range got {
				if math.Abs(got[i].Mu-c.After[i].Mu) > 1e-9 || math.Abs(got[i].Sigma-c.After[i].Sigma) > 1e-9 {
					t.Errorf("player %d: got μ %.12f σ %.12f, openskill.js μ %.12f σ %.12f", i, got[i].Mu, got[i].Sigma, c.After[i].Mu, c.After[i].Sigma)
				}
			}
		})
	}
}
