package game

import (
	"bytes"
	"encoding/json"
	"reflect"
	"strings"
	"testing"
)

func TestSeats(t *testing.T) {
	a := Only(2).With(5).With(0)
	if a.Len() != 3 || a.First() != 0 || a.Nth(1) != 2 || a.Nth(2) != 5 {
		t.Fatalf("set %v: len %d first %d", a.List(), a.Len(), a.First())
	}
	if a.Has(Spectator) || a.Has(1) || a.Has(-2) || a.Has(MaxPlayers) {
		t.Fatal("Has reports a seat not in the set")
	}
	if !Public.Has(Spectator) || !Public.Has(7) || Public.Len() != MaxPlayers {
		t.Fatal("Public must hold every seat and spectators")
	}
	if (Public &^ Only(3)).Has(3) || !(Public &^ Only(3)).Has(Spectator) {
		t.Fatal("everyone but seat 3")
	}
	if data, _ := json.Marshal(a); string(data) != "[0,2,5]" {
		t.Fatalf("JSON %s", data)
	}
	if Seats(0).First() != Spectator || !Seats(0).Empty() || len(Seats(0).List()) != 0 {
		t.Fatal("the empty set")
	}
}

func TestRNG(t *testing.T) {
	a, b := NewRNG(42), NewRNG(42)
	c := a // a copy carries the same future
	for i := 0; i < 100; i++ {
		x := a.Uint64()
		if x != b.Uint64() || x != c.Uint64() {
			t.Fatal("same seed, different numbers")
		}
	}
	x, y := NewRNG(1), NewRNG(2)
	if x.Uint64() == y.Uint64() {
		t.Fatal("different seeds, same first number")
	}
	var hist [6]int
	r := NewRNG(7)
	for i := 0; i < 60000; i++ {
		n := r.IntN(6)
		if n < 0 || n >= 6 {
			t.Fatalf("IntN(6) = %d", n)
		}
		hist[n]++
	}
	for v, k := range hist {
		if k < 9500 || k > 10500 {
			t.Fatalf("IntN(6) gave %d %d times in 60000: biased", v, k)
		}
	}
	child := r.Child()
	if child == r {
		t.Fatal("a child generator equals its parent")
	}
}

func TestDecodeOptions(t *testing.T) {
	var o struct {
		Size int `json:"size"`
	}
	o.Size = 4
	if err := DecodeOptions("g", nil, &o); err != nil || o.Size != 4 {
		t.Fatal("empty options must keep the defaults")
	}
	if err := DecodeOptions("g", json.RawMessage(`null`), &o); err != nil || o.Size != 4 {
		t.Fatal("null options must keep the defaults")
	}
	if err := DecodeOptions("g", json.RawMessage(`{"size":6}`), &o); err != nil || o.Size != 6 {
		t.Fatalf("size not decoded: %v", err)
	}
	for _, bad := range []string{`{"colour":1}`, `{"size":"big"}`, `{"size":1} {}`, `[1]`} {
		err := DecodeOptions("g", json.RawMessage(bad), &o)
		if err == nil || !strings.HasPrefix(err.Error(), "g: options:") {
			t.Errorf("%s: error %v", bad, err)
		}
	}
}

func TestLog(t *testing.T) {
	var l Log
	l.Add(Public, "all")
	l.Add(Only(1), "one")
	l.Add(Public&^Only(1), "others")
	if got := l.For(1); len(got) != 2 || got[1].Data != "one" {
		t.Fatalf("seat 1 sees %v", got)
	}
	if got := l.For(Spectator); len(got) != 2 || got[1].Data != "others" {
		t.Fatalf("a spectator sees %v", got)
	}
	l.Reset()
	if len(l.Events) != 0 {
		t.Fatal("Reset kept events")
	}
}

// Shuffle is uniform: each of the 6 orders of 3 cards comes up about as
// often, and it keeps the cards.
func TestShuffle(t *testing.T) {
	r := NewRNG(3)
	counts := map[[3]int8]int{}
	for i := 0; i < 60000; i++ {
		a := []int8{1, 2, 3}
		r.Shuffle(a)
		counts[[3]int8(a)]++
	}
	if len(counts) != 6 {
		t.Fatalf("%d orders seen, want 6", len(counts))
	}
	for order, k := range counts {
		if k < 9500 || k > 10500 {
			t.Fatalf("order %v came up %d times in 60000", order, k)
		}
	}
}

// DecodeStrict refuses unknown fields and anything after the value, a
// stray closing bracket included.
func TestDecodeStrict(t *testing.T) {
	var v struct {
		A int `json:"a"`
	}
	if err := DecodeStrict([]byte(" {\"a\":1} \n"), &v); err != nil || v.A != 1 {
		t.Fatalf("a plain object: %v, %+v", err, v)
	}
	for _, bad := range []string{`{"a":1}}`, `{"a":1}]`, `{"a":1} {}`, `{"a":1}x`, `{"b":1}`, `{"a":1`} {
		if err := DecodeStrict([]byte(bad), &v); err == nil {
			t.Errorf("%s was accepted", bad)
		}
	}
}

// Set over a used Result gives what NewResult gives, [] rather than null
// included, and once the slices have grown it allocates nothing.
func TestResultSetReuses(t *testing.T) {
	cases := []struct {
		rounds      int
		scores, rs  []int
		over        bool
		winners     Seats
		wantWinners []Seat
	}{
		{0, []int{0, 0, 0}, []int{0, 0, 0}, false, 0, []Seat{}},
		{2, []int{5, 9, 1}, []int{3, 4, 0}, false, 0, []Seat{}},
		{3, []int{5, 9, 1, 7}, []int{0, 0, 1, 2}, true, Only(2).With(0), []Seat{0, 2}},
		{1, []int{1, 2}, []int{1, 2}, false, Only(1), []Seat{}},
	}
	var r Result
	for i, tc := range cases {
		r.Set(tc.rounds, tc.scores, tc.rs, tc.over, tc.winners)
		want := NewResult(tc.rounds, tc.scores, tc.rs, tc.over, tc.winners)
		if !reflect.DeepEqual(r, want) || !reflect.DeepEqual(r.Winners, tc.wantWinners) {
			t.Fatalf("case %d: Set gave %+v, NewResult %+v", i, r, want)
		}
		if b, _ := json.Marshal(r); bytes.Contains(b, []byte("null")) {
			t.Fatalf("case %d: %s", i, b)
		}
	}
	if n := testing.AllocsPerRun(100, func() { r.Set(3, []int{5, 9, 1}, []int{0, 0, 1}, true, Only(1)) }); n != 0 {
		t.Fatalf("Set over a grown Result allocates %v times", n)
	}
}
