package sqldb

// The turn-based tables' clocks (store/clock.go), the same statements in
// both stores: an upsert both dialects speak, and reads joined with the
// tables, so that a closed table's clock is never due.

// The statements of the clocks.
var (
	SetClock = shared(`INSERT INTO tapis_clocks (table_id, deadline, clock) VALUES (?, ?, ?)
		ON CONFLICT (table_id) DO UPDATE SET deadline = excluded.deadline, clock = excluded.clock`)
	Clock      = shared(`SELECT deadline, clock FROM tapis_clocks WHERE table_id = ?`)
	OpenClocks = shared(`SELECT c.table_id, c.deadline, c.clock FROM tapis_clocks c JOIN tapis_tables t ON t.id = c.table_id
		WHERE ` + OpenTable)
	DueClocks = shared(`SELECT c.table_id FROM tapis_clocks c JOIN tapis_tables t ON t.id = c.table_id
		WHERE c.deadline IS NOT NULL AND c.deadline <= ? AND ` + OpenTable + `
		ORDER BY c.deadline, c.table_id LIMIT ?`)
)
