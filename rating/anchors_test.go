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
