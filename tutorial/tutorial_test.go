package tutorial

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"testing"

	"tapis/game"
	"tapis/games"
)

// event is a game event as the test reads it: its JSON, the seat that
// may see it, and its type.
type event struct {
	move int // the script's move that made it (-1: the deal)
	to   game.Seats
	typ  string
	data map[string]any
}

// played is a script replayed: the events of every move.
type played struct {
	events []event
	st     game.State
}

// find returns the first event after from of type typ by seat seat (-1:
// any) that has every field of want, or -1.
func (p *played) find(from int, typ string, seat int, want map[string]any) int {
	for i := from + 1; i < len(p.events); i++ {
		e := p.events[i]
		if e.typ != typ || seat >= 0 && fmt.Sprint(e.data["seat"]) != fmt.Sprint(seat) {
			continue
		}
		ok := true
		for k, v := range want {
			got, _ := json.Marshal(e.data[k])
			w, _ := json.Marshal(v)
			if string(got) != string(w) {
				ok = false
			}
		}
		if ok {
			return i
		}
	}
	return -1
}

// rules are, per game, the rules its tutorial must show (issue 26), each
// a check of the replayed script's events.
var rules = map[string]map[string]func(p *played) bool{
	"cabo": {
		"the first look": func(p *played) bool { return p.find(-1, "peek_initial", Seat, nil) >= 0 },
		"draw and keep": func(p *played) bool {
			d := p.find(-1, "draw", Seat, nil)
			for ; d >= 0; d = p.find(d, "draw", Seat, nil) {
				if next := p.next(d, Seat); next != nil && next.typ == "replace" {
					return true
				}
			}
			return false
		},
		"draw and discard": func(p *played) bool { return p.find(-1, "discard", Seat, nil) >= 0 },
		"7-8: peek":        func(p *played) bool { return p.find(-1, "peek", Seat, nil) >= 0 },
		"9-10: spy":        func(p *played) bool { return p.find(-1, "spy", Seat, nil) >= 0 },
		"11-12: swap":      func(p *played) bool { return p.find(-1, "swap", Seat, nil) >= 0 },
		"a set": func(p *played) bool {
			for i := p.find(-1, "replace", Seat, nil); i >= 0; i = p.find(i, "replace", Seat, nil) {
				if s, _ := p.events[i].data["slots"].([]any); len(s) >= 2 && p.events[i].data["failed"] == nil {
					return true
				}
			}
			return false
		},
		"calling Cabo": func(p *played) bool { return p.find(-1, "cabo", Seat, nil) >= 0 },
		"the scoring, the caller winning": func(p *played) bool {
			res := p.st.Result()
			return p.find(-1, "round_end", -1, nil) >= 0 && res.Rounds == 1 && res.RoundScores[Seat] == 0 &&
				slices.ContainsFunc(res.RoundScores, func(v int) bool { return v > 0 })
		},
	},
}

// tricks returns, for each card seat played, the suit led in its trick
// and its card, from the public plays and tricks.
func (p *played) tricks(seat int) (led, card []string) {
	first := ""
	for _, e := range p.events {
		switch e.typ {
		case "play":
			c, _ := e.data["card"].(string)
			if first == "" {
				first = c
			}
			if fmt.Sprint(e.data["seat"]) == fmt.Sprint(seat) {
				led, card = append(led, first[:1]), append(card, c)
			}
		case "trick":
			first = ""
		}
	}
	return led, card
}

