//go:build !race

package server_test

// raceDetector is true in a test binary built with -race (see race_test.go).
const raceDetector = false
