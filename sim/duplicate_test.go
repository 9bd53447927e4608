package sim

import (
	"context"
	"encoding/json"
	"math"
	"reflect"
	"sync"
	"testing"

	"tapis/game"
	"tapis/games/cabo"
	"tapis/games/limits"
)

func run(t *testing.T, c Config) Report {
	t.Helper()
	rep, err := Run(context.Background(), c)
	if err != nil {
		t.Fatal(err)
	}
	return rep
}

// A duplicate run plays each deal once per seating: the same seed, the
// bots permuted round the table (the rotations, or with Shuffle every
// order), each seating once. Between equal bots, then, a deal's games are
// the same game with the bots' names swapped.
func TestDuplicatePlaysEachDealInEverySeating(t *testing.T) {
	for _, tc := range []struct {
		players  int
		shuffle  bool
		seatings int
	}{{2, false, 2}, {3, false, 3}, {3, true, 6}, {4, false, 4}} {
		type played struct {
			botAt []int
			res   game.Result
		}
		const deals = 5
		var mu sync.Mutex
		all := make([]played, deals*tc.seatings)
		rep := run(t, Config{Game: cabo.Game{}, Players: tc.players, Bots: []string{"random"}, Games: deals * tc.seatings, Seed: 3,
			Duplicate: true, Shuffle: tc.shuffle, Workers: 2, OnGame: func(i int, botAt []int, res game.Result) {
				mu.Lock()
				all[i] = played{botAt, res}
				mu.Unlock()
			}})
		if rep.Deals != deals || rep.Seatings != tc.seatings {
			t.Fatalf("%d players, shuffle %v: %d deals of %d seatings, want %d of %d", tc.players, tc.shuffle, rep.Deals, rep.Seatings, deals, tc.seatings)
		}
		for d := range deals {
			seen := map[string]bool{}
			first := all[d*tc.seatings]
			for j := range tc.seatings {
				p := all[d*tc.seatings+j]
				key, _ := json.Marshal(p.botAt)
				if seen[string(key)] {
					t.Fatalf("%d players: deal %d seats the bots %v twice", tc.players, d, p.botAt)
				}
				seen[string(key)] = true
				// Every seat holds the same bot (random, seeded by its
				// seat), so the same deal plays the same game.
				if !reflect.DeepEqual(p.res, first.res) {
					t.Fatalf("%d players: deal %d, seating %d ends %+v, seating 0 %+v: not the same deal", tc.players, d, j, p.res, first.res)
				}
			}
			if d > 0 && reflect.DeepEqual(all[d*tc.seatings].res, all[0].res) {
				t.Fatalf("%d players: deals 0 and %d play the same game", tc.players, d)
			}
		}
	}
}

// Two copies of a deterministic bot, in duplicate: each deal's games are
// mirrors, so each bot takes exactly half of every deal and the same
// points, and the paired intervals are exactly zero wide. Rotated without
// duplicate, the same bots do not come out even: that is the deal's luck
// the duplicate takes out.
func TestDuplicateMirrorsEqualBots(t *testing.T) {
	c := Config{Game: cabo.Game{}, Players: 2, Bots: []string{"heuristic", "heuristic"}, Games: 60, Seed: 5, Workers: 2}
	c.Duplicate = true
	dup := run(t, c)
	p := dup.Pairing
	if p == nil || p.Units != 30 {
		t.Fatalf("pairing %+v, want one over 30 deals", p)
	}
	if p.Share != 0.5 || p.ShareCI95 != (Interval{0.5, 0.5}) || p.PointsDiff != 0 || p.PointsDiffCI95 != (Interval{0, 0}) {
		t.Fatalf("mirrored bots: share %v %v, points %v %v; want exactly even", p.Share, p.ShareCI95, p.PointsDiff, p.PointsDiffCI95)
	}
	if a, b := dup.Seats[0], dup.Seats[1]; a.Wins != b.Wins || a.Share != b.Share || a.MeanRoundScore != b.MeanRoundScore {
		t.Fatalf("mirrored bots: %+v against %+v", a, b)
	}
	c.Duplicate, c.Rotate = false, true
	rot := run(t, c).Pairing
	if rot.Share == 0.5 && rot.PointsDiff == 0 {
		t.Fatalf("rotated alone, the same bots came out exactly even: %+v", rot)
	}
	if rot.ShareCI95[1]-rot.ShareCI95[0] <= 0.1 {
		t.Fatalf("rotated alone, a share interval %v over 60 games", rot.ShareCI95)
	}
}

