package sim

import (
	"fmt"
	"time"

	"tapis/bot"
	"tapis/game"
)

// worker plays games one after another and adds them up. What it keeps
// from game to game (the seats, the bots when they can restart, the
// result it reads scores into) is what lets a game cost no allocation but
// its state's: moves cost none at all.
type worker struct {
	c *Config
	t tally
	m match // the game being played, its seats reused for the next
	// games and busy are the worker's own count and time spent playing,
	// for the per-worker speed.
	games int
	busy  time.Duration
	// res is reused to read the score at each round's end.
	res game.Result
	// rec, when set, is told each game's figures, for intervals.
	rec *records
}

func newWorker(c *Config) *worker { return &worker{c: c, t: newTally(c.Players)} }

// match is one game ready to play: its state and who sits where.
type match struct {
	i       int
	seed    uint64
	st      game.State
	botAt   []int // botAt[s] is the bot (index into Config.Bots) in seat s
	players []game.Player
}

// setup deals game i and seats its bots in m; its seeds depend only on
// (Seed, i), and in a duplicate run only on (Seed, i's deal). A bot already in m's seat is restarted rather than made
// anew when it is the same bot and can restart (bot.Restarter).
func (c *Config) setup(i int, m *match) error {
	// The deal and which of its seatings: game i itself, unless duplicate.
	deal, seating := i, i
	if k := c.Seatings(); c.Duplicate {
		deal, seating = i/k, i%k
	}
	m.i, m.seed = i, mix(c.Seed, uint64(deal))
	var err error
	m.st, err = c.Game.New(game.Config{Players: c.Players, Options: c.Options, Seed: m.seed})
	if err != nil {
		return err
	}
	if len(m.players) != c.Players {
		m.botAt = make([]int, c.Players)
		m.players = make([]game.Player, c.Players)
	}
	for s := range m.players {
		prev := m.botAt[s]
		m.botAt[s] = s
		switch {
		case c.Shuffle:
			m.botAt[s] = shuffled(seating, s, c.Players)
		case c.Rotate:
			m.botAt[s] = rotated(seating, s, c.Players)
		}
		seed := mix(m.seed, uint64(s)+1)
		if r, ok := m.players[s].(bot.Restarter); ok && c.Bots[prev] == c.Bots[m.botAt[s]] {
			r.Restart(seed)
			continue
		}
		if m.players[s], err = bot.New(c.Game, c.Bots[m.botAt[s]], game.Seat(s), seed); err != nil {
			return err
		}
	}
	return nil
}

// play plays game i and adds it to the tally.
func (w *worker) play(i int) error {
	start := time.Now()
	err := w.c.setup(i, &w.m)
	if err == nil {
		err = w.run(&w.m)
	}
	w.busy += time.Since(start)
	return err
}

// run plays a set-up game to its end and adds it to the tally. The score
// is read only when a round ends (Rounds changes), and into w.res, so
// that a move costs nothing but the move.
func (w *worker) run(m *match) error {
	counter, _ := m.st.(interface{ Rounds() int })
	writer, _ := m.st.(game.ResultWriter)
	read := func() {
		if writer != nil {
			writer.ResultTo(&w.res)
		} else {
			w.res = m.st.Result()
		}
	}
	rounds := 0
	moves, err := bot.PlayWatch(m.st, m.players, w.c.MaxMoves, func(st game.State) {
		if counter != nil {
			if counter.Rounds() == rounds {
				return
			}
			read()
		} else if read(); w.res.Rounds == rounds {
			return
		}
		rounds = w.res.Rounds
		w.t.rounds++
		for s, v := range w.res.RoundScores {
			w.t.roundScores[m.botAt[s]] += int64(v)
		}
		w.rec.round(m, w.res.RoundScores)
	})
	w.t.moves += int64(moves)
	if err != nil {
		return fmt.Errorf("%s game %d (seed %d): %v", w.c.Game.Name(), m.i, m.seed, err)
	}
	w.games++
	if w.c.OnGame != nil {
		// OnGame may keep what it is given: it gets its own copies.
		w.c.OnGame(m.i, append([]int(nil), m.botAt...), m.st.Result())
	}
	read()
	for _, s := range w.res.Winners {
		w.t.wins[m.botAt[s]]++
		w.t.shares[m.botAt[s]] += shareUnit / int64(len(w.res.Winners))
	}
	w.rec.won(m, w.res.Winners)
	return nil
}
