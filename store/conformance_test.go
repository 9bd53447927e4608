package store_test

import (
	"testing"

	"tapis/store"
	"tapis/store/storetest"
)

// Every store of this package passes the conformance suite; PostgreSQL's
// run skips without TAPIS_TEST_POSTGRES, saying how to set it.
func TestStore(t *testing.T) {
	for _, name := range []string{"memory", "sqlite", "postgres"} {
		t.Run(name, func(t *testing.T) {
			_, durable := store.OpenerForTest(t, name)
			storetest.Run(t, storetest.Backend{Durable: durable, New: func(tb testing.TB) storetest.Opener {
				open, _ := store.OpenerForTest(tb, name)
				return storetest.Opener(open)
			}})
		})
	}
}
