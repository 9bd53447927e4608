package main

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"tapis/games"
)

// docs/bots.md's table of the levels is the one `tapis sim --levels-table`
// writes: the same head, a row per game, and the command it came from
// written under it; the command, shortened, runs.
func TestLevelsTableDoc(t *testing.T) {
	if testing.Short() {
		t.Skip("plays every level in every game")
	}
	b, err := os.ReadFile(filepath.Join("..", "..", "docs", "bots.md"))
	if err != nil {
		t.Fatal(err)
	}
	doc := string(b)
	foot := regexp.MustCompile("\\(`tapis sim --levels-table --games (\\d+) --seed (\\d+)`: duplicate deals").FindStringSubmatch(doc)
	if foot == nil {
		t.Fatal("docs/bots.md has no table made by tapis sim --levels-table")
	}
	code, out, errs := tapis("sim", "--levels-table", "--games", "2", "--seed", foot[2], "--workers", "2")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	lines := strings.Split(out, "\n")
	if !strings.Contains(doc, lines[0]+"\n"+lines[1]+"\n") {
		t.Errorf("docs/bots.md has not the table's head:\n%s\n%s", lines[0], lines[1])
	}
	rows := 0
	for _, line := range lines[2:] {
		if !strings.HasPrefix(line, "| ") {
			continue
		}
		rows++
		head := line[:strings.Index(line[2:], " |")+4]
		if !regexp.MustCompile(`(?m)^` + regexp.QuoteMeta(head) + `( [^|]+ \|){5}$`).MatchString(doc) {
			t.Errorf("docs/bots.md has no row %q...", head)
		}
	}
	if rows != len(games.Names()) {
		t.Errorf("%d rows for %d games:\n%s", rows, len(games.Names()), out)
	}
}

// --cheat cheat-future measures the gap to the cheat blind to the future:
// its pairing and the last column say so, and so does the footnote's
// command; any other reference is refused, and so is --cheat without
// the table.
func TestLevelsTableFairCheat(t *testing.T) {
	if testing.Short() {
		t.Skip("plays every level of a game")
	}
	code, out, errs := tapis("sim", "--levels-table", "--game", "limits", "--games", "2", "--cheat", "cheat-future", "--workers", "2")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	for _, want := range []string{" cheat-future against easy |", " gap to `cheat-future` that `hard` closes |", "| Limits, 2 players |",
		"`tapis sim --levels-table --games 2 --seed 1 --game limits --cheat cheat-future`"} {
		if !strings.Contains(out, want) {
			t.Errorf("the table has no %q:\n%s", want, out)
		}
	}
	if strings.Contains(out, " cheat against easy |") {
		t.Errorf("the plain cheat was measured too:\n%s", out)
	}
	for _, args := range [][]string{
		{"sim", "--levels-table", "--game", "limits", "--games", "2", "--cheat", "hard"},
		{"sim", "--game", "limits", "--games", "2", "--cheat", "cheat-future"},
	} {
		if code, _, errs := tapis(args...); code != 2 || !strings.Contains(errs, "--cheat") {
			t.Errorf("%q: exit %d, %q; want 2 and a word on --cheat", args, code, errs)
		}
	}
}
