package postgres

import (
	"context"
	"strings"
	"sync"
	"testing"

	"tapis/store"
	"tapis/store/storetest"
)

// opener opens PostgreSQL stores that share one schema of their own,
// created on first use and dropped when tb ends, so tests neither see
// each other's tables nor leave any behind. Without TAPIS_TEST_POSTGRES
// the tests skip, saying how to set it.
func opener(tb testing.TB) func(testing.TB) store.Store {
	var (
		mu  sync.Mutex
		dsn string
	)
	return func(t testing.TB) store.Store {
		t.Helper()
		mu.Lock()
		if dsn == "" {
			dsn = storetest.PostgresURL(t, tb)
		}
		mu.Unlock()
		s, err := Open(context.Background(), dsn)
		if err != nil {
			t.Fatal(err)
		}
		return s
	}
}

// open opens a store on a fresh schema of its own for t.
func open(t testing.TB) *Store { return opener(t)(t).(*Store) }

// The PostgreSQL store passes the conformance suite.
func TestStore(t *testing.T) {
	storetest.Run(t, storetest.Backend{Durable: true, New: func(tb testing.TB) storetest.Opener {
		return storetest.Opener(opener(tb))
	}})
}

// The PostgreSQL store passes the suite of leases, timed by the
// database's clock.
func TestLeases(t *testing.T) {
	storetest.RunLeases(t, storetest.LeaseBackend{Rounds: 40, Open: func(t *testing.T) storetest.LeaseStore { return open(t) }})
}

func must(t testing.TB, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

// A connection URL that is wrong gives an error that says PostgreSQL and
// what is wrong, and never the password. No server is needed.
func TestPostgresBadURL(t *testing.T) {
	ctx := context.Background()
	for _, u := range []string{
		"postgres://ann:hunter2@127.0.0.1:notaport/tapis",
		"postgres://ann:hunter2@127.0.0.1:5432/tapis?sslmode=sometimes",
		"postgres://ann:hunter2@127.0.0.1:5432/tapis?pool_max_conns=many",
		"postgres://ann@127.0.0.1:5432/tapis?password=hunter2&sslmode=sometimes",
		"postgres://ann:hunter2@127.0.0.1:1/tapis?sslmode=disable&connect_timeout=5", // nothing listens on port 1
	} {
		s, err := Open(ctx, u)
		if err == nil {
			s.Close()
			t.Errorf("%s: opened", u)
			continue
		}
		if msg := err.Error(); !strings.HasPrefix(msg, "store: postgres: ") || strings.Contains(msg, "hunter2") {
			t.Errorf("%s: %s", u, msg)
		}
	}
}

// Servers that start together all create the schema without tripping
// over each other.
func TestPostgresOpenTogether(t *testing.T) {
	dsn := storetest.PostgresURL(t, t)
	var wg sync.WaitGroup
	errs := make([]error, 4)
	for i := range errs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			s, err := Open(context.Background(), dsn)
			if err == nil {
				err = s.Close()
			}
			errs[i] = err
		}()
	}
	wg.Wait()
	for _, err := range errs {
		must(t, err)
	}
}
