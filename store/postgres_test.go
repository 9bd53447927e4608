package store

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"net/url"
	"os"
	"strings"
	"sync"
	"testing"

	"github.com/jackc/pgx/v5"
)

// pgEnv names the variable that points the tests at a PostgreSQL server.
const pgEnv = "TAPIS_TEST_POSTGRES"

// postgresOpener opens PostgreSQL stores that share one schema of their
// own, created on first use and dropped when tb ends, so tests neither
// see each other's tables nor leave any behind.
func postgresOpener(tb testing.TB) func(testing.TB) Store {
	var (
		mu  sync.Mutex
		dsn string
	)
	return func(t testing.TB) Store {
		t.Helper()
		mu.Lock()
		if dsn == "" {
			dsn = pgTestURL(t, tb)
		}
		mu.Unlock()
		s, err := OpenPostgres(context.Background(), dsn)
		if err != nil {
			t.Fatal(err)
		}
		return s
	}
}

// pgTestURL returns the URL of a fresh schema dropped when owner ends.
// Without pgEnv the test skips and says how to run it.
func pgTestURL(t, owner testing.TB) string {
	t.Helper()
	base := os.Getenv(pgEnv)
	if base == "" {
		t.Skip(pgEnv + " is not set: to test the PostgreSQL store, point it at a database where the test may create schemas, e.g. " +
			pgEnv + "=postgres://user@127.0.0.1:5432/postgres?sslmode=disable (.ci/run starts a throwaway server)")
	}
	return pgSchemaFor(t, owner, base)
}

// pgSchemaFor creates a schema with a random name, dropped when owner
// ends, and returns base with that schema as its search_path.
func pgSchemaFor(t, owner testing.TB, base string) string {
	t.Helper()
	b := make([]byte, 6)
	rand.Read(b)
	schema := "tapis_test_" + hex.EncodeToString(b)
	u, err := url.Parse(base)
	if err != nil {
		t.Fatalf("%s does not parse as a URL: %v", pgEnv, err.(*url.Error).Err)
	}
	// The pool's settings (pool_max_conns) are no server parameter: the
	// one connection that creates the schema goes without them.
	q := u.Query()
	for k := range q {
		if strings.HasPrefix(k, "pool_") {
			q.Del(k)
		}
	}
	admin := *u
	admin.RawQuery = q.Encode()
	pgAdmin(t, admin.String(), "CREATE SCHEMA "+schema)
	owner.Cleanup(func() { pgAdmin(owner, admin.String(), "DROP SCHEMA "+schema+" CASCADE") })
	q = u.Query()
	q.Set("search_path", schema)
	u.RawQuery = q.Encode()
	return u.String()
}

// pgAdmin runs one statement on its own connection.
func pgAdmin(t testing.TB, dsn, sql string) {
	t.Helper()
	ctx := context.Background()
	c, err := pgx.Connect(ctx, dsn)
	if err != nil {
		t.Fatalf("%s: %v", pgEnv, err)
	}
	defer c.Close(ctx)
	if _, err := c.Exec(ctx, sql); err != nil {
		t.Fatalf("%s: %v", sql, err)
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
		s, err := OpenPostgres(ctx, u)
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
	dsn := pgTestURL(t, t)
	var wg sync.WaitGroup
	errs := make([]error, 4)
	for i := range errs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			s, err := OpenPostgres(context.Background(), dsn)
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
