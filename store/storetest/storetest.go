// Package storetest is the conformance suite of store.Store: what every
// store must do, run on each store (store.Memory, store/sqlite,
// store/postgres) from its own tests and on any wrapper of one (the
// metrics store), so that a new store or a new wrapper is tested by one
// call (RunLeases is the same for store.Leases; the Bench functions are
// the benchmarks each store runs):
//
//	func TestConformance(t *testing.T) {
//		storetest.Run(t, storetest.Backend{New: func(testing.TB) storetest.Opener {
//			return func(testing.TB) store.Store { return store.NewMemory() }
//		}})
//	}
package storetest

import (
	"testing"

	"tapis/store"
)

// Opener opens a store on the data it was made for. Called again in the
// same test, it opens that same data, as a server restarting or a second
// server of a cluster does.
type Opener func(t testing.TB) store.Store

// Backend is a store under test.
type Backend struct {
	// New makes fresh, empty data for one test (removed when t ends) and
	// returns the opener of it.
	New func(t testing.TB) Opener
	// Durable says that the data outlives Close and that the stores an
	// Opener opens share it (SQLite, PostgreSQL); the tests of restarts
	// and of several servers at once skip without it (Memory).
	Durable bool
}

// Run runs every test of the suite on b, each as a subtest of t with
// data of its own.
func Run(t *testing.T, b Backend) {
	for _, c := range []struct {
		name string
		test func(*testing.T, Backend)
	}{
		{"RoundTrip", testRoundTrip},
		{"Refuses", testRefuses},
		{"Closed", testClosed},
		{"Concurrent", testConcurrent},
		{"Reopen", testReopen},
		{"AppendConcurrent", testAppendConcurrent},
		{"OpenSummaries", testOpenSummaries},
		{"CloseTable", testCloseTable},
		{"Touch", testTouch},
		{"StartTogether", testStartTogether},
		{"Tables", testTables},
		{"CheckClean", testCheckClean},
		{"RefusesPlayers", testRefusesPlayers},
		{"Match", testMatch},
		{"Played", testPlayed},
		{"People", testPeople},
		{"SeatQueuedRace", testSeatQueuedRace},
		{"RatingsRecordAndRead", testRatingsRecordAndRead},
		{"RatingsThousandGames", testRatingsThousandGames},
		{"RatingsConcurrent", testRatingsConcurrent},
		{"RatedTableRoundTrip", testRatedTableRoundTrip},
		{"Secret", testSecret},
		{"SecretRace", testSecretRace},
		{"Friends", testFriends},
		{"Notifications", testNotifications},
		{"ClaimRace", testClaimRace},
		{"ForgetPlayer", testForgetPlayer},
		{"Clocks", testClocks},
		{"Analyses", testAnalyses},
		{"ClockWarn", testClockWarn},
	} {
		t.Run(c.name, func(t *testing.T) { c.test(t, b) })
	}
}

// kind is a backend's fresh data for one test.
type kind struct {
	open    Opener
	durable bool
}

// fresh makes b's fresh data for t.
func fresh(t *testing.T, b Backend) kind {
	return kind{open: b.New(t), durable: b.Durable}
}
