package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"strings"
	"text/tabwriter"
	"time"

	"tapis/games"
	"tapis/sim"
)

// runSim is `tapis sim`: whole games between bots, with per-seat wins (95%
// interval) and mean round score.
func runSim(args []string, stdout, stderr io.Writer) int {
	fs := flags("sim", `Plays --games games between bots and prints each seat's wins (with a 95%
interval), share of wins and mean round score; --rotate and --shuffle move
the bots round the table, --ratings rates the bot levels.`)
	name := fs.String("game", "cabo", "game: "+strings.Join(games.Names(), ", "))
	players := fs.Int("players", 4, "number of seats")
	bots := fs.String("bots", "random", "comma-separated bot per seat (one name: every seat)")
	n := fs.Int("games", 1000, "games to play")
	seed := fs.Uint64("seed", 1, "seed of the whole run")
	options := fs.String("options", "", "the game's options object, as JSON")
	workers := fs.Int("workers", 0, "games played in parallel (default: all cores)")
	asJSON := fs.Bool("json", false, "print one JSON object")
	rotate := fs.Bool("rotate", false, "move the bots round the table game by game (results per bot, not per seat)")
	shuffle := fs.Bool("shuffle", false, "rotate, and seat the bots in each of their orders round the table in turn, so that no bot keeps a neighbour (implies --rotate)")
	ratings := fs.Bool("ratings", false, "rate the bot levels (--bots, default random,easy,normal,hard) from games against each other, shuffled; --game all rates every game")
	if status, ok := parse(fs, args, stdout, stderr); !ok {
		return status
	}
	if fs.NArg() > 0 {
		fail(stderr, "sim", "unexpected %q: every setting is a flag (tapis sim -h)", fs.Arg(0))
		return 2
	}
	if *ratings {
		levels := "random,easy,normal,hard"
		fs.Visit(func(f *flag.Flag) {
			if f.Name == "bots" {
				levels = *bots
			}
		})
		ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
		defer stop()
		return simRatings(ctx, *name, strings.Split(levels, ","), *n, *seed, *workers, stdout, stderr)
	}
	g := games.Named(*name)
	if g == nil {
		fail(stderr, "sim", "unknown game %q (have %s)", *name, strings.Join(games.Names(), ", "))
		return 2
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	last := time.Now()
	cfg := sim.Config{
		Game: g, Players: *players, Bots: strings.Split(*bots, ","), Games: *n, Seed: *seed,
		Workers: *workers, Rotate: *rotate || *shuffle, Shuffle: *shuffle,
		Progress: func(done int, elapsed time.Duration) {
			if time.Since(last) >= 2*time.Second {
				last = time.Now()
				fmt.Fprintf(stderr, "tapis sim: %d/%d games, %.0f games/s\n", done, *n, float64(done)/elapsed.Seconds())
			}
		},
	}
	if *options != "" {
		cfg.Options = json.RawMessage(*options)
	}
	rep, err := sim.Run(ctx, cfg)
	if err != nil {
		fail(stderr, "sim", "%v", err)
		return 2
	}
	if *asJSON {
		if err := json.NewEncoder(stdout).Encode(rep); err != nil {
			return 1
		}
		return 0
	}
	fmt.Fprintf(stdout, "%s, %d players, %d games (%d rounds, %d moves), %.0f games/s\n",
		rep.Game, *players, rep.Games, rep.Rounds, rep.Moves, rep.GamesPerSecond)
	tw := tabwriter.NewWriter(stdout, 0, 0, 2, ' ', tabwriter.AlignRight)
	first := "seat"
	if *rotate || *shuffle {
		first = "bot #"
	}
	fmt.Fprintln(tw, first+"\tbot\twins\twin rate\t95% interval\tshare\t95% interval\tmean round score\t")
	for s, seat := range rep.Seats {
		fmt.Fprintf(tw, "%d\t%s\t%d\t%.1f%%\t[%.1f%%, %.1f%%]\t%.1f%%\t[%.1f%%, %.1f%%]\t%.2f\t\n", s, seat.Bot, seat.Wins,
			100*seat.WinRate, 100*seat.CI95[0], 100*seat.CI95[1],
			100*seat.Share, 100*seat.ShareCI95[0], 100*seat.ShareCI95[1], seat.MeanRoundScore)
	}
	fmt.Fprintln(tw, "(share: a game shared by k winners counts 1/k of a win)")
	tw.Flush()
	return 0
}
