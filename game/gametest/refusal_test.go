package gametest

import (
	"fmt"
	"strings"
	"testing"

	"tapis/game"
)

// recorder is a testing.TB that keeps the failures instead of failing.
type recorder struct {
	testing.TB
	errors []string
}

func (r *recorder) Errorf(format string, a ...any) {
	r.errors = append(r.errors, fmt.Sprintf(format, a...))
}
func (r *recorder) Logf(string, ...any) {}
func (r *recorder) Helper()             {}

func failures(g game.Game, reasons []string) []string {
	r := &recorder{TB: &testing.T{}}
	Refusals(r, g, reasons, Configs(2, 4))
	return r.errors
}

// Refusals passes a game whose every refusal is a listed game.Refusal,
// and fails one whose refusals are plain errors or have unlisted reasons.
func TestRefusalsCatchesPlainErrors(t *testing.T) {
	all := []string{game.ReasonBadPlayers, game.ReasonUnreadable, game.ReasonNotYourTurn, game.ReasonBadOptions, game.ReasonBadMove}
	if errs := failures(Toy{}, all); len(errs) > 0 {
		t.Fatalf("a game refusing with listed reasons fails: %q", errs)
	}
	for _, c := range []struct {
		g       game.Game
		reasons []string
		want    string
	}{
		{Toy{Bug: "plain"}, all, "is not a game.Refusal"},
		{Toy{}, all[:2], `reason "not_your_turn", not in the game's list`},
		{Toy{}, append(all, "Bad Reason"), `reason "Bad Reason" is not snake_case`},
		{Toy{}, append(all, all[0]), "is listed twice"},
	} {
		errs := failures(c.g, c.reasons)
		if len(errs) == 0 || !strings.Contains(strings.Join(errs, "\n"), c.want) {
			t.Errorf("reasons %q: failures %q, want one saying %q", c.reasons, errs, c.want)
		}
	}
}
