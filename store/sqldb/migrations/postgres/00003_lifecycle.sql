-- A table's lifecycle: closed ('' while open, else expired, abandoned or
-- broken) with a reason, who created it, and when a human was last seen
-- there (a table made before this migration was last seen when it was
-- created).
--
-- tapis_tables_open holds only the open tables, so listing them at
-- start-up does not read through every table ever closed.

-- +goose Up
ALTER TABLE tapis_tables ADD COLUMN closed text NOT NULL DEFAULT '';
ALTER TABLE tapis_tables ADD COLUMN reason text NOT NULL DEFAULT '';
ALTER TABLE tapis_tables ADD COLUMN creator text NOT NULL DEFAULT '';
ALTER TABLE tapis_tables ADD COLUMN active timestamptz;
UPDATE tapis_tables SET active = created;
ALTER TABLE tapis_tables ALTER COLUMN active SET NOT NULL;
CREATE INDEX tapis_tables_open ON tapis_tables (id) WHERE closed = '';
