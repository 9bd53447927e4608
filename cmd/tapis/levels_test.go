package main

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"tapis/games"
	"tapis/sim"
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

// --gap reads two runs saved with --json and says how much of the gap to
// the cheat the honest bot closes: the figure sim.GapClosed gives for the
// same runs made here. Runs that cannot be compared are refused, saying
// why.
func TestSimGap(t *testing.T) {
	if testing.Short() {
		t.Skip("plays two runs")
	}
	dir := t.TempDir()
	run := func(bots, seed string) string {
		t.Helper()
		code, out, errs := tapis("sim", "--game", "limits", "--players", "2", "--bots", bots, "--duplicate", "--games", "40", "--seed", seed, "--workers", "1", "--json")
		if code != 0 {
			t.Fatalf("%s: exit %d: %s", bots, code, errs)
		}
		f := filepath.Join(dir, strings.ReplaceAll(bots, ",", "-")+"-"+seed+".json")
		if err := os.WriteFile(f, []byte(out), 0o600); err != nil {
			t.Fatal(err)
		}
		return f
	}
	honest, cheat := run("hard@30,easy", "3"), run("cheat@30,easy", "3")
	code, out, errs := tapis("sim", "--gap", honest+","+cheat)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	var reps [2]sim.Report
	for i, bots := range []string{"hard@30", "cheat@30"} {
		rep, err := sim.Run(context.Background(), sim.Config{Game: games.Named("limits"), Players: 2, Bots: []string{bots, "easy"}, Games: 40, Seed: 3, Workers: 1, Duplicate: true})
		if err != nil {
			t.Fatal(err)
		}
		reps[i] = rep
	}
	g, iv, err := sim.GapClosed(reps[0], reps[1], sim.ByShare)
	if err != nil {
		t.Fatal(err)
	}
	want := fmt.Sprintf("hard@30 closes %.0f%% %s of the gap to cheat@30, by the share of the wins (limits, 40 games each)", 100*g, interval(iv, 100, "%.0f%%"))
	if strings.TrimSpace(out) != want {
		t.Errorf("--gap says %q, want %q", out, want)
	}

	plain := filepath.Join(dir, "plain.json")
	if code, out, _ := tapis("sim", "--game", "limits", "--players", "2", "--games", "4", "--json"); code != 0 {
		t.Fatal("a plain run failed")
	} else if err := os.WriteFile(plain, []byte(out), 0o600); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct{ arg, says string }{
		{honest, "two files"},
		{honest + "," + filepath.Join(dir, "none.json"), "no such file"},
		{honest + "," + plain, "no pairing"},
		{honest + "," + run("cheat@30,easy", "4"), "different deals"},
	} {
		if code, _, errs := tapis("sim", "--gap", c.arg); code != 2 || !strings.Contains(errs, c.says) {
			t.Errorf("--gap %s: exit %d, %q; want 2 and %q", c.arg, code, errs, c.says)
		}
	}
}
