package game

import (
	"math/bits"
	"math/rand/v2"
)

// RNG is the seeded random generator a game state owns. It is a value: a
// state that copies it (Clone) copies its future, which is what makes a game
// reproducible from its seed and moves.
type RNG struct {
	pcg rand.PCG
}

// NewRNG returns a generator seeded with seed.
func NewRNG(seed uint64) RNG {
	var r RNG
	// The second word is a fixed odd constant so that one seed is enough.
	r.pcg.Seed(seed, 0x9e3779b97f4a7c15)
	return r
}

// Uint64 returns 64 random bits.
func (r *RNG) Uint64() uint64 { return r.pcg.Uint64() }

// IntN returns a uniform integer in [0, n). It panics if n <= 0.
func (r *RNG) IntN(n int) int {
	if n <= 0 {
		panic("game: IntN of a non-positive bound")
	}
	// Lemire's multiply-and-reject: unbiased, rarely more than one draw.
	bound := uint64(n)
	hi, lo := bits.Mul64(r.Uint64(), bound)
	if lo < bound {
		thresh := -bound % bound
		for lo < thresh {
			hi, lo = bits.Mul64(r.Uint64(), bound)
		}
	}
	return int(hi)
}

// Child returns a new generator seeded from r, for a state drawn by Sample.
func (r *RNG) Child() RNG { return NewRNG(r.Uint64()) }
