-- Version 7 is PostgreSQL's leases (store/lease.go), which let several
-- servers share one database. A SQLite file serves one server, which runs
-- every table without leases: nothing changes here, and the version is
-- recorded only so that version n means the same schema in both.

-- +goose Up
SELECT 1;
