package sim

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"reflect"
	"testing"

	"tapis/games"
)

// The statistics of a run depend on its seed alone: testdata/pinned.jsonl
// holds reports made by `tapis sim --json` before the simulator was made
// fast (issue 18), for every game and table size, random bots and a
// rotating heuristic bot. Speed may change; wins, shares, intervals, mean
// round scores, moves and rounds may not.
func TestPinnedReports(t *testing.T) {
	f, err := os.Open("testdata/pinned.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<20)
	cases := 0
	for sc.Scan() {
		var pin struct {
			Game    string   `json:"game"`
			Players int      `json:"players"`
			Bots    []string `json:"bots"`
			Rotate  bool     `json:"rotate"`
			Games   int      `json:"games"`
			Seed    uint64   `json:"seed"`
			Want    Report   `json:"want"`
		}
		if err := json.Unmarshal(sc.Bytes(), &pin); err != nil {
			t.Fatal(err)
		}
		cases++
		name := fmt.Sprintf("%s/%dp/%s", pin.Game, pin.Players, pin.Bots[0])
		t.Run(name, func(t *testing.T) {
			if testing.Short() && pin.Bots[0] != "random" {
				t.Skip("heuristic bots are slow")
			}
			got, err := Run(context.Background(), Config{Game: games.Named(pin.Game), Players: pin.Players, Bots: pin.Bots,
				Rotate: pin.Rotate, Games: pin.Games, Seed: pin.Seed, Workers: 2})
			if err != nil {
				t.Fatal(err)
			}
			if got.Games != pin.Want.Games || got.Moves != pin.Want.Moves || got.Rounds != pin.Want.Rounds {
				t.Errorf("%d games, %d moves, %d rounds; pinned %d, %d, %d", got.Games, got.Moves, got.Rounds,
					pin.Want.Games, pin.Want.Moves, pin.Want.Rounds)
			}
			// The pins predate the mean's interval: every figure they
			// hold is compared, that one is left out.
			for s := range got.Seats {
				got.Seats[s].MeanRoundScoreCI95 = Interval{}
			}
			if !reflect.DeepEqual(got.Seats, pin.Want.Seats) {
				t.Errorf("seats\n%+v\npinned\n%+v", got.Seats, pin.Want.Seats)
			}
		})
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	if cases != 40 {
		t.Fatalf("%d pinned runs, want 40 (every game and table size, two line-ups)", cases)
	}
}
