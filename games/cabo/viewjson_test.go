package cabo

import (
	"bytes"
	"encoding/json"
	"math/rand/v2"
	"testing"

	"tapis/game"
)

// AppendView writes the bytes json.Marshal gives View, for every seat, a
// spectator and a seat the game does not have, at every position of
// random games at every table size and under several options.
func TestAppendViewIsViewJSON(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	var buf []byte
	compared, rounds := 0, 0
	for _, opts := range []string{"", `{"hand_size":6,"initial_peek":0,"swap_opponents":true,"max_resets":1}`, `{"reset_at_100_to":0,"max_resets":null}`} {
		for players := 2; players <= MaxPlayers; players++ {
			st, err := Game{}.New(game.Config{Players: players, Seed: rng.Uint64(), Options: json.RawMessage(opts)})
			if err != nil {
				t.Fatal(err)
			}
			s0 := st.(*State)
			for n := 0; ; n++ {
				for s := game.Seat(-1); s <= game.Seat(players); s++ {
					want, err := json.Marshal(s0.View(s))
					if err != nil {
						t.Fatal(err)
					}
					buf = s0.AppendView(buf[:0], s)
					compared++
					if !bytes.Equal(buf, want) {
						t.Fatalf("%d players %s, move %d, seat %d:\n got %s\nwant %s", players, opts, n, s, buf, want)
					}
				}
				if st.Over() || n > 5000 {
					rounds += s0.rounds
					break
				}
				seats := st.ToMove()
				by := seats.Nth(rng.IntN(seats.Len()))
				legal := st.Legal(by, nil)
				if err := st.Apply(by, legal[rng.IntN(len(legal))], nil); err != nil {
					t.Fatal(err)
				}
			}
		}
	}
	if rounds < 21 {
		t.Fatalf("the games played %d rounds: too few to see round ends", rounds)
	}
	t.Logf("%d views compared, %d rounds played", compared, rounds)
}
