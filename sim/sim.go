// Package sim plays many games between bots and measures them: wins with a
// 95% interval and the mean score per round with its own, per seat or per
// bot; with duplicate deals, every deal once per seating, so that the
// luck of the cards cancels out of the comparison.
package sim

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"runtime"
	"sync"
	"sync/atomic"
	"time"

	"tapis/bot"
	"tapis/game"
)

// Config is one simulation.
type Config struct {
	Game    game.Game
	Players int
	Options json.RawMessage
	// Bots names each seat's bot (bot.New); one name for every seat, or
	// one per seat.
	Bots  []string
	Games int
	Seed  uint64
	// Workers runs games in parallel (default: GOMAXPROCS). Results do not
	// depend on it: game i always has the same seeds.
	Workers int
	// Progress, when set, is called now and then with the games done.
	Progress func(done int, elapsed time.Duration)
	// MaxMoves bounds one game (default 1,000,000).
	MaxMoves int
	// Rotate moves the bots round the table game by game: in game i, bot
	// j sits in seat (i+j) mod Players, so that no bot keeps the first
	// seat's advantage. Results are then per bot, not per seat.
	Rotate bool
	// Shuffle rotates the bots too, and seats them in each of their
	// cyclic orders in turn, one order every Players games, so that
	// neither a seat nor a neighbour favours a bot: rotation alone keeps
	// who sits left of whom (who passes cards to whom in Papayoo, who
	// plays after whom), which decides a game between unequal players.
	// Over Players! games every bot sits in every seat and beside every
	// other, on each side, equally often.
	Shuffle bool
	// Duplicate plays each deal (each game seed) once per seating: game i
	// is deal i/k, seated k ways, where k is Seatings (the Players
	// rotations; with Shuffle every one of the Players! orders). Luck of
	// the deal then falls on every bot alike, and the intervals are taken
	// over deals, whose results vary far less than single games'. It
	// implies Rotate; Games must be a whole number of deals.
	Duplicate bool
	// OnGame, when set, is told each finished game's result and which
	// bot (index into Bots) sat in each seat: for ratings, which need the
	// games one by one. It is called from the workers, in no set order.
	OnGame func(i int, botAt []int, res game.Result)
}

// Seat is one seat's results, or one bot's when the bots rotate.
type Seat struct {
	Bot string `json:"bot"`
	// Wins counts every game won, shared or not; WinRate is Wins/Games.
	Wins    int        `json:"wins"`
	WinRate float64    `json:"win_rate"`
	CI95    [2]float64 `json:"ci95"`
	// Share counts a game shared by k winners as 1/k of a win, so that
	// the shares of a table add up to 1: the fair measure where ties are
	// common (Limits).
	Share     float64    `json:"share"`
	ShareCI95 [2]float64 `json:"share_ci95"`
	// MeanRoundScore is the mean of the seat's (bot's) round scores;
	// its interval is over games (deals when duplicate), a game's rounds
	// not being independent of each other.
	MeanRoundScore     float64  `json:"mean_round_score"`
	MeanRoundScoreCI95 Interval `json:"mean_round_score_ci95"`
}

// Report is a simulation's result.
type Report struct {
	Game           string  `json:"game"`
	Games          int     `json:"games"`
	GamesPerSecond float64 `json:"games_per_second"`
	Seats          []Seat  `json:"seats"`
	Moves          int64   `json:"moves"`
	Rounds         int64   `json:"rounds"`
	// MovesPerSecond is the whole run's moves over its wall-clock time,
	// every worker together.
	MovesPerSecond float64 `json:"moves_per_second"`
	// Workers are each worker's share of the run, in the order they
	// started: how fast one core plays the game, bots included.
	Workers []Worker `json:"workers"`
	// Deals and Seatings are a duplicate run's: Games is Deals × Seatings.
	Deals    int `json:"deals,omitempty"`
	Seatings int `json:"seatings,omitempty"`
	// Pairing compares the first bot with the others, when the bots move
	// round the table (Rotate, Shuffle or Duplicate).
	Pairing *Pairing `json:"pairing,omitempty"`

	// Units are the independent units' figures (deals, or games) of a
	// pairing, kept for comparisons between runs of the same seeds
	// (GapClosed), also between runs saved as JSON and read back.
	Units []Unit `json:"units,omitempty"`
	Seed  uint64 `json:"seed"`
}

