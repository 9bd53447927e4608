package store

import "testing"

// OpenerForTest returns the opener of the store called name in stores, on
// fresh data for tb, and whether that store is durable: for the
// conformance test of package store_test, which runs the suite of
// storetest (itself importing store) and so cannot be in package store.
func OpenerForTest(tb testing.TB, name string) (open func(testing.TB) Store, durable bool) {
	k := stores(tb)[name]
	return k.open, k.durable
}
