package rating

import "testing"

// Every game has an anchor for every level, and PlaysLike names the level
// whose anchor is nearest.
func TestAnchors(t *testing.T) {
	for _, g := range []string{"cabo", "papayoo", "limits", "dacapo"} {
		for _, l := range Levels {
			a, ok := Anchor(g, l)
			if !ok || a.Sigma != AnchorSigma {
				t.Fatalf("%s %s: %+v %v", g, l, a, ok)
			}
			if got := PlaysLike(g, Rating{Mu: a.Mu + 0.01, Sigma: 5}); got != l {
				t.Errorf("%s: a player at %s's mean plays like %s", g, l, got)
			}
		}
	}
	if _, ok := Anchor("chess", "easy"); ok || PlaysLike("chess", New()) != "" {
		t.Fatal("an unknown game has anchors")
	}
}

// A new player's estimate is 2028 and their rating 1500; a bot's estimate
// is its number, a player's meets their rating as Sigma comes down to
// an anchor's; in every game the random bot's number is clearly below a
// new player's estimate (issue 27: random below a newcomer).
func TestEstimate(t *testing.T) {
	if n := New(); n.Display() != 1500 || n.Estimate() != 2028 {
		t.Fatalf("a new player: rating %d, estimate %d", n.Display(), n.Estimate())
	}
	for _, g := range []string{"cabo", "papayoo", "limits", "dacapo"} {
		for _, l := range Levels {
			a, _ := Anchor(g, l)
			if a.Estimate() != a.Display() {
				t.Errorf("%s %s: estimate %d, number %d", g, l, a.Estimate(), a.Display())
			}
		}
		if r, _ := Anchor(g, "random"); r.Display() > New().Estimate()-100 {
			t.Errorf("%s: the random bot's %d is not clearly below a new player's estimate %d", g, r.Display(), New().Estimate())
		}
	}
	if p := (Rating{Mu: 30, Sigma: AnchorSigma}); p.Display() != p.Estimate() {
		t.Errorf("as sure as a bot, a player's rating %d and estimate %d differ", p.Display(), p.Estimate())
	}
}
