package main

import (
	"bytes"
	"encoding/json"
	"math"
	"os"
	"path/filepath"
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
