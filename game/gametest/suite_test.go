package gametest

import (
	"os"
	"os/exec"
	"strings"
	"testing"
)

// The suite passes a sound game.
func TestSoundToyPasses(t *testing.T) {
	Run(t, Toy{}, Configs(2, 4))
	Property(t, Toy{}, Configs(2, 4))
}

// TestToyWithBug runs the suite on a planted defect; it is meant to fail,
// and runs only as the child process of TestSuiteCatchesBugs.
func TestToyWithBug(t *testing.T) {
	bug := os.Getenv("GAMETEST_BUG")
	if bug == "" {
		t.Skip("run by TestSuiteCatchesBugs")
	}
	Run(t, Toy{Bug: bug}, Configs(2, 4))
}

// Each planted defect makes the suite fail, with a message naming it.
func TestSuiteCatchesBugs(t *testing.T) {
	for bug, want := range map[string]string{
		"copy":    "Sample changed the hidden state",
		"rng":     "random generator",
		"mutate":  "changed the state",
		"legal":   "refused",
		"view":    "the view of a sample differs",
		"key":     "InfoKey depends on what the seat cannot know",
		"value":   "it must be public",
		"horizon": "Horizon's Turns",
		"rollout": "RolloutMove",
	} {
		t.Run(bug, func(t *testing.T) {
			cmd := exec.Command(os.Args[0], "-test.run=^TestToyWithBug$", "-test.v")
			cmd.Env = append(os.Environ(), "GAMETEST_BUG="+bug)
			out, err := cmd.CombinedOutput()
			if err == nil {
				t.Fatalf("the suite passed a game with bug %q", bug)
			}
			if !strings.Contains(string(out), want) {
				t.Fatalf("bug %q: the failure does not mention %q:\n%s", bug, want, out)
			}
		})
	}
}
