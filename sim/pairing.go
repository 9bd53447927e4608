package sim

import (
	"errors"
	"fmt"
	"math"

	"tapis/game"
)

// records are each game's figures per bot, for the intervals: a game is
// written by the one worker that plays it, so they need no lock, and are
// read when every worker is done.
type records struct {
	n      int
	shares []int32 // [game*n+bot], in shareUnit ths of a win
	points []int32 // [game*n+bot], the game's round scores added up
	rounds []int32 // [game]
}

func newRecords(games, n int) *records {
	return &records{n: n, shares: make([]int32, games*n), points: make([]int32, games*n), rounds: make([]int32, games)}
}

// round adds a finished round's scores to m's game. A nil records, or a
// game beyond them (a benchmark's), records nothing.
func (r *records) round(m *match, scores []int) {
	if r == nil || m.i >= len(r.rounds) {
		return
	}
	r.rounds[m.i]++
	for s, v := range scores {
		r.points[m.i*r.n+m.botAt[s]] += int32(v)
	}
}

// won records m's game's winners, a shared win split.
func (r *records) won(m *match, winners []game.Seat) {
	if r == nil || m.i >= len(r.rounds) {
		return
	}
	for _, s := range winners {
		r.shares[m.i*r.n+m.botAt[s]] += int32(shareUnit / len(winners))
	}
}

// units are the records added up by independent unit, one unit every
// size games (a deal's seatings, or a single game): per bot, its wins (a
// share of one game each, so a unit's adds up to its games) and points,
// and the unit's rounds.
type units struct {
	games  int
	shares [][]float64 // [bot][unit], wins a game
	points [][]float64 // [bot][unit]
	rounds []float64
}

func (r *records) perUnit(size int) units {
	nu := len(r.rounds) / size
	u := units{games: size, shares: make([][]float64, r.n), points: make([][]float64, r.n), rounds: make([]float64, nu)}
	for b := range r.n {
		u.shares[b] = make([]float64, nu)
		u.points[b] = make([]float64, nu)
	}
	for i, rounds := range r.rounds {
		k := i / size
		u.rounds[k] += float64(rounds)
		for b := range r.n {
			u.shares[b][k] += float64(r.shares[i*r.n+b]) / shareUnit / float64(size)
			u.points[b][k] += float64(r.points[i*r.n+b])
		}
	}
	return u
}

// Unit is one unit's figures for a pairing: the first bot's share of a
// game and points, the others' mean points, and the rounds played.
type Unit struct {
	Share  float64 `json:"share"`
	Points float64 `json:"points"`
	Others float64 `json:"others"`
	Rounds float64 `json:"rounds"`
}

func (u units) pairingUnits() []Unit {
	out := make([]Unit, len(u.rounds))
	n := len(u.points)
	for k := range out {
		others := 0.0
		for b := 1; b < n; b++ {
			others += u.points[b][k]
		}
		out[k] = Unit{Share: u.shares[0][k], Points: u.points[0][k], Others: others / float64(n-1), Rounds: u.rounds[k]}
	}
	return out
}

// Pairing is the first bot (Config.Bots[0]) against the others, measured
// over independent units: deals in a duplicate run (each the mean of its
// seatings, so that the luck of the cards cancels), games otherwise.
type Pairing struct {
	Bot     string   `json:"bot"`
	Against []string `json:"against"`
	// Units is how many deals (or games) the intervals are over.
	Units int `json:"units"`
	// Share is the first bot's share of the wins, a game at a time (a
	// shared win split); Even is what equal bots would take, 1/Players.
	Share     float64  `json:"share"`
	ShareCI95 Interval `json:"share_ci95"`
	Even      float64  `json:"even"`
	// PointsDiff is the first bot's mean round score less the others'.
	PointsDiff     float64  `json:"points_diff"`
	PointsDiffCI95 Interval `json:"points_diff_ci95"`
	// PointsRatio is the first bot's points over the others' mean, where
	// they scored any (Papayoo's figure: its points are penalties).
	PointsRatio     float64  `json:"points_ratio"`
	PointsRatioCI95 Interval `json:"points_ratio_ci95"`
}

