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

// politeToy is the toy game refusing with game.Refusal, as every game must.
type politeToy struct{ toy }

type politeState struct{ *toyState }

func toyRefusal(err error, reason string) error {
	if err == nil {
		return nil
	}
	if _, ok := game.AsRefusal(err); ok {
		return err
	}
	return game.Refuse("toy", "", reason, nil, "%s", strings.TrimPrefix(err.Error(), "toy: "))
}

func (g politeToy) New(c game.Config) (game.State, error) {
	st, err := g.toy.New(c)
	if err != nil {
		return nil, toyRefusal(err, game.ReasonBadPlayers)
	}
	return politeState{st.(*toyState)}, nil
}

func (g politeToy) UnmarshalMove(b []byte) (game.Move, error) {
	m, err := g.toy.UnmarshalMove(b)
	return m, toyRefusal(err, game.ReasonUnreadable)
}

func (st politeState) Apply(s game.Seat, m game.Move, log *game.Log) error {
	return toyRefusal(st.toyState.Apply(s, m, log), game.ReasonNotYourTurn)
}

func failures(g game.Game, reasons []string) []string {
	r := &recorder{TB: &testing.T{}}
	Refusals(r, g, reasons, Configs(2, 4))
	return r.errors
}

// Refusals passes a game whose every refusal is a listed game.Refusal,
// and fails one whose refusals are plain errors or have unlisted reasons.
func TestRefusalsCatchesPlainErrors(t *testing.T) {
	all := []string{game.ReasonBadPlayers, game.ReasonUnreadable, game.ReasonNotYourTurn}
	if errs := failures(politeToy{}, all); len(errs) > 0 {
		t.Fatalf("a game refusing with listed reasons fails: %q", errs)
	}
	for _, c := range []struct {
		g       game.Game
		reasons []string
		want    string
	}{
		{toy{}, all, "is not a game.Refusal"},
		{politeToy{}, all[:2], `reason "not_your_turn", not in the game's list`},
		{politeToy{}, append(all, "Bad Reason"), `reason "Bad Reason" is not snake_case`},
		{politeToy{}, append(all, all[0]), "is listed twice"},
	} {
		errs := failures(c.g, c.reasons)
		if len(errs) == 0 || !strings.Contains(strings.Join(errs, "\n"), c.want) {
			t.Errorf("reasons %q: failures %q, want one saying %q", c.reasons, errs, c.want)
		}
	}
}
