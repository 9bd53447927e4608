-- Leases (store/lease.go): which node runs a table when several servers
-- share the database. A row is kept after its lease expires or is
-- released (until '-infinity'), so that the table's next epoch follows on
-- from the last one: a stale node's epoch is never handed out again.
-- tapis_leases_live lets NodeLoad read only the live leases, not one row
-- for every table ever run.

-- +goose Up
CREATE TABLE tapis_leases (
	table_id text PRIMARY KEY,
	node     text NOT NULL,
	epoch    bigint NOT NULL,
	until    timestamptz NOT NULL
);
CREATE INDEX tapis_leases_live ON tapis_leases (until);
