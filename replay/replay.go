// Package replay plays scripted games: the `tapis replay` format of
// REPLAY.md. A script is (game, players, options, seed, stacked rounds,
// moves); its output is the game's state after the moves, with every
// refused move listed.
//
// The output's "state" shows every hidden card: a script holds the seed,
// so its reader can know everything anyway. Never feed a live table's
// unfinished game to it on behalf of a player.
package replay

import (
	"encoding/json"
	"fmt"
	"io"

	"tapis/game"
)

// Script is a scripted game.
type Script struct {
	Game    string            `json:"game"`
	Players int               `json:"players"`
	Options json.RawMessage   `json:"options,omitempty"`
	Seed    uint64            `json:"seed"`
	Rounds  []json.RawMessage `json:"rounds,omitempty"`
	Moves   []Step            `json:"moves"`
}

// Step is one move of a script: a seat and the move's JSON.
type Step struct {
	Seat game.Seat       `json:"seat"`
	Move json.RawMessage `json:"move"`
	// bad says why the script's "seat" is no seat number (missing, not an
	// integer), so that Run refuses the move instead of playing it for
	// seat 0; REPLAY.md has a bad seat refused like an illegal move, not
	// the whole script.
	bad string
}

// UnmarshalJSON implements json.Unmarshaler: "seat" must be there and be
// an integer; anything else is kept to be refused by Run.
func (st *Step) UnmarshalJSON(data []byte) error {
	var raw struct {
		Seat json.RawMessage `json:"seat"`
		Move json.RawMessage `json:"move"`
	}
	if err := game.DecodeStrict(data, &raw); err != nil {
		return err
	}
	*st = Step{Move: raw.Move}
	var n int
	switch {
	case len(raw.Seat) == 0 || string(raw.Seat) == "null":
		st.bad = `the move has no "seat"`
	case json.Unmarshal(raw.Seat, &n) != nil:
		st.bad = fmt.Sprintf("seat %s is not a seat number", raw.Seat)
	default:
		st.Seat = game.Seat(n)
	}
	return nil
}

// seatErr says why s is not a seat of a table of players, or nil.
func (st *Step) seatErr(players int) error {
	switch {
	case st.bad != "":
		return fmt.Errorf("replay: %s", st.bad)
	case st.Seat < 0 || int(st.Seat) >= players:
		return fmt.Errorf("replay: seat %d is not at this table (seats 0 to %d)", st.Seat, players-1)
	}
	return nil
}

// Output is what `tapis replay` prints.
type Output struct {
	Applied     int         `json:"applied"`
	Rejected    []Rejection `json:"rejected"`
	Round       int         `json:"round"`
	Over        bool        `json:"over"`
	Scores      []int       `json:"scores"`
	RoundScores []int       `json:"round_scores"`
	Winners     []game.Seat `json:"winners"`
	ToMove      []game.Seat `json:"to_move"`
	State       any         `json:"state"`
}

// Rejection is a refused move: its index in the script and why.
type Rejection struct {
	Index int    `json:"index"`
	Error string `json:"error"`
}

// maxScript bounds what Read accepts, so a huge input fails cleanly.
const maxScript = 64 << 20

// Read decodes a script strictly: unknown fields and trailing data are
// errors, so that a typo is not silently ignored.
//
// Read's and Run's errors do not begin with "replay: ": the callers,
// `tapis replay` and `tapis check`, say what they were doing themselves,
// and a second prefix would only repeat it.
func Read(r io.Reader) (Script, error) {
	var s Script
	data, err := io.ReadAll(io.LimitReader(r, maxScript+1))
	if err != nil {
		return s, fmt.Errorf("reading the script: %v", err)
	}
	if len(data) > maxScript {
		return s, fmt.Errorf("the script is larger than %d bytes", maxScript)
	}
	if err := game.DecodeStrict(data, &s); err != nil {
		return s, fmt.Errorf("bad JSON: %v", err)
	}
	return s, nil
}

// Run plays the script. lookup finds a game by name. An error means the
// script itself is invalid (unknown game or option, bad player count,
// impossible stack); refused moves are not errors but part of the output.
func Run(s Script, lookup func(name string) game.Game) (Output, error) {
	g := lookup(s.Game)
	if g == nil {
		return Output{}, fmt.Errorf("unknown game %q", s.Game)
	}
	st, err := g.New(game.Config{Players: s.Players, Options: s.Options, Seed: s.Seed, Stacks: s.Rounds})
	if err != nil {
		// The engine's error names the game ("cabo: options: ...").
		return Output{}, err
	}
	out := Output{Rejected: []Rejection{}}
	for i, step := range s.Moves {
		err := step.seatErr(s.Players)
		var m game.Move
		if err == nil {
			m, err = g.UnmarshalMove(step.Move)
		}
		if err == nil {
			err = st.Apply(step.Seat, m, nil)
		}
		if err != nil {
			out.Rejected = append(out.Rejected, Rejection{Index: i, Error: err.Error()})
			continue
		}
		out.Applied++
	}
	res := st.Result()
	out.Round, out.Over = res.Rounds, st.Over()
	out.Scores, out.RoundScores, out.Winners = res.Scores, res.RoundScores, res.Winners
	out.ToMove = st.ToMove().List()
	out.State = st.Dump()
	return out, nil
}