func (c *Config) pairing(us []Unit) *Pairing {
	if c.Players < 2 || len(us) == 0 {
		return nil
	}
	p := &Pairing{Bot: c.Bots[0], Against: append([]string(nil), c.Bots[1:]...), Units: len(us), Even: 1 / float64(c.Players)}
	shares, diffs, points, others, rounds := make([]float64, len(us)), make([]float64, len(us)), make([]float64, len(us)),
		make([]float64, len(us)), make([]float64, len(us))
	for k, u := range us {
		shares[k], diffs[k], points[k], others[k], rounds[k] = u.Share, u.Points-u.Others, u.Points, u.Others, u.Rounds
	}
	p.Share, p.ShareCI95 = MeanCI(shares)
	// A share is between 0 and 1, whatever the normal approximation says.
	p.ShareCI95 = Interval{max(0, p.ShareCI95[0]), min(1, p.ShareCI95[1])}
	if p.Share == 0 || p.Share == 1 {
		// Every deal won (or lost) has no spread to measure, but is no
		// certainty: the Wilson interval of as many wins in as many deals.
		p.ShareCI95 = Wilson(p.Share*float64(len(us)), len(us))
	}
	p.PointsDiff, p.PointsDiffCI95 = RatioCI(diffs, rounds)
	p.PointsRatio, p.PointsRatioCI95 = RatioCI(points, others)
	return p
}

// Measure is what GapClosed compares.
type Measure int

const (
	// ByShare measures a bot by its share of the wins above an even one.
	ByShare Measure = iota
	// ByPoints measures it by how far its points are from the others'
	// (1 - its points over their mean): Papayoo's measure against three
	// heuristics, where the win share says little.
	ByPoints
)

// GapClosed is how much of the gap between the others and a cheating bot
// an honest bot closes: the honest bot's edge over the others divided by
// the cheat's, each the first bot of a run with the same seeds against the
// same others. 1 is as strong as seeing every card, 0 no better than the
// others. Its interval is a bootstrap over the units, resampled in pairs
// (unit k of both runs is the same deal), which is where the duplicate
// deals' lower variance shows.
func GapClosed(honest, cheat Report, by Measure) (float64, Interval, error) {
	h, c := honest.Units, cheat.Units
	switch {
	case honest.Pairing == nil || cheat.Pairing == nil:
		return 0, unknown, errors.New("gap closed: a run without rotation has no pairing")
	case len(h) != len(c) || honest.Seed != cheat.Seed || honest.Seatings != cheat.Seatings:
		return 0, unknown, fmt.Errorf("gap closed: runs of different deals (%d and %d units, seeds %d and %d)", len(h), len(c), honest.Seed, cheat.Seed)
	}
	even := honest.Pairing.Even
	edge := func(us []Unit, idx []int) float64 {
		var share, points, others float64
		for _, k := range idx {
			share += us[k].Share
			points += us[k].Points
			others += us[k].Others
		}
		if by == ByShare {
			return share/float64(len(idx)) - even
		}
		if others == 0 {
			return math.NaN()
		}
		return 1 - points/others
	}
	stat := func(idx []int) float64 {
		den := edge(c, idx)
		if den == 0 {
			return math.NaN()
		}
		return edge(h, idx) / den
	}
	all := make([]int, len(h))
	for k := range all {
		all[k] = k
	}
	g := stat(all)
	if math.IsNaN(g) {
		return 0, unknown, errors.New("gap closed: the cheating bot is no better than the others")
	}
	iv := Bootstrap(len(h), honest.Seed, stat)
	if s := honest.Pairing.Share; by == ByShare && (s == 0 || s == 1) {
		// Every deal went one way: resamples cannot vary, yet the share
		// is uncertain. Its own (Wilson) bounds, over the cheat's edge,
		// widen the interval to what they allow.
		den := edge(c, all)
		for _, b := range honest.Pairing.ShareCI95 {
			v := (b - even) / den
			iv = Interval{min(iv[0], v), max(iv[1], v)}
		}
	}
	return g, iv, nil
}