// Worker is what one worker played. Which games a worker gets depends on
// timing, so these figures, unlike the rest, vary from run to run.
type Worker struct {
	Games int   `json:"games"`
	Moves int64 `json:"moves"`
	// Seconds is the wall-clock time the worker spent setting up and
	// playing its games; MovesPerSecond is Moves over it.
	Seconds        float64 `json:"seconds"`
	MovesPerSecond float64 `json:"moves_per_second"`
}

type tally struct {
	wins        []int
	shares      []int64 // in 840ths of a win, so that sums are exact
	roundScores []int64
	rounds      int64
	moves       int64
}

// shareUnit is one win: 840 divides by every number of winners up to 8.
const shareUnit = 840

// rotated is the bot sitting in seat s in game i of a rotating run.
func rotated(i, s, n int) int { return ((s-i)%n + n) % n }

// shuffled is the bot sitting in seat s in game i of a shuffled run: the
// bots go round the table as in a rotating run, in cyclic order number
// i/n (mod (n-1)!): bot 0 first, then permutation i/n of the others.
func shuffled(i, s, n int) int {
	orders := 1
	for m := 2; m < n; m++ {
		orders *= m
	}
	k := (i / n) % orders
	rest := make([]int, 0, n-1)
	for b := 1; b < n; b++ {
		rest = append(rest, b)
	}
	cycle := []int{0}
	for m := n - 1; m >= 1; m-- {
		orders /= m // now (m-1)!
		j := k / orders
		k %= orders
		cycle = append(cycle, rest[j])
		rest = append(rest[:j], rest[j+1:]...)
	}
	return cycle[rotated(i, s, n)]
}

func newTally(n int) tally {
	return tally{wins: make([]int, n), shares: make([]int64, n), roundScores: make([]int64, n)}
}

// Run plays the games. It stops early, with an error, if ctx is done.
// Its errors do not begin with "sim: ": the caller says what it was doing
// (`tapis sim: ...`), and an engine's or a bot's error already names its
// game or package.
func Run(ctx context.Context, c Config) (Report, error) {
	if err := c.check(); err != nil {
		return Report{}, err
	}
	workers := c.Workers
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	workers = min(workers, c.Games)
	start := time.Now()
	// Workers take the next game from a counter rather than a channel: a
	// hand-over between goroutines costs as much as a short game.
	var next atomic.Int64
	var stop atomic.Bool // set on the first error or cancellation
	var mu sync.Mutex
	finished := 0
	all := make([]*worker, workers)
	errs := make([]error, workers)
	var done sync.WaitGroup
	rec := newRecords(c.Games, c.Players)
	for k := range all {
		w := newWorker(&c)
		w.rec = rec
		all[k] = w
		done.Add(1)
		go func() {
			defer done.Done()
			for !stop.Load() {
				i := int(next.Add(1) - 1)
				if i >= c.Games {
					return
				}
				err := ctx.Err()
				if err == nil {
					err = w.play(i)
				}
				if err != nil {
					errs[k] = err
					stop.Store(true)
					return
				}
				if c.Progress != nil {
					mu.Lock()
					finished++
					c.Progress(finished, time.Since(start))
					mu.Unlock()
				}
			}
		}()
	}
	done.Wait()
	for _, err := range errs {
		if err != nil {
			return Report{}, err
		}
	}
	total := newTally(c.Players)
	var ws []Worker
	for _, w := range all {
		t := w.t
		for s := range t.wins {
			total.wins[s] += t.wins[s]
			total.shares[s] += t.shares[s]
			total.roundScores[s] += t.roundScores[s]
		}
		total.rounds += t.rounds
		total.moves += t.moves
		ws = append(ws, Worker{Games: w.games, Moves: t.moves, Seconds: w.busy.Seconds(), MovesPerSecond: perSecond(t.moves, w.busy)})
	}
	rep := c.report(total, rec, time.Since(start))
	rep.Workers = ws
	return rep, nil
}

