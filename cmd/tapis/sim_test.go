package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// words splits a documented command line as a shell would: on spaces,
// single quotes keeping what they hold, a # starting a comment.
func words(line string) []string {
	var out []string
	var cur strings.Builder
	quoted, in := false, false
	for _, r := range line {
		switch {
		case r == '\'':
			quoted, in = !quoted, true
		case quoted:
			cur.WriteRune(r)
		case r == '#':
			if in {
				out = append(out, cur.String())
			}
			return out
		case r == ' ':
			if in {
				out = append(out, cur.String())
				cur.Reset()
				in = false
			}
		default:
			cur.WriteRune(r)
			in = true
		}
	}
	if in {
		out = append(out, cur.String())
	}
	return out
}

// docSimLines returns the `tapis sim` lines of a doc's ```sh blocks, each
// as the command's arguments (`go run ./cmd/tapis` and `tapis` dropped).
func docSimLines(t *testing.T, doc string) [][]string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("..", "..", "docs", doc))
	if err != nil {
		t.Fatal(err)
	}
	var out [][]string
	for _, block := range regexp.MustCompile("(?s)```sh\n(.*?)```").FindAllStringSubmatch(string(b), -1) {
		for _, line := range strings.Split(block[1], "\n") {
			line = strings.TrimPrefix(strings.TrimSpace(line), "go run ./cmd/")
			if strings.HasPrefix(line, "tapis sim ") {
				out = append(out, words(line)[2:])
			}
		}
	}
	return out
}

// smaller is a documented command made quick: at most 12 games (a whole
// number of deals at 2, 3, 4 or 6 seatings).
func smaller(args []string) []string {
	out := append([]string(nil), args...)
	for k := 0; k+1 < len(out); k++ {
		if out[k] == "--games" {
			if n, err := strconv.Atoi(out[k+1]); err == nil && n > 12 {
				out[k+1] = "12"
			}
		}
	}
	return out
}

// docs/commands.md's `tapis sim` examples run as written, only shorter:
// every flag they use is one sim reads, in a combination it accepts.
func TestSimDocExamples(t *testing.T) {
	lines := docSimLines(t, "commands.md")
	if len(lines) < 6 {
		t.Fatalf("docs/commands.md has %d tapis sim examples, want at least 6", len(lines))
	}
	duplicate := false
	for _, args := range lines {
		line := strings.Join(args, " ")
		// The levels' table plays every level of every game:
		// TestLevelsTableDoc runs it, once.
		if strings.Contains(line, "--levels-table") || testing.Short() && strings.Contains(line, "hard") {
			continue
		}
		duplicate = duplicate || strings.Contains(line, "--duplicate")
		code, out, errs := tapis(append([]string{"sim"}, smaller(args)...)...)
		if code != 0 || out == "" {
			t.Errorf("tapis sim %s: exit %d, stderr %q", line, code, errs)
		}
	}
	if !duplicate {
		t.Error("docs/commands.md has no example of --duplicate")
	}
}

// --duplicate plays whole deals in every seating and says so; its pairing
// of the first bot against the others has intervals over deals, in text
// and in JSON, and its JSON keeps every field it had.
func TestSimDuplicate(t *testing.T) {
	code, out, errs := tapis("sim", "--game", "cabo", "--players", "2", "--bots", "heuristic,random", "--games", "20", "--duplicate")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	for _, want := range []string{"duplicate: 10 deals, each in 2 seatings", "bot #", "heuristic against random, intervals over 10 deals:", "  share 100.0% [72.2%, 100.0%] (even: 50.0%)"} {
		if !strings.Contains(out, want) {
			t.Errorf("no %q in\n%s", want, out)
		}
	}
	code, out, errs = tapis("sim", "--game", "cabo", "--players", "3", "--bots", "heuristic,random,random", "--games", "12", "--duplicate", "--shuffle", "--json")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	var rep struct {
		Games, Deals, Seatings int
		Seats                  []struct {
			Bot  string     `json:"bot"`
			CI   [2]float64 `json:"ci95"`
			Mean float64    `json:"mean_round_score"`
			MCI  [2]float64 `json:"mean_round_score_ci95"`
		} `json:"seats"`
		Pairing struct {
			Units     int        `json:"units"`
			Share     float64    `json:"share"`
			ShareCI95 [2]float64 `json:"share_ci95"`
		} `json:"pairing"`
	}
	if err := json.Unmarshal([]byte(out), &rep); err != nil {
		t.Fatalf("%v: %s", err, out)
	}
	if rep.Games != 12 || rep.Deals != 2 || rep.Seatings != 6 || rep.Pairing.Units != 2 || len(rep.Seats) != 3 {
		t.Fatalf("12 games of 3 players, every order: %s", out)
	}
	for _, s := range rep.Seats {
		if s.MCI[0] > s.Mean || s.MCI[1] < s.Mean {
			t.Fatalf("a mean outside its interval: %s", out)
		}
	}
	if code, _, errs := tapis("sim", "--game", "cabo", "--players", "3", "--games", "10", "--duplicate"); code != 2 || !strings.Contains(errs, "whole number of deals") {
		t.Fatalf("10 games of 3 seatings: exit %d, %q", code, errs)
	}
	if code, out, errs := tapis("sim", "--levels-table", "--game", "chess"); code != 2 || out != "" || !strings.HasPrefix(errs, `tapis sim: unknown game "chess"`) {
		t.Fatalf("--levels-table of no game: exit %d, stdout %q, stderr %q", code, out, errs)
	}
}
