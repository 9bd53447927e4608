// Package sim plays many games between bots and measures them: wins with a
// 95% interval and the mean score per round, per seat.
package sim

import (
	"context"
	"encoding/json"
	"fmt"
	"math"
	"runtime"
	"sync"
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
	// MeanRoundScore is the mean of the seat's (bot's) round scores.
	MeanRoundScore float64 `json:"mean_round_score"`
}

// Report is a simulation's result.
type Report struct {
	Game           string  `json:"game"`
	Games          int     `json:"games"`
	GamesPerSecond float64 `json:"games_per_second"`
	Seats          []Seat  `json:"seats"`
	Moves          int64   `json:"moves"`
	Rounds         int64   `json:"rounds"`
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
	jobs := make(chan int)
	results := make(chan tally, workers)
	errs := make(chan error, workers)
	var done sync.WaitGroup
	var mu sync.Mutex
	finished := 0
	for w := 0; w < workers; w++ {
		done.Add(1)
		go func() {
			defer done.Done()
			t := newTally(c.Players)
			for i := range jobs {
				if err := c.play(i, &t); err != nil {
					errs <- err
					break
				}
				if c.Progress != nil {
					mu.Lock()
					finished++
					c.Progress(finished, time.Since(start))
					mu.Unlock()
				}
			}
			results <- t
		}()
	}
	var err error
feed:
	for i := 0; i < c.Games; i++ {
		select {
		case jobs <- i:
		case err = <-errs:
			break feed
		case <-ctx.Done():
			err = ctx.Err()
			break feed
		}
	}
	close(jobs)
	done.Wait()
	close(results)
	if err == nil {
		select {
		case err = <-errs:
		default:
		}
	}
	if err != nil {
		return Report{}, err
	}
	total := newTally(c.Players)
	for t := range results {
		for s := range t.wins {
			total.wins[s] += t.wins[s]
			total.shares[s] += t.shares[s]
			total.roundScores[s] += t.roundScores[s]
		}
		total.rounds += t.rounds
		total.moves += t.moves
	}
	return c.report(total, time.Since(start)), nil
}

func (c *Config) check() error {
	if c.Game == nil {
		return fmt.Errorf("sim: no game")
	}
	if err := game.CheckPlayers(c.Game, c.Players); err != nil {
		return fmt.Errorf("sim: %v", err)
	}
	if len(c.Bots) == 1 {
		for len(c.Bots) < c.Players {
			c.Bots = append(c.Bots, c.Bots[0])
		}
	}
	if len(c.Bots) != c.Players {
		return fmt.Errorf("sim: %d bots for %d players", len(c.Bots), c.Players)
	}
	for _, name := range c.Bots {
		if _, err := bot.New(c.Game, name, 0, 0); err != nil {
			return fmt.Errorf("sim: %v", err)
		}
	}
	if c.Games <= 0 {
		return fmt.Errorf("sim: --games must be at least 1")
	}
	if c.MaxMoves == 0 {
		c.MaxMoves = 1_000_000
	}
	// Options are checked once here rather than failing in every game.
	_, err := c.Game.New(game.Config{Players: c.Players, Options: c.Options, Seed: c.Seed})
	return err
}

// play plays game i; its seeds depend only on (Seed, i).
func (c *Config) play(i int, t *tally) error {
	seed := mix(c.Seed, uint64(i))
	st, err := c.Game.New(game.Config{Players: c.Players, Options: c.Options, Seed: seed})
	if err != nil {
		return err
	}
	// botAt[s] is the bot (index into c.Bots) sitting in seat s.
	botAt := make([]int, c.Players)
	players := make([]game.Player, c.Players)
	for s := range players {
		botAt[s] = s
		switch {
		case c.Shuffle:
			botAt[s] = shuffled(i, s, c.Players)
		case c.Rotate:
			botAt[s] = rotated(i, s, c.Players)
		}
		if players[s], err = bot.New(c.Game, c.Bots[botAt[s]], game.Seat(s), mix(seed, uint64(s)+1)); err != nil {
			return err
		}
	}
	rounds := 0
	moves, err := bot.PlayWatch(st, players, c.MaxMoves, func(st game.State) {
		if res := st.Result(); res.Rounds != rounds {
			rounds = res.Rounds
			t.rounds++
			for s, v := range res.RoundScores {
				t.roundScores[botAt[s]] += int64(v)
			}
		}
	})
	t.moves += int64(moves)
	if err != nil {
		return fmt.Errorf("sim: game %d (seed %d): %v", i, seed, err)
	}
	if c.OnGame != nil {
		c.OnGame(i, botAt, st.Result())
	}
	winners := st.Result().Winners
	for _, w := range winners {
		t.wins[botAt[w]]++
		t.shares[botAt[w]] += shareUnit / int64(len(winners))
	}
	return nil
}

func (c *Config) report(t tally, elapsed time.Duration) Report {
	r := Report{Game: c.Game.Name(), Games: c.Games, GamesPerSecond: float64(c.Games) / elapsed.Seconds(), Moves: t.moves, Rounds: t.rounds}
	for s := 0; s < c.Players; s++ {
		seat := Seat{Bot: c.Bots[s], Wins: t.wins[s], WinRate: float64(t.wins[s]) / float64(c.Games)}
		seat.CI95 = Wilson(float64(t.wins[s]), c.Games)
		share := float64(t.shares[s]) / shareUnit
		seat.Share = share / float64(c.Games)
		seat.ShareCI95 = Wilson(share, c.Games)
		if t.rounds > 0 {
			seat.MeanRoundScore = float64(t.roundScores[s]) / float64(t.rounds)
		}
		r.Seats = append(r.Seats, seat)
	}
	return r
}

// Wilson is the 95% Wilson score interval of k successes in n trials. A
// fractional k (shared wins) gets the interval of its proportion, which
// errs wide: a half win varies less than a coin toss.
func Wilson(k float64, n int) [2]float64 {
	if n == 0 {
		return [2]float64{0, 1}
	}
	const z = 1.959963984540054
	p, nf := k/float64(n), float64(n)
	den := 1 + z*z/nf
	mid := (p + z*z/(2*nf)) / den
	half := z * math.Sqrt(p*(1-p)/nf+z*z/(4*nf*nf)) / den
	lo, hi := math.Max(0, mid-half), math.Min(1, mid+half)
	// Rounding must not push a bound past an extreme observation.
	if k <= 0 {
		lo = 0
	}
	if k >= nf {
		hi = 1
	}
	return [2]float64{lo, hi}
}

// mix derives a seed from two numbers (splitmix64's finaliser), so that
// neighbouring games get unrelated seeds.
func mix(a, b uint64) uint64 {
	z := a*0x9e3779b97f4a7c15 + b + 0x632be59bd9b4e019
	z = (z ^ z>>30) * 0xbf58476d1ce4e5b9
	z = (z ^ z>>27) * 0x94d049bb133111eb
	return z ^ z>>31
}
