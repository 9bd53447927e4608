package sqldb

import (
	"context"
	"database/sql"
	"embed"
	"fmt"
	"io/fs"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/jackc/pgx/v5/stdlib"
	"github.com/pressly/goose/v3"
)

// migrations holds the schema's history, a directory per dialect: the
// two speak different SQL, but version n means the same change in both.
// A migration is never edited once released; a change is a new file.
// There are no down migrations: a schema is not rolled back over players'
// games.
//
//go:embed migrations
var migrations embed.FS

// pgLockID is the advisory lock that serialises PostgreSQL servers
// migrating the same database at once. It is the one the versions before
// goose took around their CREATE TABLE IF NOT EXISTS, so an old server
// and a new one starting together wait for each other too.
const pgLockID = 7415327391

// Last asks MigrateSQLite and MigratePostgres for every migration, up to
// the last.
const Last = 0

// MigrateSQLite brings a SQLite database up to schema version to (Last:
// the last). Only the tests stop before the last, to make a database as
// an older version did.
func MigrateSQLite(ctx context.Context, db *sql.DB, to int64) error {
	return migrate(ctx, goose.DialectSQLite3, db, "sqlite", "goose_db_version", to,
		goose.WithGoMigrations(goose.NewGoMigration(2, &goose.GoFunc{RunTx: sqliteTurnMS}, nil)))
}

// MigratePostgres brings a PostgreSQL database up to the latest schema,
// one server at a time. The lock is held on a connection of its own for
// the whole run: goose's session locker takes it only once it has checked
// for pending migrations, creating its version table unlocked, so two
// servers starting on a new database would both try to create it, one
// failing and retrying a second later. The lock goes when that connection
// closes, so no error path can leave it held; and the connection is not
// the pool's, so a pool of one connection is still free for goose.
//
// As MigrateSQLite, it stops at version to unless that is Last.
func MigratePostgres(ctx context.Context, pool *pgxpool.Pool, to int64) error {
	lc, err := pgx.ConnectConfig(ctx, pool.Config().ConnConfig.Copy())
	if err != nil {
		return err
	}
	defer lc.Close(context.WithoutCancel(ctx))
	if _, err := lc.Exec(ctx, `SELECT pg_advisory_lock($1)`, int64(pgLockID)); err != nil {
		return fmt.Errorf("waiting for other servers' migrations: %w", err)
	}
	// Goose speaks database/sql: it borrows the pool's connections.
	db := stdlib.OpenDBFromPool(pool)
	defer db.Close()
	return migrate(ctx, goose.DialectPostgres, db, "postgres", "tapis_goose_db_version", to)
}

// migrate applies the pending migrations of directory dir up to version to
// (every one if Last), recording them in the table named versions.
func migrate(ctx context.Context, d goose.Dialect, db *sql.DB, dir, versions string, to int64, opts ...goose.ProviderOption) error {
	fsys, err := fs.Sub(migrations, "migrations/"+dir)
	if err != nil {
		return fmt.Errorf("migrations: %v", err)
	}
	opts = append(opts, goose.WithDisableGlobalRegistry(true), goose.WithTableName(versions))
	p, err := goose.NewProvider(d, db, fsys, opts...)
	if err != nil {
		return fmt.Errorf("migrations: %v", err)
	}
	up := p.Up
	if to != Last {
		up = func(ctx context.Context) ([]*goose.MigrationResult, error) { return p.UpTo(ctx, to) }
	}
	if _, err := up(ctx); err != nil {
		return fmt.Errorf("migrating: %w", err)
	}
	return nil
}

// sqliteTurnMS is migration 2 for SQLite: a database made before the time
// per move has a tables table without turn_ms, which migration 1's CREATE
// TABLE IF NOT EXISTS left as it was. SQLite has no ADD COLUMN IF NOT
// EXISTS, so the column list is read first.
func sqliteTurnMS(ctx context.Context, tx *sql.Tx) error {
	var n int
	if err := tx.QueryRowContext(ctx, `SELECT COUNT(*) FROM pragma_table_info('tables') WHERE name = 'turn_ms'`).Scan(&n); err != nil {
		return err
	}
	if n > 0 {
		return nil
	}
	_, err := tx.ExecContext(ctx, `ALTER TABLE tables ADD COLUMN turn_ms INTEGER NOT NULL DEFAULT 0`)
	return err
}
