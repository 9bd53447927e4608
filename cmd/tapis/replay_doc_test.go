package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"strings"
	"testing"

	"tapis/games"
)

// docBlocks returns docs/replay.md's ```json blocks, in order.
func docBlocks(t *testing.T) (doc string, blocks []string) {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("..", "..", "docs", "replay.md"))
	if err != nil {
		t.Fatal(err)
	}
	doc = string(b)
	for _, m := range regexp.MustCompile("(?s)```json\n(.*?)```").FindAllStringSubmatch(doc, -1) {
		blocks = append(blocks, m[1])
	}
	return doc, blocks
}

// replayDoc runs script through `tapis replay FILE` as a reader of the
// docs would, and returns its output decoded.
func replayDoc(t *testing.T, script string) map[string]any {
	t.Helper()
	path := filepath.Join(t.TempDir(), "script.json")
	if err := os.WriteFile(path, []byte(script), 0o644); err != nil {
		t.Fatal(err)
	}
	code, out, errs := tapis("replay", path)
	if code != 0 {
		t.Fatalf("tapis replay of docs/replay.md's script exits %d: %s\n%s", code, errs, script)
	}
	var got map[string]any
	if err := json.Unmarshal([]byte(out), &got); err != nil {
		t.Fatalf("%v: %s", err, out)
	}
	return got
}

// docs/replay.md's examples run as written: its input example through
// `tapis replay` prints its output example, and each game's example
// script plays every one of its moves.
func TestReplayDocExamples(t *testing.T) {
	_, blocks := docBlocks(t)
	if len(blocks) != 2+len(games.Names()) {
		t.Fatalf("docs/replay.md has %d json examples; want the input, the output and one script per game (%d)", len(blocks), len(games.Names()))
	}
	var want map[string]any
	if err := json.Unmarshal([]byte(blocks[1]), &want); err != nil {
		t.Fatalf("the output example is not JSON: %v", err)
	}
	if got := replayDoc(t, blocks[0]); !reflect.DeepEqual(got, want) {
		g, _ := json.Marshal(got)
		t.Errorf("the input example prints\n%s\nnot the output example", g)
	}
	seen := map[string]bool{}
	for _, script := range blocks[2:] {
		var head struct {
			Game  string            `json:"game"`
			Moves []json.RawMessage `json:"moves"`
		}
		if err := json.Unmarshal([]byte(script), &head); err != nil {
			t.Fatalf("an example is not JSON: %v\n%s", err, script)
		}
		seen[head.Game] = true
		got := replayDoc(t, script)
		if rej := got["rejected"].([]any); got["applied"] != float64(len(head.Moves)) || len(rej) != 0 {
			t.Errorf("%s's example: %v of %d moves applied, refused %v", head.Game, got["applied"], len(head.Moves), rej)
		}
	}
	for _, name := range games.Names() {
		if !seen[name] {
			t.Errorf("docs/replay.md has no example script for %s", name)
		}
	}
}

// Every move in docs/replay.md's tables is one its game reads.
func TestReplayDocMoves(t *testing.T) {
	doc, _ := docBlocks(t)
	sections := regexp.MustCompile(`(?m)^### (\w+)$`).FindAllStringSubmatchIndex(doc, -1)
	if len(sections) != len(games.Names()) {
		t.Fatalf("docs/replay.md has %d game sections, want %d", len(sections), len(games.Names()))
	}
	row := regexp.MustCompile("(?m)^\\| `(\\{.*?\\})` \\|")
	for i, sec := range sections {
		name := doc[sec[2]:sec[3]]
		end := len(doc)
		if i+1 < len(sections) {
			end = sections[i+1][0]
		}
		g := games.Named(name)
		if g == nil {
			t.Errorf("docs/replay.md's section %q is no game", name)
			continue
		}
		moves := row.FindAllStringSubmatch(doc[sec[1]:end], -1)
		if len(moves) == 0 {
			t.Errorf("%s: no moves in the table", name)
		}
		for _, m := range moves {
			if _, err := g.UnmarshalMove(json.RawMessage(m[1])); err != nil {
				t.Errorf("%s: %s: %v", name, m[1], err)
			}
			if !strings.Contains(m[1], `"type"`) {
				t.Errorf("%s: %s has no type", name, m[1])
			}
		}
	}
}
