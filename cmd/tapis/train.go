package main

import (
	"fmt"
	"io"
	"os"

	"tapis/bot/learn"
)

// runTrain is `tapis train --game papayoo --seed S [--games N] [--out FILE]`:
// it trains a game's learned evaluator by self-play and writes its weights,
// the file bot/learn embeds (bot/learn/papayoo.txt for the committed
// settings).
func runTrain(args []string, stdout, stderr io.Writer) int {
	fl := flags("train", `Trains a game's learned leaf evaluator (bot/learn) by self-play and writes
its weights file: the same flags give the same bytes. With the committed
settings (--seed 1 and the default --games) it writes bot/learn/papayoo.txt
as committed; the search level hard+learn uses that file.`)
	game := fl.String("game", "papayoo", "the game (only papayoo has a learned evaluator)")
	seed := fl.Uint64("seed", learn.Committed.Seed, "the self-play's seed")
	n := fl.Int("games", learn.Committed.Games, "rounds of self-play")
	out := fl.String("out", "-", "the weights file to write (- for standard output)")
	if status, ok := parse(fl, args, stdout, stderr); !ok {
		return status
	}
	if fl.NArg() != 0 {
		fail(stderr, "train", "unexpected arguments %q", fl.Args())
		return 2
	}
	if *game != "papayoo" {
		fail(stderr, "train", "%q has no learned evaluator (only papayoo)", *game)
		return 2
	}
	if *n < 1 {
		fail(stderr, "train", "--games %d: want at least 1", *n)
		return 2
	}
	m, err := learn.Train(learn.Settings{Seed: *seed, Games: *n})
	if err != nil {
		fail(stderr, "train", "%v", err)
		return 1
	}
	if *out == "-" {
		fmt.Fprint(stdout, m.Format())
		return 0
	}
	if err := os.WriteFile(*out, []byte(m.Format()), 0o644); err != nil {
		fail(stderr, "train", "%v", err)
		return 1
	}
	return 0
}
