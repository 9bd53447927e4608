package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"os/signal"
	"syscall"

	"tapis/game"
	"tapis/games"
	"tapis/replay"
	"tapis/store"
)

// runCheck is `tapis check --db PATH|postgres://...`: the store's own
// integrity check (SQLite's pages and indexes), then every table loaded
// and its latest match replayed from its seed, as a server restoring it
// would, and whether the store's end of that match agrees with its moves
// (a match over but held unfinished, as a crash after its last move left
// it, or the reverse). One line per problem, naming the table; a summary
// line; exit 1 if anything failed, 0 if not, 2 for a bad command line.
//
// Opening the database brings its schema up to date, as serve would.
func runCheck(args []string, stdout, stderr io.Writer) int {
	fl := flags("check", `Checks a database as a server restoring it would: the store's own integrity
check, then every table loaded and its latest match replayed from its seed.
One line per problem, then a summary; exit 1 if anything failed.`)
	db := fl.String("db", "tapis.db", `the database to check: a SQLite database file or a PostgreSQL URL (postgres://user:password@host:port/database?sslmode=disable&search_path=schema)`)
	if status, ok := parse(fl, args, stdout, stderr); !ok {
		return status
	}
	if fl.NArg() > 0 {
		fail(stderr, "check", "unexpected %q: the database is given with --db", fl.Arg(0))
		return 2
	}
	if *db == ":memory:" {
		fail(stderr, "check", "a :memory: store keeps nothing to check")
		return 2
	}
	if !isPostgres(*db) {
		// Opening a SQLite file that is not there would create it, and
		// find nothing wrong with it.
		if _, err := os.Stat(*db); err != nil {
			fail(stderr, "check", "%v", err)
			return 2
		}
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	if problems := check(ctx, *db, stdout); problems > 0 {
		return 1
	}
	return 0
}

// check checks the database db names, printing to out, and returns the
// number of problems found.
func check(ctx context.Context, db string, out io.Writer) int {
	problems, tables, moves := 0, 0, 0
	problem := func(format string, args ...any) {
		problems++
		fmt.Fprintf(out, format+"\n", args...)
	}
	defer func() {
		if problems == 0 {
			fmt.Fprintf(out, "ok: %d tables, %d moves replayed\n", tables, moves)
		} else {
			noun := "problems"
			if problems == 1 {
				noun = "problem"
			}
			fmt.Fprintf(out, "%d %s: %d tables, %d moves replayed\n", problems, noun, tables, moves)
		}
	}()
	st, err := openStore(ctx, db)
	if err != nil {
		problem("database: %v", err)
		return problems
	}
	defer st.Close()
	if c, ok := st.(store.IntegrityChecker); ok {
		if err := c.Check(ctx); err != nil {
			problem("database: %v", err)
		}
	}
	ids, err := st.Tables(ctx)
	if err != nil {
		problem("database: %v", err)
		return problems
	}
	for _, id := range ids {
		if ctx.Err() != nil {
			problem("interrupted after %d tables", tables)
			return problems
		}
		tables++
		sv, err := st.Load(ctx, id)
		if err != nil {
			problem("table %s: %v", id, err)
			continue
		}
		n, over, err := replayTable(sv)
		moves += n
		if err != nil {
			if sv.Closed != store.NotClosed {
				err = fmt.Errorf("%w (closed as %s: %s)", err, sv.Closed, sv.Reason)
			}
			problem("table %s: %v", id, err)
			continue
		}
		// The store's end of a match and its moves must agree: a crash
		// between the last move and the write of its end leaves a match
		// that is over but held open (a server marks it over when it
		// loads the table).
		switch m := sv.Match; {
		case m == nil:
		case over && !m.Over && sv.Closed == store.NotClosed:
			problem("table %s: match %d: its moves end the game, but the store holds it unfinished (a crash after its last move?); a server marks it over when it loads the table", id, m.No)
		case !over && m.Over:
			problem("table %s: match %d: the store marks it over, but its moves do not end the game", id, m.No)
		}
	}
	return problems
}

// replayTable replays a table's latest match, or for a table that has
// none checks that its game and options start one. It returns the moves
// applied, whether they end the game, and what failed, if anything.
func replayTable(sv store.Saved) (applied int, over bool, err error) {
	// A rules engine fed a damaged row (a seat number far out of range)
	// may panic; that is one more problem to report, not the end of the
	// check.
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("replaying panicked: %v", r)
		}
	}()
	s := replay.Script{Game: sv.Game, Players: sv.Players, Options: sv.Options}
	if sv.Match != nil {
		s.Seed = sv.Match.Seed
		for _, m := range sv.Match.Moves {
			s.Moves = append(s.Moves, replay.Step{Seat: game.Seat(m.Seat), Move: m.Move})
		}
	}
	out, err := replay.Run(s, games.Named)
	if err != nil {
		return 0, false, err
	}
	if len(out.Rejected) > 0 {
		// The first refusal is the problem; the moves after it were
		// played on a state that had gone astray.
		r := out.Rejected[0]
		err = fmt.Errorf("match %d: move %d (seat %d) is refused: %s", sv.Match.No, r.Index, s.Moves[r.Index].Seat, r.Error)
		if len(out.Rejected) > 1 {
			err = fmt.Errorf("%w (and %d moves after it)", err, len(out.Rejected)-1)
		}
		return out.Applied, false, err
	}
	return out.Applied, out.Over, nil
}
