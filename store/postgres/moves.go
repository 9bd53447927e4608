package postgres

import (
	"context"
	"fmt"
	"sync"
	"time"

	"tapis/store"
	"tapis/store/sqldb"
)

// Appending moves to PostgreSQL in batches. One statement per move costs
// the client a round trip per move (a write and a read on the socket,
// most of its CPU for a move); moves from many tables at once go in
// together, one statement and one commit for a batch. A caller still
// returns only once its move is committed, with its own error.

// matchKey is a match: its table and number.
type matchKey struct {
	table string
	no    int
}

// pgMove is one AppendMove waiting for its batch.
type pgMove struct {
	matchKey
	index, seat int
	move        string
	err         chan error
}

// pgMoves batches the moves of a Store.
type pgMoves struct {
	ops  chan *pgMove
	quit chan struct{}
	done chan struct{} // closed once every batch is answered
	// slots bounds the batches under way at once, which leaves the
	// pool's other connections to other writes and reads.
	slots chan struct{}
}

func newPGMoves(conns int) *pgMoves {
	return &pgMoves{ops: make(chan *pgMove, 1024), quit: make(chan struct{}), done: make(chan struct{}),
		slots: make(chan struct{}, max(1, conns/2))}
}

// appendBatched queues a move and waits for its batch's commit.
func (p *Store) appendBatched(ctx context.Context, o *pgMove) error {
	o.err = make(chan error, 1)
	select {
	case p.moves.ops <- o:
	case <-p.moves.quit:
		return store.ErrClosed
	case <-ctx.Done():
		return ctx.Err()
	}
	select {
	case err := <-o.err:
		return err
	case <-p.moves.done:
		// The batcher may have answered just before it stopped.
		select {
		case err := <-o.err:
			return err
		default:
			return store.ErrClosed
		}
	}
}

// batcher gathers moves into batches, lingering as SQLite's writer does
// (see sqldb.Pacer), and runs each batch in a goroutine of its own, up to
// len(slots) at once. At Close it runs what is queued, then waits for
// every batch.
func (p *Store) batcher() {
	m := p.moves
	var wg sync.WaitGroup
	defer close(m.done)
	defer wg.Wait()
	var pace sqldb.Pacer
	linger := time.NewTimer(time.Hour)
	linger.Stop()
	const most = 256
	for {
		var batch []*pgMove
		select {
		case o := <-m.ops:
			batch = append(make([]*pgMove, 0, 16), o)
		case <-m.quit:
			for {
				batch = drainMoves(m.ops, nil, most)
				if len(batch) == 0 {
					return
				}
				p.appendMoves(batch)
			}
		}
		batch = drainMoves(m.ops, batch, most)
		if now := time.Now(); pace.Linger(len(batch), now) {
			n := len(batch)
			linger.Reset(sqldb.LingerFor)
		wait:
			for len(batch) < most {
				select {
				case o := <-m.ops:
					batch = append(batch, o)
				case <-linger.C:
					break wait
				case <-m.quit:
					break wait
				}
			}
			linger.Stop()
			pace.Gained(len(batch)-n, time.Now())
		}
		// Waiting for a slot lets the next batch grow meanwhile.
		m.slots <- struct{}{}
		wg.Add(1)
		go func() {
			defer wg.Done()
			p.appendMoves(batch)
			<-m.slots
		}()
	}
}

// drainMoves adds to batch the moves waiting in ops, up to most.
func drainMoves(ops chan *pgMove, batch []*pgMove, most int) []*pgMove {
	for len(batch) < most {
		select {
		case o := <-ops:
			batch = append(batch, o)
		default:
			return batch
		}
	}
	return batch
}

// pgAppendMoves inserts the moves that are each the next one of a started
// match, and returns those it inserted. Its subqueries see the moves as
// they were before the statement: of two moves of one match, the second
// would be refused, so a batch never holds two.
const pgAppendMoves = `
	INSERT INTO tapis_moves (table_id, no, idx, seat, move)
	SELECT m.t, m.no, m.idx, m.seat, m.move
	FROM unnest($1::text[], $2::integer[], $3::integer[], $4::integer[], $5::text[]) AS m(t, no, idx, seat, move)
	WHERE EXISTS (SELECT 1 FROM tapis_matches WHERE table_id = m.t AND no = m.no)
	  AND (SELECT COALESCE(MAX(idx) + 1, 0) FROM tapis_moves WHERE table_id = m.t AND no = m.no) = m.idx
	ON CONFLICT DO NOTHING
	RETURNING table_id, no, idx`

// appendMoves appends a batch and answers each of its moves. A move the
// batch's statement did not insert (refused, or the statement failed) is
// appended again on its own, which says why it fails, as one move
// appended alone always did.
func (p *Store) appendMoves(batch []*pgMove) {
	ctx := context.Background()
	var alone []*pgMove
	if len(batch) == 1 {
		alone = batch
	} else {
		type key struct {
			matchKey
			index int
		}
		in := make(map[matchKey]*pgMove, len(batch))
		var tables, moves []string
		var nos, idxs, seats []int32
		for _, o := range batch {
			if in[o.matchKey] != nil {
				alone = append(alone, o) // after the other
				continue
			}
			in[o.matchKey] = o
			tables, moves = append(tables, o.table), append(moves, o.move)
			nos, idxs, seats = append(nos, int32(o.no)), append(idxs, int32(o.index)), append(seats, int32(o.seat))
		}
		done := map[key]bool{}
		rows, err := p.pool.Query(ctx, pgAppendMoves, tables, nos, idxs, seats, moves)
		if err == nil {
			var k key
			var no, idx int32
			for rows.Next() {
				if err = rows.Scan(&k.table, &no, &idx); err != nil {
					break
				}
				k.no, k.index = int(no), int(idx)
				done[k] = true
			}
			rows.Close()
			if err == nil {
				err = rows.Err()
			}
		}
		if err != nil {
			clear(done) // the statement, all or nothing, inserted none
		}
		first := alone
		alone = nil
		for _, o := range batch {
			if done[key{o.matchKey, o.index}] && in[o.matchKey] == o {
				o.err <- nil
			} else if in[o.matchKey] == o {
				alone = append(alone, o)
			}
		}
		alone = append(alone, first...)
	}
	for _, o := range alone {
		o.err <- p.appendOne(ctx, o)
	}
}

// appendOne appends one move in one statement, so one round trip: the
// move goes in only as the next one of a started match. Two writers of
// the same index both see it free; the primary key makes the second wait
// for the first and then refuses it, so a move is never recorded twice.
func (p *Store) appendOne(ctx context.Context, o *pgMove) error {
	// Not p.exec: at Close, the moves queued still go in.
	tag, err := p.pool.Exec(ctx, `
		INSERT INTO tapis_moves (table_id, no, idx, seat, move)
		SELECT $1::text, $2::integer, $3::integer, $4::integer, $5::text
		WHERE EXISTS (SELECT 1 FROM tapis_matches WHERE table_id = $1 AND no = $2)
		  AND (SELECT COALESCE(MAX(idx) + 1, 0) FROM tapis_moves WHERE table_id = $1 AND no = $2) = $3`,
		o.table, o.no, o.index, o.seat, o.move)
	switch {
	case isUnique(err):
		return fmt.Errorf("store: postgres: table %s: move %d of match %d is already recorded", o.table, o.index, o.no)
	case err != nil:
		return p.fail(err, "table %s: move %d of match %d", o.table, o.index, o.no)
	case tag.RowsAffected() != 1:
		return fmt.Errorf("store: postgres: table %s: move %d of match %d out of order", o.table, o.index, o.no)
	}
	return nil
}
