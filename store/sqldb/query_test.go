package sqldb

import "testing"

// rebind numbers a shared statement's parameters as PostgreSQL has them.
func TestRebind(t *testing.T) {
	for q, want := range map[string]string{
		`SELECT 1`:                              `SELECT 1`,
		`DELETE FROM x WHERE a = ?`:             `DELETE FROM x WHERE a = $1`,
		`UPDATE x SET a = ?, b = ? WHERE c = ?`: `UPDATE x SET a = $1, b = $2 WHERE c = $3`,
	} {
		if got := rebind(q); got != want {
			t.Errorf("rebind(%q) = %q, want %q", q, got, want)
		}
	}
	if SetUsername.Postgres != `UPDATE tapis_players SET username = $1, username_key = $2, password = $3 WHERE id = $4 AND username_key = ''` {
		t.Errorf("SetUsername for PostgreSQL: %s", SetUsername.Postgres)
	}
}
