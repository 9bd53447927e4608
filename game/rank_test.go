package game

import (
	"reflect"
	"testing"
)

func TestResultRanks(t *testing.T) {
	for _, c := range []struct {
		name    string
		scores  []int
		winners []Seat
		want    []int
	}{
		{"lower wins (Cabo, Papayoo)", []int{40, 12, 101, 40}, []Seat{1}, []int{1, 0, 3, 1}},
		{"higher wins (Limits, Da Capo!)", []int{3, 7, -2, 5}, []Seat{1}, []int{2, 0, 3, 1}},
		{"shared win", []int{5, 5, 1}, []Seat{0, 1}, []int{0, 0, 1}},
		{"everyone ties", []int{0, 0}, []Seat{0, 1}, []int{0, 0}},
		{"Da Capo! single game: the others tie", []int{14, 0, 0}, []Seat{0}, []int{0, 1, 1}},
	} {
		got := Result{Scores: c.scores, Winners: c.winners}.Ranks()
		if !reflect.DeepEqual(got, c.want) {
			t.Errorf("%s: %v, want %v", c.name, got, c.want)
		}
	}
}
