package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"math"
	"os"
	"os/signal"
	"strings"
	"text/tabwriter"
	"time"

	"tapis/games"
	"tapis/sim"
)

// runSim is `tapis sim`: whole games between bots, with per-seat wins,
// shares and mean round scores, each with its 95% interval, and the first
// bot against the others when the bots move round the table.
func runSim(args []string, stdout, stderr io.Writer) int {
	fs := flags("sim", `Plays --games games between bots and prints each seat's wins, share of wins
and mean round score, each with a 95% interval; --rotate and --shuffle move
the bots round the table, --duplicate plays every deal in every seating,
--ratings rates the bot levels, --levels-table measures them against each
other (docs/bots.md's table).`)
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
	duplicate := fs.Bool("duplicate", false, "play each deal once per seating (the rotations; with --shuffle every order), so that the deal's luck cancels; intervals over deals (implies --rotate)")
	levelsTable := fs.Bool("levels-table", false, "measure the levels against each other, in duplicate, --games games a pairing, and print docs/bots.md's table (--game: default all)")
	cheat := fs.String("cheat", "cheat", "with --levels-table, the bot whose gap to easy hard is measured against: cheat (every card, and the future: dice to roll, cards face down) or cheat-future (every card in a hand or face up, not the future)")
	gap := fs.String("gap", "", "HONEST.json,CHEAT.json: how much of the gap to the cheating bot the honest one closes, from two runs saved with --duplicate --json on the same seed and games (the levels' table's last figure, for pairings run apart)")
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
	set := map[string]bool{}
	fs.Visit(func(f *flag.Flag) { set[f.Name] = true })
	if set["gap"] {
		return gapCmd(*gap, stdout, stderr)
	}
	if set["cheat"] && !*levelsTable {
		fail(stderr, "sim", "--cheat names the levels' table's reference: it goes with --levels-table")
		return 2
	}
	if *levelsTable {
		names := games.Names()
		if set["game"] {
			names = []string{*name}
		}
		table := 0
		if set["players"] {
			table = *players
		}
		ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
		defer stop()
		return levelsTableCmd(ctx, names, table, *n, *seed, *workers, *cheat, stdout, stderr)
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
		Workers: *workers, Rotate: *rotate || *shuffle || *duplicate, Shuffle: *shuffle, Duplicate: *duplicate,
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
	printSim(stdout, rep, *players, cfg.Rotate)
	return 0
}

// printSim writes a report as text: the run, a line per seat (per bot when
// they rotate), and the first bot against the others.
func printSim(w io.Writer, rep sim.Report, players int, rotate bool) {
	fmt.Fprintf(w, "%s, %d players, %d games (%d rounds, %d moves), %.0f games/s\n",
		rep.Game, players, rep.Games, rep.Rounds, rep.Moves, rep.GamesPerSecond)
	if rep.Deals > 0 {
		fmt.Fprintf(w, "duplicate: %d deals, each in %d seatings\n", rep.Deals, rep.Seatings)
	}
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	first := "seat"
	if rotate {
		first = "bot #"
	}
	fmt.Fprintln(tw, first+"\tbot\twins\twin rate\t95% interval\tshare\t95% interval\tmean round score\t95% interval\t")
	for s, seat := range rep.Seats {
		fmt.Fprintf(tw, "%d\t%s\t%d\t%.1f%%\t%s\t%.1f%%\t%s\t%.2f\t%s\t\n", s, seat.Bot, seat.Wins,
			100*seat.WinRate, interval(seat.CI95, 100, "%.1f%%"),
			100*seat.Share, interval(seat.ShareCI95, 100, "%.1f%%"), seat.MeanRoundScore, interval(seat.MeanRoundScoreCI95, 1, "%.2f"))
	}
	fmt.Fprintln(tw, "(share: a game shared by k winners counts 1/k of a win)")
	tw.Flush()
	if p := rep.Pairing; p != nil {
		over := fmt.Sprintf("%d games", p.Units)
		if rep.Deals > 0 {
			over = fmt.Sprintf("%d deals", p.Units)
		}
		fmt.Fprintf(w, "%s against %s, intervals over %s:\n", p.Bot, strings.Join(p.Against, ","), over)
		fmt.Fprintf(w, "  share %.1f%% %s (even: %.1f%%)\n", 100*p.Share, interval(p.ShareCI95, 100, "%.1f%%"), 100*p.Even)
		fmt.Fprintf(w, "  points a round %+.2f %s against the others'", p.PointsDiff, interval(p.PointsDiffCI95, 1, "%+.2f"))
		if p.PointsRatio != 0 {
			fmt.Fprintf(w, "; %.1f%% %s of theirs", 100*p.PointsRatio, interval(p.PointsRatioCI95, 100, "%.1f%%"))
		}
		fmt.Fprintln(w)
	}
}

// interval writes a 95% interval, its bounds scaled and formatted; a bound
// that cannot be known (one game) is "?".
func interval(iv [2]float64, scale float64, format string) string {
	b := [2]string{"?", "?"}
	for k, v := range iv {
		if !math.IsInf(v, 0) && !math.IsNaN(v) {
			b[k] = fmt.Sprintf(format, scale*v)
		}
	}
	return "[" + b[0] + ", " + b[1] + "]"
}
