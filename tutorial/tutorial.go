// Package tutorial holds the tutorials that teach a game by playing it: a
// prepared deal (a game, its players, options and seed) and every move of
// every seat, in REPLAY.md's move JSON, where the player's moves carry the
// step that asks for them and says, in English and French, why they
// matter. The player sits at seat 0; the other seats play the script's
// moves (package table's script bot).
//
// A tutorial is data: scripts/<game>.json, embedded. Adding a game's
// tutorial is adding its file (and the test's list of the rules it must
// show, tutorial_test.go). The package is pure: it reads nothing at run
// time but its embedded files.
package tutorial

import (
	"embed"
	"encoding/json"
	"fmt"
	"path"
	"sort"
	"strings"
)

// Seat is the player's seat in every tutorial.
const Seat = 0

// Script is one game's tutorial.
type Script struct {
	// Game, Players, Options and Seed make the deal, as REPLAY.md's
	// script fields of the same names (no stacks: the seed was chosen so
	// that its deal shows every rule, tutorial_test.go's search).
	Game    string          `json:"game"`
	Players int             `json:"players"`
	Options json.RawMessage `json:"options,omitempty"`
	Seed    uint64          `json:"seed"`
	// Moves are every seat's moves, in order; the player's carry a Step.
	Moves []Move `json:"moves"`
	// End is the summary shown once the script's last move is played.
	End Text `json:"end"`
}

// Move is one move of the script.
type Move struct {
	Seat int             `json:"seat"`
	Move json.RawMessage `json:"move"`
	// Step is what the player is told while this move is awaited; only
	// the player's moves (Seat) have one.
	Step *Step `json:"step,omitempty"`
}

// Step is one step of the tutorial: its words, and what on the screen the
// move is made with, as a CSS selector of the game's screen (the first
// match of a comma-separated list is pointed at).
type Step struct {
	Text  Text   `json:"text"`
	Point string `json:"point,omitempty"`
}

// Text is words in each language of the web client. The words must tell
// only what the player's seat may see at that step: a step is shown
// before its move and after the moves before it, never earlier.
type Text struct {
	EN string `json:"en"`
	FR string `json:"fr"`
}

// In returns the text in lang ("fr" or "en"; English otherwise).
func (t Text) In(lang string) string {
	if lang == "fr" && t.FR != "" {
		return t.FR
	}
	return t.EN
}

// Steps counts the player's moves, the tutorial's steps.
func (s *Script) Steps() int {
	n := 0
	for _, m := range s.Moves {
		if m.Step != nil {
			n++
		}
	}
	return n
}

// At returns the move expected after n moves of the match and its step's
// number (1-based among the player's moves, counted up to it), or false
// once the script is played out.
func (s *Script) At(n int) (m Move, step int, ok bool) {
	if n < 0 || n >= len(s.Moves) {
		return Move{}, 0, false
	}
	for _, mv := range s.Moves[:n+1] {
		if mv.Step != nil {
			step++
		}
	}
	return s.Moves[n], step, true
}

// Done reports whether n moves play the whole script.
func (s *Script) Done(n int) bool { return n >= len(s.Moves) }

//go:embed scripts/*.json
var files embed.FS

// scripts are the embedded tutorials by game, read once (they are the
// package's constants, checked by its test).
var scripts = load()

func load() map[string]*Script {
	out := map[string]*Script{}
	names, _ := files.ReadDir("scripts")
	for _, f := range names {
		data, err := files.ReadFile(path.Join("scripts", f.Name()))
		if err != nil {
			panic(err)
		}
		s, err := Parse(data)
		if err != nil {
			panic(fmt.Sprintf("tutorial %s: %v", f.Name(), err))
		}
		out[s.Game] = s
	}
	return out
}

// Parse reads a script and checks its shape: the player's moves have a
// step in both languages, the others none.
func Parse(data []byte) (*Script, error) {
	dec := json.NewDecoder(strings.NewReader(string(data)))
	dec.DisallowUnknownFields()
	var s Script
	if err := dec.Decode(&s); err != nil {
		return nil, err
	}
	if s.Game == "" || s.Players < 2 || len(s.Moves) == 0 {
		return nil, fmt.Errorf("a script needs a game, players and moves")
	}
	for i, m := range s.Moves {
		switch {
		case m.Seat < 0 || m.Seat >= s.Players:
			return nil, fmt.Errorf("move %d: no seat %d", i, m.Seat)
		case m.Seat == Seat && (m.Step == nil || m.Step.Text.EN == "" || m.Step.Text.FR == ""):
			return nil, fmt.Errorf("move %d: the player's move needs a step in English and French", i)
		case m.Seat != Seat && m.Step != nil:
			return nil, fmt.Errorf("move %d: only the player's moves have a step", i)
		}
	}
	if s.End.EN == "" || s.End.FR == "" {
		return nil, fmt.Errorf("a script needs its end in English and French")
	}
	return &s, nil
}

// For returns the tutorial of game, or false for a game without one.
func For(game string) (*Script, bool) {
	s, ok := scripts[game]
	return s, ok
}

// Games lists the games that have a tutorial.
func Games() []string {
	var out []string
	for g := range scripts {
		out = append(out, g)
	}
	sort.Strings(out)
	return out
}
