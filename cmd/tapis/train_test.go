package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"tapis/bot/learn"
)

// tapis train writes the weights learn.Train makes for its flags, on
// stdout or to --out, the same bytes each time; a game without a learned
// evaluator is a bad command line.
func TestTrain(t *testing.T) {
	want, err := learn.Train(learn.Settings{Seed: 3, Games: 60})
	if err != nil {
		t.Fatal(err)
	}
	code, out, errs := tapis("train", "--game", "papayoo", "--seed", "3", "--games", "60")
	if code != 0 || errs != "" || out != want.Format() {
		t.Fatalf("tapis train: exit %d, stderr %q, stdout not Train's weights:\n%s", code, errs, out)
	}
	if !strings.HasPrefix(out, "# tapis train --game papayoo --seed 3 --games 60\n") {
		t.Errorf("the weights do not start with the command that made them:\n%s", out)
	}
	file := filepath.Join(t.TempDir(), "w.txt")
	if code, _, errs := tapis("train", "--seed", "3", "--games", "60", "--out", file); code != 0 {
		t.Fatalf("tapis train --out: exit %d, %s", code, errs)
	}
	if data, err := os.ReadFile(file); err != nil || string(data) != out {
		t.Fatalf("--out wrote other bytes than stdout (%v)", err)
	}
	for _, args := range [][]string{{"train", "--game", "cabo"}, {"train", "--games", "0"}, {"train", "extra"}} {
		if code, _, errs := tapis(args...); code != 2 || !strings.HasPrefix(errs, "tapis train: ") {
			t.Errorf("tapis %v: exit %d, stderr %q; want 2 and one error line", args, code, errs)
		}
	}
}
