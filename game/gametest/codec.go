package gametest

import (
	"testing"

	"tapis/game"
)

// MoveCodec is the body of every game's move-decoder fuzz target: whatever
// input decodes must encode back to JSON that decodes to the same move.
// (No input may panic, which the fuzzer checks by itself.)
func MoveCodec(t *testing.T, g game.Game, data []byte) game.Move {
	t.Helper()
	m, err := g.UnmarshalMove(data)
	if err != nil {
		return 0
	}
	out, err := g.MarshalMove(m)
	if err != nil {
		t.Fatalf("%q decoded to %#x, which does not encode: %v", data, uint64(m), err)
	}
	back, err := g.UnmarshalMove(out)
	if err != nil || back != m {
		t.Fatalf("%q -> %s -> %#x, %v", data, out, uint64(back), err)
	}
	return m
}
