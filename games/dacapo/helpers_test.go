package dacapo

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"

	"tapis/game"
)

// table is a game under test with its event log.
type table struct {
	t   *testing.T
	st  *State
	log game.Log
}

// newTable starts a game from options and REPLAY.md stacks (one per game).
func newTable(t *testing.T, players int, opts string, stacks ...string) *table {
	t.Helper()
	c := game.Config{Players: players, Options: json.RawMessage(opts), Seed: 99}
	for _, s := range stacks {
		c.Stacks = append(c.Stacks, json.RawMessage(s))
	}
	st, err := NewState(c)
	if err != nil {
		t.Fatalf("New: %v", err)
	}
	if err := st.Check(); err != nil {
		t.Fatalf("new state: %v", err)
	}
	return &table{t: t, st: st}
}

func move(t *testing.T, js string) game.Move {
	t.Helper()
	m, err := Game{}.UnmarshalMove([]byte(js))
	if err != nil {
		t.Fatalf("move %s: %v", js, err)
	}
	return m
}

// play applies a move that must be legal.
func (tb *table) play(s game.Seat, js string) {
	tb.t.Helper()
	m := move(tb.t, js)
	if !game.Contains(tb.st.Legal(s, nil), m) {
		tb.t.Fatalf("seat %d: %s is not in Legal", s, js)
	}
	if err := tb.st.Apply(s, m, &tb.log); err != nil {
		tb.t.Fatalf("seat %d: %s refused: %v", s, js, err)
	}
	if err := tb.st.Check(); err != nil {
		tb.t.Fatalf("after %s: %v", js, err)
	}
}

// refuse applies a move that must be refused, with a reason containing
// want, and leave everything as it was.
func (tb *table) refuse(s game.Seat, js, want string) {
	tb.t.Helper()
	m := move(tb.t, js)
	if game.Contains(tb.st.Legal(s, nil), m) {
		tb.t.Fatalf("seat %d: %s is in Legal", s, js)
	}
	before := *tb.st
	err := tb.st.Apply(s, m, &tb.log)
	if err == nil {
		tb.t.Fatalf("seat %d: %s was applied", s, js)
	}
	if !strings.Contains(err.Error(), want) {
		tb.t.Fatalf("seat %d: %s: error %q, want it to say %q", s, js, err, want)
	}
	if !reflect.DeepEqual(&before, tb.st) {
		tb.t.Fatalf("seat %d: refused %s changed the state", s, js)
	}
}

// build is a hand build's JSON.
func hand(card string, pile int) string {
	return `{"type":"build","from":"hand","card":` + cardJSON(card) + `,"pile":` + itoa(pile) + `}`
}

func stock(pile int) string { return `{"type":"build","from":"stock","pile":` + itoa(pile) + `}` }

func helperBuild(index, pile int) string {
	return `{"type":"build","from":"helper","index":` + itoa(index) + `,"pile":` + itoa(pile) + `}`
}

func opponent(seat, pile int) string {
	return `{"type":"build","from":"opponent","seat":` + itoa(seat) + `,"pile":` + itoa(pile) + `}`
}

func helper(card string, index int) string {
	return `{"type":"helper","card":` + cardJSON(card) + `,"index":` + itoa(index) + `}`
}

// cardJSON writes "J" as REPLAY.md does, quoted.
func cardJSON(c string) string {
	if c == "J" {
		return `"J"`
	}
	return c
}

func itoa(i int) string {
	b, _ := json.Marshal(i)
	return string(b)
}

// piles is the building piles' values.
func (tb *table) piles() [Piles]int8 { return tb.st.nPile }

// handOf is seat s's hand as REPLAY.md writes cards, in increasing order.
func (tb *table) handOf(s game.Seat) string {
	b, _ := json.Marshal(tb.st.handCards(s))
	return string(b)
}

// top is seat s's face-up personal card as JSON ("null" once empty).
func (tb *table) top(s game.Seat) string {
	b, _ := json.Marshal(cardPtr(tb.st.stockTop(s)))
	return string(b)
}

// events lists the logged events' types, in order, and empties the log.
func (tb *table) events() []Event {
	var out []Event
	for _, e := range tb.log.Events {
		out = append(out, e.Data.(Event))
	}
	tb.log.Reset()
	return out
}

// exhaust moves every card of the draw pile but the top keep onto seat
// owner's helper pile index, keeping all 165 cards: a short way to reach
// the end of the draw pile, which takes many turns in play.
func (tb *table) exhaust(keep int, owner game.Seat, index int) {
	st := tb.st
	k := int(st.nDraw) - keep
	for _, c := range st.cards[:k] {
		st.pushHelper(owner, index, c)
	}
	copy(st.cards[:], st.cards[k:st.nDraw])
	st.nDraw = uint8(keep)
	if err := st.Check(); err != nil {
		tb.t.Fatal(err)
	}
}
