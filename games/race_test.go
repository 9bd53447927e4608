//go:build race

package games_test

// raceDetector is true in a test binary built with -race. The conformance
// suite plays fewer random games under it: the race phase looks for data
// races, which a handful of games find as well as hundreds, and the run
// without -race already plays the full count.
const raceDetector = true
