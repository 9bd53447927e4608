package papayoo

import (
	"encoding/json"
	"math/bits"
	"reflect"
	"slices"
	"strings"
	"testing"

	"tapis/game"
)

// blocks deals the n-player deck in index order, in blocks: seat 0 takes
// the first cards (S1, S2, …), seat 1 the next, and so on. Suits are long
// and easy to reason about.
func blocks(n int) [][]string {
	all := names(deckFor(n))
	hs := HandSize(n)
	out := make([][]string, n)
	for s := range out {
		out[s] = all[s*hs : (s+1)*hs]
	}
	return out
}

func stackJSON(hands [][]string, die string) json.RawMessage {
	v := map[string]any{"hands": hands}
	if die != "" {
		v["die"] = die
	}
	data, _ := json.Marshal(v)
	return data
}

func mustNew(t testing.TB, n int, opts string, stacks ...json.RawMessage) *State {
	t.Helper()
	st, err := NewState(game.Config{Players: n, Options: json.RawMessage(opts), Seed: 99, Stacks: stacks})
	if err != nil {
		t.Fatalf("New(%d players, %s): %v", n, opts, err)
	}
	return st
}

// move decodes a REPLAY.md move.
func move(t testing.TB, js string) game.Move {
	t.Helper()
	m, err := Game{}.UnmarshalMove([]byte(js))
	if err != nil {
		t.Fatalf("%s: %v", js, err)
	}
	return m
}

func passJSON(cards ...string) string {
	data, _ := json.Marshal(map[string]any{"type": "pass", "cards": cards})
	return string(data)
}

func playJSON(card string) string { return `{"type":"play","card":"` + card + `"}` }

// do applies a move that must be accepted.
func do(t testing.TB, st *State, s game.Seat, js string, log *game.Log) {
	t.Helper()
	if err := st.Apply(s, move(t, js), log); err != nil {
		t.Fatalf("seat %d %s refused: %v", s, js, err)
	}
	if err := st.Check(); err != nil {
		t.Fatalf("after seat %d %s: %v", s, js, err)
	}
}

// refuse applies a move that must be refused with an error containing
// want, leaving the state as it was.
func refuse(t testing.TB, st *State, s game.Seat, js, want string) {
	t.Helper()
	before := st.Clone()
	err := st.Apply(s, move(t, js), nil)
	if err == nil {
		t.Fatalf("seat %d %s was accepted", s, js)
	}
	if !strings.Contains(err.Error(), want) {
		t.Fatalf("seat %d %s: error %q, want it to mention %q", s, js, err, want)
	}
	if !reflect.DeepEqual(before, st) {
		t.Fatalf("refused move changed the state")
	}
}

// passFirst has every seat pass the first PassSize cards of its hand.
func passFirst(t testing.TB, st *State) {
	t.Helper()
	k := PassSize(st.Players())
	for s := 0; s < st.Players(); s++ {
		do(t, st, game.Seat(s), passJSON(st.view(game.Seat(s)).Hand[:k]...), nil)
	}
}

// legalCards lists seat s's legal plays (or pass steps) by card name.
func legalCards(st *State, s game.Seat) []string {
	var out []string
	for _, m := range st.Legal(s, nil) {
		out = append(out, names(cardsOf(m))...)
	}
	slices.Sort(out)
	return out
}

func sorted(cards []string) []string {
	c := slices.Clone(cards)
	slices.Sort(c)
	return c
}

func card(t testing.TB, name string) int8 {
	c, err := ParseCard(name)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

func setOf(t testing.TB, cards ...string) uint64 {
	var s uint64
	for _, c := range cards {
		s |= 1 << uint(card(t, c))
	}
	return s
}

func count(set uint64) int { return bits.OnesCount64(set) }