// The better bot's edge shows in the pairing, with intervals that hold
// the estimate and narrow as deals are added; per-bot results follow the
// bots, whatever seat they are in.
func TestDuplicatePairing(t *testing.T) {
	width := func(iv Interval) float64 { return iv[1] - iv[0] }
	var last *Pairing
	for _, games := range []int{20, 200} {
		rep := run(t, Config{Game: cabo.Game{}, Players: 2, Bots: []string{"heuristic", "hard@10"}, Games: games, Seed: 1, Duplicate: true, Workers: 2})
		p := rep.Pairing
		if p.Bot != "heuristic" || !reflect.DeepEqual(p.Against, []string{"hard@10"}) || p.Units != games/2 || p.Even != 0.5 {
			t.Fatalf("pairing %+v", p)
		}
		if p.ShareCI95[0] <= 0.5 || p.Share < p.ShareCI95[0] || p.Share > p.ShareCI95[1] {
			t.Fatalf("%d games: the heuristic's share %v %v is not above an even one", games, p.Share, p.ShareCI95)
		}
		if math.Abs(p.Share-rep.Seats[0].Share) > 1e-12 {
			t.Fatalf("the pairing's share %v, the bot's %v", p.Share, rep.Seats[0].Share)
		}
		if d := rep.Seats[0].MeanRoundScore - rep.Seats[1].MeanRoundScore; math.Abs(d-p.PointsDiff) > 1e-9 {
			t.Fatalf("points difference %v, the bots' means differ by %v", p.PointsDiff, d)
		}
		for _, s := range rep.Seats {
			if iv := s.MeanRoundScoreCI95; s.MeanRoundScore < iv[0] || s.MeanRoundScore > iv[1] {
				t.Fatalf("mean round score %v outside its interval %v", s.MeanRoundScore, iv)
			}
		}
		if last != nil && (width(p.ShareCI95) >= width(last.ShareCI95) || width(p.PointsDiffCI95) >= width(last.PointsDiffCI95)) {
			t.Fatalf("ten times the deals, intervals %v, %v; before %v, %v", p.ShareCI95, p.PointsDiffCI95, last.ShareCI95, last.PointsDiffCI95)
		}
		last = p
	}
}

func TestDuplicateWantsWholeDeals(t *testing.T) {
	_, err := Run(context.Background(), Config{Game: cabo.Game{}, Players: 3, Bots: []string{"random"}, Games: 10, Seed: 1, Duplicate: true})
	if err == nil || err.Error() != "10 games in duplicate: want a whole number of deals of 3 seatings (9 or 12 games)" {
		t.Fatalf("10 games of 3 seatings: %v", err)
	}
}

// The gap closed is 1 when the honest bot does as well as the cheat, 0
// when it does no better than the others, and its interval holds it.
func TestGapClosed(t *testing.T) {
	c := Config{Game: limits.Game{}, Players: 2, Bots: []string{"heuristic", "random"}, Games: 40, Seed: 2, Duplicate: true, Workers: 2}
	strong := run(t, c)
	if g, iv, err := GapClosed(strong, strong, ByPoints); err != nil || g != 1 || iv != (Interval{1, 1}) {
		t.Fatalf("by points, a bot against itself closes %v %v (%v), want all of it", g, iv, err)
	}
	// The heuristic wins all 20 deals: resampling them cannot vary, but
	// its share's Wilson interval, [83.9%, 100%] over the cheat's edge of
	// one half, bounds the gap closed.
	g, iv, err := GapClosed(strong, strong, ByShare)
	if lo := (Wilson(20, 20)[0] - 0.5) / 0.5; err != nil || g != 1 || !near(iv[0], lo, 1e-12) || iv[1] != 1 || !near(lo, 0.6777, 1e-4) {
		t.Fatalf("by share, a bot against itself closes %v %v (%v), want 1 [0.6777, 1]", g, iv, err)
	}
	c.Bots = []string{"random", "random"}
	even := run(t, c)
	if g, iv, err := GapClosed(even, strong, ByShare); err != nil || g != 0 || iv != (Interval{0, 0}) {
		t.Fatalf("random against random closes %v %v (%v) of the heuristic's gap, want none", g, iv, err)
	}
	c.Seed = 3
	other := run(t, c)
	if _, _, err := GapClosed(other, strong, ByShare); err == nil {
		t.Fatal("runs of different seeds compared")
	}
	c.Duplicate, c.Rotate = false, false
	if _, _, err := GapClosed(run(t, c), strong, ByShare); err == nil {
		t.Fatal("a run without rotation compared")
	}
}

// A duplicate run's figures, intervals included, depend on its seed
// alone, not on how many workers play its deals' games.
func TestDuplicateDeterministicAcrossWorkers(t *testing.T) {
	c := Config{Game: cabo.Game{}, Players: 3, Bots: []string{"heuristic", "random", "random"}, Games: 60, Seed: 9, Duplicate: true}
	c.Workers = 1
	a := run(t, c)
	c.Workers = 2
	b := run(t, c)
	if !reflect.DeepEqual(a.Seats, b.Seats) || !reflect.DeepEqual(a.Pairing, b.Pairing) {
		t.Fatalf("one worker: %+v %+v\ntwo: %+v %+v", a.Seats, a.Pairing, b.Seats, b.Pairing)
	}
}
