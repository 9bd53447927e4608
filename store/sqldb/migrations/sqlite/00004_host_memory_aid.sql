-- A table's host (the seat its creator took, -1 for none) and whether it
-- was created with the memory aid (Cabo's log then repeats the cards a
-- player looked at privately). A table made before this migration has no
-- known host: -1 gives nobody the host's powers, rather than guessing a
-- seat that might be a guest's; and its memory aid is off, the rules' own
-- setting, so a table's log never starts revealing more after an upgrade.

-- +goose Up
ALTER TABLE tables ADD COLUMN host INTEGER NOT NULL DEFAULT -1;
ALTER TABLE tables ADD COLUMN memory_aid INTEGER NOT NULL DEFAULT 0;
