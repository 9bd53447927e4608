package sqlite

import (
	"database/sql"
	"fmt"
	"strings"
)

// The moves: AppendMove's writes.

// moveOp is AppendMove's write.
type moveOp struct {
	matchKey
	index, seat int
	move        string
}

const (
	// sqlNextMove is the index of a match's next move, and whether the
	// match was started.
	sqlNextMove = `SELECT EXISTS (SELECT 1 FROM tapis_matches WHERE table_id = ? AND no = ?),
		(SELECT COALESCE(MAX(idx) + 1, 0) FROM tapis_moves WHERE table_id = ? AND no = ?)`
	sqlMove = `INSERT INTO tapis_moves (table_id, no, idx, seat, move) VALUES (?, ?, ?, ?, ?)`
)

// moveRows are the numbers of rows of the writer's INSERTs of several
// moves, largest first, each a statement prepared once: a run of moves
// goes in as few statements as these sizes add up to (37 moves as 16,
// 16, 4 and 1).
var moveRows = []int{64, 16, 4, 1}

// movesSQL is the INSERT of n moves. OR IGNORE, because a statement that
// might fail in the middle of its rows must be able to undo the rows
// before, and SQLite copies every page it changes into a statement
// journal for that, which costs what the statements save (measured):
// with OR IGNORE a row already there is skipped, the rows inserted are
// counted, and a run that comes short is done again row by row (commit).
func movesSQL(n int) string {
	return `INSERT OR IGNORE INTO tapis_moves (table_id, no, idx, seat, move) VALUES (?, ?, ?, ?, ?)` +
		strings.Repeat(`, (?, ?, ?, ?, ?)`, n-1)
}

// moveRun is how many moves begin batch.
func moveRun(batch []op) int {
	n := 0
	for n < len(batch) && batch[n].move != nil {
		n++
	}
	return n
}

// appendMove appends m if it is the next move of a started match, so a
// replay never meets a gap. The match's next index is looked up once,
// then kept in s.next; the primary key still refuses a move recorded
// twice.
func (s *Store) appendMove(tx *sql.Tx, m *moveOp) error {
	_, known := s.next[m.matchKey]
	if err := s.nextMove(tx, m); err != nil {
		return err
	}
	if _, err := s.stmt(tx, sqlMove).Exec(m.table, m.no, m.index, m.seat, m.move); err != nil {
		if known {
			s.next[m.matchKey] = m.index
		} else {
			delete(s.next, m.matchKey)
		}
		return fmt.Errorf("store: %v", err)
	}
	if !known && len(s.next) > maxNext {
		clear(s.next)
	}
	return nil
}

// nextMove refuses m unless it is its match's next move, and counts it
// as appended in s.next.
func (s *Store) nextMove(tx *sql.Tx, m *moveOp) error {
	next, known := s.next[m.matchKey]
	if !known {
		var started bool
		err := s.stmt(tx, sqlNextMove).QueryRow(m.table, m.no, m.table, m.no).Scan(&started, &next)
		switch {
		case err != nil:
			return fmt.Errorf("store: %v", err)
		case !started:
			return fmt.Errorf("store: write refused (table %s: match %d not started)", m.table, m.no)
		}
	}
	if m.index != next {
		return fmt.Errorf("store: write refused (table %s: move %d of match %d out of order)", m.table, m.index, m.no)
	}
	s.next[m.matchKey] = m.index + 1
	return nil
}

// appendRun appends the moves of ops, a run of a batch, in tx, setting
// errs[i] to why ops[i] is refused: each is checked as appendMove checks
// one, and those that pass are inserted together. It returns false if a
// statement failed or came short of rows, which only a move recorded
// twice can do: the caller then rolls back.
func (s *Store) appendRun(tx *sql.Tx, ops []op, errs []error) bool {
	if len(s.next)+len(ops) > maxNext {
		// Forgotten before the run, not in it: the moves it counts
		// are not in the database until inserted.
		clear(s.next)
	}
	rows := make([]int, 0, len(ops))
	for i, o := range ops {
		if errs[i] = s.nextMove(tx, o.move); errs[i] == nil {
			rows = append(rows, i)
		}
	}
	args := make([]any, 0, 5*moveRows[0])
	for len(rows) > 0 {
		n := 1
		for _, r := range moveRows {
			if r <= len(rows) {
				n = r
				break
			}
		}
		args = args[:0]
		for _, i := range rows[:n] {
			m := ops[i].move
			args = append(args, m.table, m.no, m.index, m.seat, m.move)
		}
		res, err := s.stmt(tx, movesSQL(n)).Exec(args...)
		if err != nil {
			return false
		}
		if got, err := res.RowsAffected(); err != nil || got != int64(n) {
			return false
		}
		rows = rows[n:]
	}
	return true
}
