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

// Shuffle puts a in a uniformly random order (Fisher-Yates). It draws two
// 32-bit bounded numbers from each 64-bit output, which halves the cost of
// dealing a deck, the largest cost of a short random round.
func (r *RNG) Shuffle(a []int8) {
	var word uint64
	have := 0
	for i := len(a) - 1; i > 0; i-- {
		bound := uint32(i + 1)
		for {
			if have == 0 {
				word, have = r.Uint64(), 2
			}
			x := uint32(word)
			word >>= 32
			have--
			// Lemire's multiply-shift on 32 bits, unbiased by rejection.
			m := uint64(x) * uint64(bound)
			if l := uint32(m); l >= bound || l >= -bound%bound {
				j := m >> 32
				a[i], a[j] = a[j], a[i]
				break
			}
		}
	}
}
