package games_test

import (
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"
	"testing"

	"tapis/game"
	"tapis/games"
)

var printExamples = flag.Bool("views.print", false, "print docs/views.md's JSON examples from seeded games, to paste into it")

// examplePlay is the game each game's full examples come from, and
// exampleAt says which position: the first where seat 0 must act and its
// view v shows most of what a view holds (a later round, cards in play).
var (
	examplePlay = map[string]play{
		"cabo":    {players: 3, seed: 103},
		"papayoo": {players: 3, seed: 103},
		"limits":  {players: 3, seed: 103},
		"dacapo":  {players: 3, seed: 103},
	}
	exampleAt = map[string]func(v map[string]any) bool{
		"cabo": func(v map[string]any) bool {
			return v["round"].(float64) >= 2 && v["phase"] == "drawn" && v["caller"].(float64) < 0
		},
		"papayoo": func(v map[string]any) bool {
			return v["round"].(float64) >= 2 && v["phase"] == "play" && len(v["trick"].([]any)) == 2 && v["last_trick"] != nil
		},
		"limits": func(v map[string]any) bool {
			return v["round"].(float64) >= 2 && v["pile_count"].(float64) >= 3
		},
		"dacapo": func(v map[string]any) bool {
			return v["draw_count"].(float64) < 40 && v["set_aside"] != nil && len(v["set_aside"].([]any)) > 0
		},
	}
)

// TestPrintViewExamples writes, with -views.print, the marked JSON blocks
// of docs/views.md: for each game a mid-game view of seat 0 and of a
// spectator with seat 0's legal moves there, taken from examplePlay; then,
// from every sampled game, the smallest parts of real views (their
// top-level fields) and whole events and moves that show what those do
// not, until everything TestViewsDocumented samples is shown once.
func TestPrintViewExamples(t *testing.T) {
	if !*printExamples {
		t.Skip("run with -views.print to print the examples")
	}
	printExamplesTo(t, os.Stdout)
}

func printExamplesTo(t *testing.T, w io.Writer) {
	for _, g := range games.All() {
		name := g.Name()
		shown := map[string]*shape{}
		// The blocks, by marker, in the order found; the moves that
		// show what the first legal list does not, in one more list.
		blocks := map[string][]string{}
		var more []json.RawMessage
		show := func(key, comment string, data []byte) {
			m := markerOf(key)
			blocks[m] = append(blocks[m], fmt.Sprintf("\n<!-- %s -->\n```json\n%s\n```\n(%s)\n", m, pretty(data), comment))
		}
		// The full mid-game examples.
		p := examplePlay[name]
		pos, at := 0, -1
		var spectator []byte
		samplePlay(t, g, p, func(key string, data []byte, st game.State) {
			if key == "view "+name+" spectator" {
				pos++
				spectator = data
			}
			if at >= 0 && pos > at || !st.ToMove().Has(0) || key != "view "+name+" seat" {
				return
			}
			var v map[string]any
			json.Unmarshal(data, &v)
			if v["seat"].(float64) != 0 || shown[key] != nil || !exampleAt[name](v) {
				return
			}
			at = pos
			key0 := "view " + name + " spectator"
			show(key0, fmt.Sprintf("%s, %d players, seed %d, position %d", name, p.players, p.seed, pos-1), spectator)
			add(t, shown, key0, spectator)
			show(key, "seat 0 there", data)
			add(t, shown, key, data)
			var moves []json.RawMessage
			for _, m := range st.Legal(0, nil) {
				data, _ := g.MarshalMove(m)
				moves = append(moves, data)
				add(t, shown, "legal "+name+" "+typeOf(t, data), data)
			}
			list, _ := json.Marshal(moves)
			show("legal "+name, "seat 0's legal moves there", list)
		})
		if at < 0 {
			t.Fatalf("%s: no position fits exampleAt", name)
		}
		// What the rest of the sampled games add.
		for _, p := range plays(g) {
			samplePlay(t, g, p, func(key string, data []byte, st game.State) {
				var v any
				json.Unmarshal(data, &v)
				one := &shape{}
				one.add(v)
				missing := one.missingFrom(shown[key], "")
				if len(missing) == 0 {
					return
				}
				if strings.HasPrefix(key, "view ") && shown[key] != nil {
					data = fieldsOf(data, missing)
				}
				if strings.HasPrefix(key, "legal ") {
					more = append(more, data)
				} else {
					show(key, strings.Join(missing, "; "), data)
				}
				add(t, shown, key, data)
			})
		}
		if len(more) > 0 {
			list, _ := json.Marshal(more)
			show("legal "+name, "moves of the other kinds", list)
		}
		for _, m := range sortedKeys(blocks) {
			for _, b := range blocks[m] {
				fmt.Fprint(w, b)
			}
		}
	}
}

// markerOf is the marker comment's text for a key.
func markerOf(key string) string {
	kind, rest, _ := strings.Cut(key, " ")
	return kind + ": " + rest
}

// fieldsOf keeps, of the object data, the top-level fields that paths
// (as missingFrom writes them) name, in their order.
func fieldsOf(data []byte, paths []string) []byte {
	keep := map[string]bool{}
	for _, p := range paths {
		f := strings.TrimPrefix(p, ".")
		if i := strings.IndexAny(f, ".[ "); i >= 0 {
			f = f[:i]
		}
		keep[f] = true
	}
	var b bytes.Buffer
	b.WriteByte('{')
	for _, kv := range fieldsInOrder(data) {
		if keep[kv.key] {
			if b.Len() > 1 {
				b.WriteByte(',')
			}
			k, _ := json.Marshal(kv.key)
			b.Write(k)
			b.WriteByte(':')
			b.Write(kv.value)
		}
	}
	b.WriteByte('}')
	return b.Bytes()
}

type field struct {
	key   string
	value json.RawMessage
}

// fieldsInOrder lists an object's fields in the order they are written.
func fieldsInOrder(data []byte) []field {
	dec := json.NewDecoder(bytes.NewReader(data))
	if tok, err := dec.Token(); err != nil || tok != json.Delim('{') {
		return nil
	}
	var out []field
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return nil
		}
		var raw json.RawMessage
		if err := dec.Decode(&raw); err != nil {
			return nil
		}
		out = append(out, field{key: tok.(string), value: raw})
	}
	return out
}

// pretty writes an object one field a line, each value compact; other
// values compact.
func pretty(data []byte) string {
	fields := fieldsInOrder(data)
	if len(fields) == 0 || len(data) < 100 {
		var b bytes.Buffer
		json.Compact(&b, data)
		return b.String()
	}
	var lines []string
	for _, f := range fields {
		k, _ := json.Marshal(f.key)
		var b bytes.Buffer
		json.Compact(&b, f.value)
		lines = append(lines, "  "+string(k)+": "+b.String())
	}
	return "{\n" + strings.Join(lines, ",\n") + "\n}"
}
