-- A table's lifecycle: closed ('' while open, else expired, abandoned or
-- broken) with a reason, who created it, and when a human was last seen
-- there (active, in Unix milliseconds like created; a table made before
-- this migration was last seen when it was created).
--
-- tables_open holds only the open tables, so listing them at start-up
-- does not read through every table ever closed.

-- +goose Up
ALTER TABLE tables ADD COLUMN closed TEXT NOT NULL DEFAULT '';
ALTER TABLE tables ADD COLUMN reason TEXT NOT NULL DEFAULT '';
ALTER TABLE tables ADD COLUMN creator TEXT NOT NULL DEFAULT '';
ALTER TABLE tables ADD COLUMN active INTEGER NOT NULL DEFAULT 0;
UPDATE tables SET active = created;
CREATE INDEX tables_open ON tables (id) WHERE closed = '';
