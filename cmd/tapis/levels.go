package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"slices"
	"strings"
	"time"

	"tapis/game"
	"tapis/games"
	"tapis/sim"
)

// levelPairings are the comparisons of `tapis sim --levels-table`, each
// the first level against the second at every other seat: the ladder
// (normal above easy, hard above normal), hard against easy, and the
// cheating bot at hard's budget against easy, which with the row before
// gives how much of the gap to perfect information hard closes. cheat is
// that bot: "cheat", which sees every card and the future (the dice to
// roll, the order of Da Capo!'s cards face down), or "cheat-future",
// which sees every card in a hand or face up but not the future.
func levelPairings(cheat string) [][2]string {
	return [][2]string{{"normal", "easy"}, {"hard", "normal"}, {"hard", "easy"}, {cheat, "easy"}}
}

// levelCheats are the references --levels-table may measure the gap to.
var levelCheats = []string{"cheat", "cheat-future"}

// levelsRow is one game's row: its table size and runs, in levelPairings' order.
type levelsRow struct {
	title   string
	players int
	reps    []sim.Report
}

// levelsTableCmd is `tapis sim --levels-table`: every pairing of
// levelPairings in each game, duplicate deals (the rotations) of about n
// games each, and docs/bots.md's table of them in Markdown on stdout. The
// table depends only on the seed and n, so that running the command again
// checks the doc; how long it took goes to stderr.
func levelsTableCmd(ctx context.Context, names []string, players, n int, seed uint64, workers int, cheat string, stdout, stderr io.Writer) int {
	start := time.Now()
	if !slices.Contains(levelCheats, cheat) {
		fail(stderr, "sim", "--cheat %q: the gap is measured to %s", cheat, strings.Join(levelCheats, " or "))
		return 2
	}
	pairings := levelPairings(cheat)
	for _, name := range names {
		if games.Named(name) == nil {
			fail(stderr, "sim", "unknown game %q (have %s)", name, strings.Join(games.Names(), ", "))
			return 2
		}
	}
	// Each row is written when its game is done: a long run's first rows
	// are there to read before its last.
	writeLevelsHeader(stdout, pairings)
	for _, name := range names {
		g := games.Named(name)
		row := levelsRow{title: name, players: tableSize(g, players)}
		if e, ok := game.EntryOf(g); ok && e.Look.Title != "" {
			row.title = e.Look.Title
		}
		// Whole deals: n rounded up to the seatings.
		k := row.players
		games := (max(n, 1) + k - 1) / k * k
		for _, pair := range pairings {
			bots := []string{pair[0]}
			for len(bots) < row.players {
				bots = append(bots, pair[1])
			}
			began, last := time.Now(), time.Now()
			rep, err := sim.Run(ctx, sim.Config{Game: g, Players: row.players, Bots: bots, Games: games, Seed: seed, Workers: workers, Duplicate: true,
				Progress: func(done int, elapsed time.Duration) {
					if time.Since(last) >= 10*time.Second {
						last = time.Now()
						fmt.Fprintf(stderr, "tapis sim: %s %s against %s: %d/%d games\n", name, pair[0], pair[1], done, games)
					}
				}})
			if err != nil {
				fail(stderr, "sim", "%v", err)
				return 2
			}
			// Its figures too: a run stopped before the row is done still
			// leaves the pairings it finished.
			fmt.Fprintf(stderr, "tapis sim: %s %s against %s: %d games in %.0f s:%s\n", name, pair[0], pair[1], games, time.Since(began).Seconds(), levelsCell(rep, row.players))
			row.reps = append(row.reps, rep)
		}
		writeLevelsRow(stdout, row)
	}
	command := fmt.Sprintf("tapis sim --levels-table --games %d --seed %d", n, seed)
	if len(names) == 1 {
		command += " --game " + names[0]
	}
	if players > 0 {
		command += fmt.Sprintf(" --players %d", players)
	}
	if cheat != levelCheats[0] {
		command += " --cheat " + cheat
	}
	fmt.Fprintf(stdout, "\n(`%s`: duplicate deals, about %d games a pairing; "+
		"the first level's share of the wins, then its points a round less the other's, or at more than two players its points "+
		"as a share of theirs; 95%% intervals over deals.)\n", command, n)
	fmt.Fprintf(stderr, "tapis sim: the levels' table took %.0f s\n", time.Since(start).Seconds())
	return 0
}

