//go:build race

package cabo

// raceDetector is true in a test binary built with -race. The tests that
// play many games play fewer under it: the race phase looks for data
// races, which a handful of games find as well as many, and the run
// without -race already plays the full count.
const raceDetector = true
