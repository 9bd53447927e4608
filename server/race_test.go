//go:build race

package server_test

// raceDetector is true in a test binary built with -race. The tests that
// play many whole matches play fewer under it: the race phase looks for
// data races, which a few matches find as well as many, and the run
// without -race already plays the full count.
const raceDetector = true