// tableSize is the table a game's levels are compared at: players when
// given and allowed, else 2 where the game is played by two, else 4 (as
// Papayoo is mostly played), within the game's range.
func tableSize(g game.Game, players int) int {
	lo, hi := g.Players()
	if players >= lo && players <= hi {
		return players
	}
	if lo <= 2 {
		return 2
	}
	return min(max(4, lo), hi)
}

// writeLevelsHeader writes the head of docs/bots.md's table.
func writeLevelsHeader(w io.Writer, pairings [][2]string) {
	fmt.Fprint(w, "| game, table |")
	for _, p := range pairings {
		fmt.Fprintf(w, " %s against %s |", p[0], p[1])
	}
	fmt.Fprintf(w, " gap to `%s` that `hard` closes |\n", pairings[len(pairings)-1][0])
	fmt.Fprintln(w, "|---|"+strings.Repeat("---|", len(pairings)+1))
}

// writeLevelsRow writes a game's row of the table. At two players a cell
// is the first level's share of the wins and its points a round less the
// other's; at more, where one plays several, its points a round as a share
// of theirs, the measure that tells (Papayoo's penalties), and the gap
// closed is measured by it.
func writeLevelsRow(w io.Writer, row levelsRow) {
	table := fmt.Sprintf("%d players", row.players)
	if row.players > 2 {
		table = fmt.Sprintf("one against %d", row.players-1)
	}
	fmt.Fprintf(w, "| %s, %s |", row.title, table)
	for _, rep := range row.reps {
		fmt.Fprintf(w, "%s |", levelsCell(rep, row.players))
	}
	by := sim.ByShare
	if row.players > 2 {
		by = sim.ByPoints
	}
	g, iv, err := sim.GapClosed(row.reps[2], row.reps[3], by)
	if err != nil {
		fmt.Fprintln(w, " – |")
		return
	}
	fmt.Fprintf(w, " %.0f%% %s |\n", 100*g, interval(iv, 100, "%.0f%%"))
}

// levelsCell is a pairing's cell of the table, with its leading space.
func levelsCell(rep sim.Report, players int) string {
	p := rep.Pairing
	c := fmt.Sprintf(" %.1f%% %s;", 100*p.Share, interval(p.ShareCI95, 100, "%.1f%%"))
	if players > 2 {
		return c + fmt.Sprintf(" points %.0f%% %s", 100*p.PointsRatio, interval(p.PointsRatioCI95, 100, "%.0f%%"))
	}
	return c + fmt.Sprintf(" %+.2f %s points", p.PointsDiff, interval(p.PointsDiffCI95, 1, "%+.2f"))
}

// gapCmd is `tapis sim --gap HONEST.json,CHEAT.json`: the gap to the
// cheating bot that the honest one closes, as the levels' table's last
// column, from two runs saved apart (a long pairing run on its own, or on
// another machine). The runs must be of the same deals: the same seed,
// games and table, each with --duplicate --json.
func gapCmd(files string, stdout, stderr io.Writer) int {
	names := strings.Split(files, ",")
	if len(names) != 2 {
		fail(stderr, "sim", "--gap %q: two files, the honest bot's run and the cheat's, separated by a comma", files)
		return 2
	}
	var reps [2]sim.Report
	for i, name := range names {
		b, err := os.ReadFile(name)
		if err != nil {
			fail(stderr, "sim", "--gap: %v", err)
			return 2
		}
		if err := json.Unmarshal(b, &reps[i]); err != nil {
			fail(stderr, "sim", "--gap: %s is not a report of tapis sim --json: %v", name, err)
			return 2
		}
		if len(reps[i].Units) == 0 || reps[i].Pairing == nil {
			fail(stderr, "sim", "--gap: %s has no pairing to compare (run it with --duplicate --json)", name)
			return 2
		}
	}
	by, what := sim.ByShare, "the share of the wins"
	if len(reps[0].Seats) > 2 {
		by, what = sim.ByPoints, "points"
	}
	g, iv, err := sim.GapClosed(reps[0], reps[1], by)
	if err != nil {
		fail(stderr, "sim", "--gap: %v", err)
		return 2
	}
	fmt.Fprintf(stdout, "%s closes %.0f%% %s of the gap to %s, by %s (%s, %d games each)\n",
		reps[0].Seats[0].Bot, 100*g, interval(iv, 100, "%.0f%%"), reps[1].Seats[0].Bot, what, reps[0].Game, reps[0].Games)
	return 0
}
