package store

import (
	"context"
	"errors"
	"fmt"
	"time"
)

// What the store keeps of rated games: each player's rating per game, the
// result of every rated match (a row per seat, with the ratings before and
// after), and the anchors, the bots' fixed ratings. The rating maths is
// not here (package rating): the store keeps numbers and makes a match's
// read-update-write one transaction, so that two nodes finishing games
// with a shared player at once never lose an update.

// ErrRecorded is returned by RecordRated when the match was recorded
// already (a replayed end, a second node): nothing was written, and the
// caller may take the match as rated.
var ErrRecorded = errors.New("store: rated match recorded already")

// Standing is one player's rating in one game.
type Standing struct {
	Player string
	Game   string
	// Mu and Sigma are the rating (package rating's Rating); Ordinal is
	// Mu − 3·Sigma, what leaderboards sort by, kept by the store.
	Mu, Sigma float64
	// Games counts the rated matches played, Wins those where the
	// player ranked first (shared or not).
	Games, Wins int
	// Fixed marks an anchor (a bot level): RecordRated counts its games
	// and wins but never changes its Mu and Sigma.
	Fixed bool
	// New: the player has no rating in this game yet (RecordRated's
	// before): Mu and Sigma are zero, for the caller to start from its
	// default.
	New bool
}

// Ordinal is Mu − 3·Sigma, the conservative value leaderboards sort by.
func (s Standing) Ordinal() float64 { return s.Mu - 3*s.Sigma }

// RatedSeat is one seat's result in a rated match.
type RatedSeat struct {
	Seat   int
	Player string
	// Rank is the place, 0 first; equal ranks tie.
	Rank  int
	Score int
}

// RatedMatch is a finished rated match as RecordRated records it.
type RatedMatch struct {
	Table string
	No    int
	Game  string
	At    time.Time
	Seats []RatedSeat
}

// Result is one seat's row of a recorded rated match: the profile's
// history and recent games are made of these.
type Result struct {
	Table string
	No    int
	Game  string
	Seat  int
	// Players is how many seats the match had.
	Players int
	Player  string
	Rank    int
	Score   int
	// The player's rating before and after the match.
	MuBefore, SigmaBefore, MuAfter, SigmaAfter float64
	At                                         time.Time
}

// Ranked is a leaderboard line: a standing and its rank among the
// players shown (1 first).
type Ranked struct {
	Standing
	Rank int
}

// Profile is what a player's page shows of their rated games.
type Profile struct {
	// Standings has one entry per game played rated, by game name.
	Standings []Standing
	// History is the player's results, oldest first (the last
	// HistoryLimit of them): the points of the rating charts.
	History []Result
	// Recent is the player's last results, newest first.
	Recent []Result
}

// HistoryLimit bounds the results a profile's History holds.
const HistoryLimit = 1000

// Ratings keeps rated games.
type Ratings interface {
	// RecordRated records rated match m in one transaction: unless
	// (m.Table, m.No) is recorded already (ErrRecorded, nothing
	// written), it reads the standings of m's players in m.Game (locked
	// against other writers until it commits; New for those with none),
	// calls update with them in the order of m.Seats, and writes the Mu
	// and Sigma update returns, one games more, a win more for rank 0,
	// and a Result per seat. Fixed standings keep their Mu and Sigma
	// whatever update says. A player may sit at two seats only if fixed
	// (two bots of one level). An error from update, or a slice of the
	// wrong length, writes nothing.
	RecordRated(ctx context.Context, m RatedMatch, update func(before []Standing) ([]Standing, error)) error
	// SetAnchor writes a fixed standing (a bot level's rating in a
	// game), keeping its games and wins if it exists.
	SetAnchor(ctx context.Context, player, game string, mu, sigma float64) error
	// Leaderboard returns the players (anchors left out) with at least
	// minGames rated games in game, best Ordinal first (ties by player
	// id), limit of them from offset, with their ranks.
	Leaderboard(ctx context.Context, game string, minGames, limit, offset int) ([]Ranked, error)
	// Rank returns a player's line as Leaderboard would show it;
	// ErrNotFound if they have fewer than minGames games in game.
	Rank(ctx context.Context, game, player string, minGames int) (Ranked, error)
	// Profile returns a player's standings, rating history and last
	// recent results (empty for a player with no rated game).
	Profile(ctx context.Context, player string, recent int) (Profile, error)
	// MatchResults returns the rows recorded for a rated match, by seat
	// (none if it was not recorded).
	MatchResults(ctx context.Context, table string, no int) ([]Result, error)
}

// CheckRated refuses a match that cannot be recorded: every store's
// RecordRated calls it first.
func CheckRated(m RatedMatch) error {
	if len(m.Seats) < 2 {
		return fmt.Errorf("store: rated match %s/%d: %d seats, want at least 2", m.Table, m.No, len(m.Seats))
	}
	for _, s := range m.Seats {
		if s.Player == "" {
			return fmt.Errorf("store: rated match %s/%d: seat %d has no player", m.Table, m.No, s.Seat)
		}
	}
	return nil
}

// Updated applies update to before and checks its answer: the new Mu and
// Sigma per seat, fixed ones kept, one game more and a win for rank 0.
// Every store's RecordRated writes what it returns.
func Updated(m RatedMatch, before []Standing, update func([]Standing) ([]Standing, error)) ([]Standing, error) {
	in := make([]Standing, len(before))
	copy(in, before)
	after, err := update(in)
	if err != nil {
		return nil, fmt.Errorf("store: rated match %s/%d: %w", m.Table, m.No, err)
	}
	if len(after) != len(before) {
		return nil, fmt.Errorf("store: rated match %s/%d: %d ratings for %d seats", m.Table, m.No, len(after), len(before))
	}
	seen := map[string]bool{}
	for _, b := range before {
		if seen[b.Player] && !b.Fixed {
			return nil, fmt.Errorf("store: rated match %s/%d: player %s is seated twice", m.Table, m.No, b.Player)
		}
		seen[b.Player] = true
	}
	out := make([]Standing, len(before))
	for i, b := range before {
		o := b
		o.New = false
		if !b.Fixed {
			o.Mu, o.Sigma = after[i].Mu, after[i].Sigma
		}
		o.Games++
		if m.Seats[i].Rank == 0 {
			o.Wins++
		}
		out[i] = o
	}
	return out, nil
}
