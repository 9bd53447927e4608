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
