package game

import (
	"slices"
	"testing"
)

// All yields what List lists, in the same order, for every set, and stops
// when told; it allocates nothing.
func TestSeatsAll(t *testing.T) {
	for a := 0; a < 1<<16; a++ {
		set := Seats(a)
		var got []Seat
		for s := range set.All() {
			got = append(got, s)
		}
		if want := set.List(); !slices.Equal(got, want) {
			t.Fatalf("%#x: All yields %v, List %v", a, got, want)
		}
		for s := range set.All() {
			if s != set.First() {
				t.Fatalf("%#x: the first yielded is %d, want %d", a, s, set.First())
			}
			break
		}
	}
	n := 0
	if allocs := testing.AllocsPerRun(100, func() {
		for s := range Seats(0b1011_0110).All() {
			n += int(s)
		}
	}); allocs != 0 {
		t.Errorf("All allocates %v times a loop", allocs)
	}
}
