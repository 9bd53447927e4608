package storetest

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"net/url"
	"os"
	"strings"
	"testing"

	"github.com/jackc/pgx/v5"
)

// pgEnv names the variable that points the tests at a PostgreSQL server.
const pgEnv = "TAPIS_TEST_POSTGRES"

// PostgresURL returns the URL of a fresh schema, dropped when owner ends,
// on the PostgreSQL server that TAPIS_TEST_POSTGRES points at: for the
// tests of the PostgreSQL store. Without it the test skips and says how
// to run it.
func PostgresURL(t, owner testing.TB) string {
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
	PostgresExec(t, admin.String(), "CREATE SCHEMA "+schema)
	owner.Cleanup(func() { PostgresExec(owner, admin.String(), "DROP SCHEMA "+schema+" CASCADE") })
	q = u.Query()
	q.Set("search_path", schema)
	u.RawQuery = q.Encode()
	return u.String()
}

// PostgresExec runs statements on a connection of their own to dsn.
func PostgresExec(t testing.TB, dsn, sql string) {
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