// perSecond is n over d, or 0 for no time at all.
func perSecond(n int64, d time.Duration) float64 {
	if d <= 0 {
		return 0
	}
	return float64(n) / d.Seconds()
}

func (c *Config) check() error {
	if c.Game == nil {
		return errors.New("no game")
	}
	if err := game.CheckPlayers(c.Game, c.Players); err != nil {
		return err
	}
	if len(c.Bots) == 1 {
		for len(c.Bots) < c.Players {
			c.Bots = append(c.Bots, c.Bots[0])
		}
	}
	if len(c.Bots) != c.Players {
		return fmt.Errorf("%d bots for %d players", len(c.Bots), c.Players)
	}
	for _, name := range c.Bots {
		if _, err := bot.New(c.Game, name, 0, 0); err != nil {
			return err
		}
	}
	if c.Games <= 0 {
		return fmt.Errorf("%d games: want at least 1", c.Games)
	}
	if c.Duplicate {
		c.Rotate = true
		if k := c.Seatings(); c.Games%k != 0 {
			return fmt.Errorf("%d games in duplicate: want a whole number of deals of %d seatings (%d or %d games)",
				c.Games, k, c.Games/k*k, (c.Games/k+1)*k)
		}
	}
	if c.MaxMoves == 0 {
		c.MaxMoves = 1_000_000
	}
	// Options are checked once here rather than failing in every game.
	_, err := c.Game.New(game.Config{Players: c.Players, Options: c.Options, Seed: c.Seed})
	return err
}

// Seatings is how many ways a duplicate run seats each deal: the Players
// rotations, or with Shuffle all Players! orders; 1 when not duplicate.
func (c *Config) Seatings() int {
	if !c.Duplicate {
		return 1
	}
	if !c.Shuffle {
		return c.Players
	}
	k := 1
	for m := 2; m <= c.Players; m++ {
		k *= m
	}
	return k
}

func (c *Config) report(t tally, rec *records, elapsed time.Duration) Report {
	r := Report{Game: c.Game.Name(), Games: c.Games, GamesPerSecond: float64(c.Games) / elapsed.Seconds(), Moves: t.moves, Rounds: t.rounds,
		MovesPerSecond: perSecond(t.moves, elapsed), Seed: c.Seed}
	if c.Duplicate {
		r.Seatings = c.Seatings()
		r.Deals = c.Games / r.Seatings
	}
	per := rec.perUnit(c.Seatings())
	for s := 0; s < c.Players; s++ {
		seat := Seat{Bot: c.Bots[s], Wins: t.wins[s], WinRate: float64(t.wins[s]) / float64(c.Games)}
		seat.CI95 = Wilson(float64(t.wins[s]), c.Games)
		share := float64(t.shares[s]) / shareUnit
		seat.Share = share / float64(c.Games)
		seat.ShareCI95 = Wilson(share, c.Games)
		if t.rounds > 0 {
			seat.MeanRoundScore = float64(t.roundScores[s]) / float64(t.rounds)
		}
		_, seat.MeanRoundScoreCI95 = RatioCI(per.points[s], per.rounds)
		r.Seats = append(r.Seats, seat)
	}
	if c.Rotate {
		r.Units = per.pairingUnits()
		r.Pairing = c.pairing(r.Units)
	}
	return r
}

// mix derives a seed from two numbers (splitmix64's finaliser), so that
// neighbouring games get unrelated seeds.
func mix(a, b uint64) uint64 {
	z := a*0x9e3779b97f4a7c15 + b + 0x632be59bd9b4e019
	z = (z ^ z>>30) * 0xbf58476d1ce4e5b9
	z = (z ^ z>>27) * 0x94d049bb133111eb
	return z ^ z>>31
}
