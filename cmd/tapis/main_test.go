package main

import (
	"bytes"
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

func tapis(args ...string) (int, string, string) {
	var out, errb bytes.Buffer
	code := run(args, &out, &errb)
	return code, out.String(), errb.String()
}

func TestReplayExitCodes(t *testing.T) {
	dir := t.TempDir()
	good := filepath.Join(dir, "good.json")
	os.WriteFile(good, []byte(`{"game":"cabo","players":2,"seed":1,"moves":[{"seat":1,"move":{"type":"draw"}}]}`), 0o644)
	code, out, _ := tapis("replay", good)
	if code != 0 || !strings.Contains(out, `"rejected"`) {
		t.Fatalf("valid script with a refused move: exit %d, %s", code, out)
	}
	bad := filepath.Join(dir, "bad.json")
	os.WriteFile(bad, []byte(`{"game":"go"}`), 0o644)
	code, out, errs := tapis("replay", bad)
	if code != 2 || out != "" || !strings.Contains(errs, "unknown game") {
		t.Fatalf("invalid script: exit %d, stdout %q, stderr %q", code, out, errs)
	}
	if code, _, _ := tapis("replay", filepath.Join(dir, "missing.json")); code != 2 {
		t.Fatalf("missing file: exit %d", code)
	}
}

func TestSimJSON(t *testing.T) {
	code, out, errs := tapis("sim", "--game", "cabo", "--players", "2", "--bots", "heuristic,random", "--games", "50", "--seed", "1", "--json")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	var rep struct {
		Game  string `json:"game"`
		Games int    `json:"games"`
		Seats []struct {
			Bot  string     `json:"bot"`
			Wins int        `json:"wins"`
			CI   [2]float64 `json:"ci95"`
		} `json:"seats"`
	}
	if err := json.Unmarshal([]byte(out), &rep); err != nil {
		t.Fatalf("%v: %s", err, out)
	}
	if rep.Game != "cabo" || rep.Games != 50 || len(rep.Seats) != 2 || rep.Seats[0].Bot != "heuristic" {
		t.Fatalf("report %+v", rep)
	}
	if rep.Seats[0].Wins+rep.Seats[1].Wins < 50 {
		t.Fatalf("wins do not add up: %+v", rep.Seats)
	}
}

func TestSimRejectsBadFlags(t *testing.T) {
	for _, args := range [][]string{
		{"sim", "--game", "chess"},
		{"sim", "--players", "9"},
		{"sim", "--bots", "genius"},
		{"sim", "--players", "3", "--bots", "random,random"},
		{"sim", "--options", `{"hand_size":2}`},
		{"nope"},
	} {
		if code, _, errs := tapis(args...); code != 2 || errs == "" {
			t.Errorf("%v: exit %d, stderr %q", args, code, errs)
		}
	}
}

// tapis sim --ratings rates each level it is given, in every game asked
// for; the heuristic beats random at Limits, so it rates above it.
func TestSimRatings(t *testing.T) {
	code, out, errs := tapis("sim", "--ratings", "--game", "limits", "--players", "2", "--bots", "random,easy", "--games", "30")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	var mu = map[string]float64{}
	for _, line := range strings.Split(out, "\n") {
		f := strings.Fields(line)
		if len(f) == 6 && f[0] == "limits" {
			v, err := strconv.ParseFloat(f[2], 64)
			if err != nil {
				t.Fatalf("%q: %v", line, err)
			}
			mu[f[1]] = v
		}
	}
	if len(mu) != 2 || mu["easy"] <= mu["random"] {
		t.Fatalf("ratings %v from:\n%s", mu, out)
	}
}

// --json tells the speed: moves and moves/s of the whole run, and each
// worker's games, moves, busy seconds and moves/s, which add up.
func TestSimJSONSpeed(t *testing.T) {
	code, out, errs := tapis("sim", "--game", "papayoo", "--players", "4", "--games", "40", "--workers", "2", "--json")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	var rep struct {
		Games          int     `json:"games"`
		Moves          int64   `json:"moves"`
		MovesPerSecond float64 `json:"moves_per_second"`
		Workers        []struct {
			Games          int     `json:"games"`
			Moves          int64   `json:"moves"`
			Seconds        float64 `json:"seconds"`
			MovesPerSecond float64 `json:"moves_per_second"`
		} `json:"workers"`
	}
	if err := json.Unmarshal([]byte(out), &rep); err != nil {
		t.Fatalf("%v: %s", err, out)
	}
	if rep.Moves <= 0 || rep.MovesPerSecond <= 0 || len(rep.Workers) != 2 {
		t.Fatalf("report %s", out)
	}
	games, moves := 0, int64(0)
	for _, w := range rep.Workers {
		games += w.Games
		moves += w.Moves
		if w.Moves > 0 && (w.Seconds <= 0 || math.Abs(w.MovesPerSecond*w.Seconds-float64(w.Moves)) > 1e-6*float64(w.Moves)) {
			t.Fatalf("worker %+v: moves/s is not moves over seconds", w)
		}
	}
	if games != rep.Games || moves != rep.Moves {
		t.Fatalf("workers played %d games, %d moves; the run %d, %d", games, moves, rep.Games, rep.Moves)
	}
}

// `tapis help` lists every command with a line each, on stdout, exit 0;
// `tapis` alone says the same on stderr and exits 2, as any command line
// that names no command; -h and --help are help.
func TestHelp(t *testing.T) {
	code, out, _ := tapis("help")
	if code != 0 {
		t.Fatalf("tapis help: exit %d", code)
	}
	for _, c := range commands() {
		if !regexp.MustCompile(`(?m)^  ` + c.name + ` +\S.*$`).MatchString(out) {
			t.Errorf("tapis help has no line for %s:\n%s", c.name, out)
		}
	}
	for _, args := range [][]string{{"-h"}, {"--help"}, {"-help"}} {
		if code, o, _ := tapis(args...); code != 0 || o != out {
			t.Errorf("tapis %s: exit %d, stdout %q; want tapis help's", args[0], code, o)
		}
	}
	code, o, errs := tapis()
	if code != 2 || o != "" || errs != out {
		t.Errorf("tapis alone: exit %d, stdout %q, stderr %q; want 2 and tapis help's list on stderr", code, o, errs)
	}
	code, _, errs = tapis("nope")
	if code != 2 || !strings.HasPrefix(errs, `tapis: unknown command "nope"`) || !strings.Contains(errs, out) {
		t.Errorf("tapis nope: exit %d, stderr %q", code, errs)
	}
}

// Every command's -h (and tapis help COMMAND) prints its usage line and
// its flags on stdout and exits 0.
func TestCommandHelp(t *testing.T) {
	for _, c := range commands() {
		code, out, errs := tapis(c.name, "-h")
		if code != 0 || errs != "" || !strings.HasPrefix(out, "usage: tapis "+c.name+" ") {
			t.Errorf("tapis %s -h: exit %d, stdout %q, stderr %q", c.name, code, out, errs)
		}
		if c.name != "replay" && !strings.Contains(out, "\nflags:\n") {
			t.Errorf("tapis %s -h tells no flags: %s", c.name, out)
		}
		if code, o, _ := tapis("help", c.name); code != 0 || o != out {
			t.Errorf("tapis help %s: exit %d, %q; want tapis %s -h's", c.name, code, o, c.name)
		}
	}
	if code, _, errs := tapis("help", "nope"); code != 2 || !strings.HasPrefix(errs, "tapis help: unknown command") {
		t.Errorf("tapis help nope: exit %d, %q", code, errs)
	}
}

// An error is said once, with one prefix: "tapis CMD: " and the words,
// never the command's or its package's name again ("tapis sim: sim: ...").
func TestOnePrefix(t *testing.T) {
	dir := t.TempDir()
	bad := filepath.Join(dir, "bad.json")
	os.WriteFile(bad, []byte(`{"game":"go","players":2,"moves":[]}`), 0o644)
	options := filepath.Join(dir, "options.json")
	os.WriteFile(options, []byte(`{"game":"cabo","players":2,"options":{"hand_size":2},"moves":[]}`), 0o644)
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"sim", "--players", "9"}, "tapis sim: cabo: 9 players: the game takes 2 to 5\n"},
		{[]string{"sim", "--games", "0"}, "tapis sim: 0 games: want at least 1\n"},
		{[]string{"sim", "--players", "3", "--bots", "random,random"}, "tapis sim: 2 bots for 3 players\n"},
		{[]string{"sim", "--game", "chess"}, `tapis sim: unknown game "chess"`},
		{[]string{"sim", "--bogus"}, "tapis sim: flag provided but not defined: -bogus"},
		{[]string{"replay", bad}, `tapis replay: unknown game "go"` + "\n"},
		{[]string{"replay", options}, "tapis replay: cabo: options: hand_size 2"},
		{[]string{"replay", "a", "b"}, "tapis replay: want one FILE"},
		{[]string{"check", "--db", filepath.Join(dir, "none.db")}, "tapis check: stat "},
		{[]string{"serve", "--trusted-proxy", "nonsense"}, "tapis serve: --trusted-proxy: "},
		{[]string{"loadtest"}, "tapis loadtest: --url is required\n"},
	} {
		code, _, errs := tapis(tc.args...)
		if code != 2 || !strings.HasPrefix(errs, tc.want) {
			t.Errorf("tapis %s: exit %d, stderr %q; want 2 and %q", strings.Join(tc.args, " "), code, errs, tc.want)
		}
		if lines := strings.Split(strings.TrimSpace(errs), "\n"); len(lines) != 1 {
			t.Errorf("tapis %s: %d lines on stderr, want one: %q", strings.Join(tc.args, " "), len(lines), errs)
		}
		if regexp.MustCompile(`^tapis (\w+): (tapis )?(\w+: )?(sim|replay|check|serve|loadtest): `).MatchString(errs) {
			t.Errorf("tapis %s: a doubled prefix: %q", strings.Join(tc.args, " "), errs)
		}
	}
}