func init() {
	rules["papayoo"] = map[string]func(p *played) bool{
		"the pass": func(p *played) bool {
			return p.find(-1, "passed", Seat, nil) >= 0 && p.find(-1, "received", Seat, nil) >= 0
		},
		"the die": func(p *played) bool {
			i := p.find(-1, "die", -1, nil)
			return i >= 0 && p.events[i].data["card"] != nil
		},
		"following suit": func(p *played) bool {
			led, card := p.tricks(Seat)
			for i := range led {
				if i > 0 && led[i] == card[i][:1] && p.moveOf(card[i]) > 0 && !p.led(card[i]) {
					return true
				}
			}
			return false
		},
		"a card off suit, void": func(p *played) bool {
			led, card := p.tricks(Seat)
			for i := range led {
				if led[i] != card[i][:1] {
					return true
				}
			}
			return false
		},
		"the Papayoo in a trick": func(p *played) bool {
			i := p.find(-1, "die", -1, nil)
			pap, _ := p.events[i].data["card"].(string)
			for j := p.find(-1, "trick", -1, nil); j >= 0; j = p.find(j, "trick", -1, nil) {
				if cs, _ := p.events[j].data["cards"].([]any); slices.Contains(cs, any(pap)) {
					return true
				}
			}
			return false
		},
		"a trick's points": func(p *played) bool {
			for j := p.find(-1, "trick", -1, nil); j >= 0; j = p.find(j, "trick", -1, nil) {
				if pts, _ := p.events[j].data["points"].(float64); pts > 0 {
					return true
				}
			}
			return false
		},
		"the round's score": func(p *played) bool { return p.find(-1, "round_end", -1, nil) >= 0 && p.st.Result().Rounds == 1 },
	}
}

func init() {
	rules["limits"] = map[string]func(p *played) bool{
		"hiding":     func(p *played) bool { return p.find(-1, "hide", Seat, nil) >= 0 },
		"placing":    func(p *played) bool { return p.find(-1, "place", Seat, nil) >= 0 },
		"exchanging": func(p *played) bool { return p.find(-1, "exchange", Seat, nil) >= 0 },
		"accusing, and its resolution": func(p *played) bool {
			i := p.find(-1, "accuse", Seat, nil)
			if i < 0 {
				return false
			}
			a, _ := p.events[i].data["accusation"].(map[string]any)
			return a != nil && a["hidden"] != nil && a["taker"] != nil && p.st.Result().Rounds == 1
		},
	}
}

func init() {
	built := func(from string) func(p *played) bool {
		return func(p *played) bool { return p.find(-1, "build", Seat, map[string]any{"from": from}) >= 0 }
	}
	rules["dacapo"] = map[string]func(p *played) bool{
		"building from the personal pile":  built("stock"),
		"building from the hand":           built("hand"),
		"building from a helper pile":      built("helper"),
		"building from an opponent's pile": built("opponent"),
		"a Joker":                          func(p *played) bool { return p.find(-1, "build", Seat, map[string]any{"card": "J"}) >= 0 },
		"a card onto a helper pile":        func(p *played) bool { return p.find(-1, "helper", Seat, nil) >= 0 },
		"a refill": func(p *played) bool {
			return p.find(p.find(-1, "build", Seat, nil), "draw", Seat, nil) >= 0
		},
		"end": func(p *played) bool { return p.find(-1, "end", Seat, nil) >= 0 },
	}
}

// moveOf returns the index+1 of the play event of card, 0 if none.
func (p *played) moveOf(card string) int {
	return p.find(-1, "play", -1, map[string]any{"card": card}) + 1
}

// led reports whether card opened its trick.
func (p *played) led(card string) bool {
	i := p.moveOf(card) - 1
	return i > 0 && (p.events[i-1].typ == "trick" || p.events[i-1].typ != "play")
}

// next returns the first public or player's event after i of a move by seat.
func (p *played) next(i, seat int) *event {
	for j := i + 1; j < len(p.events); j++ {
		if p.events[j].move != p.events[i].move && fmt.Sprint(p.events[j].data["seat"]) == fmt.Sprint(seat) {
			return &p.events[j]
		}
	}
	return nil
}

// replay plays s through its game's real engine, every move required legal.
func replay(t *testing.T, s *Script) *played {
	t.Helper()
	e, ok := games.Lookup(s.Game)
	if !ok {
		t.Fatalf("no game %q", s.Game)
	}
	g := e.Game
	var log game.Log
	st, err := g.New(game.Config{Players: s.Players, Options: s.Options, Seed: s.Seed, Log: &log})
	if err != nil {
		t.Fatal(err)
	}
	p := &played{}
	add := func(move int) {
		for _, ev := range log.Events {
			js, err := json.Marshal(ev.Data)
			if err != nil {
				t.Fatal(err)
			}
			var m map[string]any
			json.Unmarshal(js, &m)
			typ, _ := m["type"].(string)
			p.events = append(p.events, event{move: move, to: ev.To, typ: typ, data: m})
		}
		log.Reset()
	}
	add(-1)
	for i, m := range s.Moves {
		gm, err := g.UnmarshalMove(m.Move)
		if err != nil {
			t.Fatalf("move %d %s: %v", i, m.Move, err)
		}
		if !st.ToMove().Has(game.Seat(m.Seat)) || !game.Contains(st.Legal(game.Seat(m.Seat), nil), gm) && !accumulates(st, m.Seat, gm) {
			t.Fatalf("move %d by seat %d %s: not legal now", i, m.Seat, m.Move)
		}
		if err := st.Apply(game.Seat(m.Seat), gm, &log); err != nil {
			t.Fatalf("move %d by seat %d %s: %v", i, m.Seat, m.Move, err)
		}
		add(i)
	}
	p.st = st
	return p
}

// accumulates reports whether gm, though not listed by Legal, is a whole
// choice Legal lists in one-card steps (game.State.Legal): Apply takes it
// on a clone.
func accumulates(st game.State, seat int, gm game.Move) bool {
	return st.Clone().Apply(game.Seat(seat), gm, nil) == nil
}

// Every tutorial plays through the real engine to its end, every move
// legal, and shows every rule listed for its game.
func TestScripts(t *testing.T) {
	if len(Games()) == 0 {
		t.Fatal("no tutorial")
	}
	for _, name := range Games() {
		t.Run(name, func(t *testing.T) {
			s, _ := For(name)
			want, ok := rules[name]
			if !ok {
				t.Fatalf("no rules listed for %s's tutorial", name)
			}
			p := replay(t, s)
			for rule, shown := range want {
				if !shown(p) {
					t.Errorf("%s's tutorial does not show %s", name, rule)
				}
			}
			if s.Steps() < 3 {
				t.Errorf("%d steps", s.Steps())
			}
		})
	}
}

// A step's words are the same length order in both languages, and never
// left as a placeholder.
func TestTexts(t *testing.T) {
	for _, name := range Games() {
		s, _ := For(name)
		for i, m := range s.Moves {
			if m.Step == nil {
				continue
			}
			en, fr := m.Step.Text.EN, m.Step.Text.FR
			if strings.Contains(en+fr, "TODO") || len(fr) < len(en)/2 || len(en) < len(fr)/2 {
				t.Errorf("%s move %d: %q / %q", name, i, en, fr)
			}
		}
	}
}

// At follows the script: the player's steps are counted from 1.
func TestAt(t *testing.T) {
	s, ok := For("cabo")
	if !ok {
		t.Fatal("no cabo tutorial")
	}
	m, step, ok := s.At(0)
	if !ok || m.Seat != Seat || step != 1 {
		t.Fatalf("At(0) = %+v, %d, %v", m, step, ok)
	}
	if _, step, _ := s.At(len(s.Moves) - 1); step != s.Steps() {
		t.Fatalf("the last move is at step %d of %d", step, s.Steps())
	}
	if _, _, ok := s.At(len(s.Moves)); ok || !s.Done(len(s.Moves)) {
		t.Fatal("a played-out script still expects a move")
	}
}

// Parse refuses a player's move without its words.
func TestParse(t *testing.T) {
	for _, bad := range []string{
		`{"game":"cabo","players":2,"moves":[{"seat":0,"move":{}}],"end":{"en":"a","fr":"b"}}`,
		`{"game":"cabo","players":2,"moves":[{"seat":1,"move":{},"step":{"text":{"en":"a","fr":"b"}}}],"end":{"en":"a","fr":"b"}}`,
		`{"game":"cabo","players":2,"moves":[{"seat":3,"move":{}}],"end":{"en":"a","fr":"b"}}`,
		`{"game":"cabo","players":2,"moves":[{"seat":1,"move":{}}]}`,
		`{"game":"cabo","players":2,"moves":[{"seat":1,"move":{}}],"end":{"en":"a","fr":"b"},"extra":1}`,
	} {
		if _, err := Parse([]byte(bad)); err == nil {
			t.Errorf("Parse(%s) accepted", bad)
		}
	}
}
