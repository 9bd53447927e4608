package sqldb

import (
	"context"
	"errors"
	"time"

	"tapis/store"
)

// Friends, blocks and notifications (store/friends.go, store/notify.go):
// their writes read first (is there a request the other way? which
// deliveries are due?), so each runs in a transaction, written once here
// over Tx, which each store makes of its own (SQLite's writer's *sql.Tx,
// a pgx.Tx).

// Tx is a transaction as the writes below use it, in either dialect: the
// store picks the form of each Query.
type Tx interface {
	// Exec runs a write and says how many rows it changed.
	Exec(ctx context.Context, q Query, args ...any) (int64, error)
	// Query runs a read; the caller closes its rows.
	Query(ctx context.Context, q Query, args ...any) (RowsCloser, error)
}

// RowsCloser is Rows that must be closed.
type RowsCloser interface {
	Rows
	Close()
}

// The statements of friends and notifications.
var (
	friendState = shared(`SELECT state FROM tapis_friends WHERE player = ? AND other = ?`)
	// askedBy finds a request from the first player to the second that
	// the second has not blocked.
	askedBy = shared(`SELECT player FROM tapis_friends f WHERE f.player = ? AND f.other = ? AND f.state = 'outgoing'
		AND NOT EXISTS (SELECT 1 FROM tapis_blocks b WHERE b.player = f.other AND b.blocked = f.player)`)
	setEdge = shared(`INSERT INTO tapis_friends (player, other, state, at) VALUES (?, ?, ?, ?)
		ON CONFLICT (player, other) DO UPDATE SET state = excluded.state, at = excluded.at`)
	acceptEdge = shared(`UPDATE tapis_friends SET state = 'friend', at = ? WHERE player = ? AND other = ? AND state = 'outgoing'
		AND NOT EXISTS (SELECT 1 FROM tapis_blocks b WHERE b.player = ? AND b.blocked = ?)`)
	// Unfriend deletes what is between two players but blocks.
	Unfriend = shared(`DELETE FROM tapis_friends WHERE (player = ? AND other = ?) OR (player = ? AND other = ?)`)
	block    = shared(`INSERT INTO tapis_blocks (player, blocked, at) VALUES (?, ?, ?) ON CONFLICT (player, blocked) DO NOTHING`)
	// Unblock lifts a block.
	Unblock = shared(`DELETE FROM tapis_blocks WHERE player = ? AND blocked = ?`)
	// Relations is store.Friends.Relations's read: the other player,
	// their name and username, the state and its time.
	Relations = shared(`
		SELECT f.other, p.name, p.username, f.state, f.at FROM tapis_friends f JOIN tapis_players p ON p.id = f.other
		WHERE f.player = ? AND NOT p.deleted
		UNION ALL
		SELECT f.player, p.name, p.username, 'incoming', f.at FROM tapis_friends f JOIN tapis_players p ON p.id = f.player
		WHERE f.other = ? AND f.state = 'outgoing' AND NOT p.deleted
		  AND NOT EXISTS (SELECT 1 FROM tapis_blocks b WHERE b.player = f.other AND b.blocked = f.player)
		UNION ALL
		SELECT b.blocked, p.name, p.username, 'blocked', b.at FROM tapis_blocks b JOIN tapis_players p ON p.id = b.blocked
		WHERE b.player = ? AND NOT p.deleted`)
	// Blockers is who blocked a player.
	Blockers = shared(`SELECT player FROM tapis_blocks WHERE blocked = ?`)
	// Blocks is who has a block with a player, either way.
	Blocks = shared(`SELECT blocked FROM tapis_blocks WHERE player = ? UNION SELECT player FROM tapis_blocks WHERE blocked = ?`)
)

// ForgetPlayer are the statements that remove what friends and
// notifications keep of a player whose account is deleted (each takes
// the player's id once): their friendships, requests and blocks either
// way, their inbox and its deliveries, their choices, paces, address and
// browsers' subscriptions. DeletePlayer runs them with its own.
var ForgetPlayer = []Query{
	shared(`DELETE FROM tapis_friends WHERE player = ?`),
	shared(`DELETE FROM tapis_friends WHERE other = ?`),
	shared(`DELETE FROM tapis_blocks WHERE player = ?`),
	shared(`DELETE FROM tapis_blocks WHERE blocked = ?`),
	shared(`DELETE FROM tapis_deliveries WHERE id IN (SELECT id FROM tapis_notifications WHERE player = ?)`),
	shared(`DELETE FROM tapis_notifications WHERE player = ?`),
	shared(`DELETE FROM tapis_notify_prefs WHERE player = ?`),
	shared(`DELETE FROM tapis_paces WHERE player = ?`),
	shared(`DELETE FROM tapis_emails WHERE player = ?`),
	shared(`DELETE FROM tapis_push WHERE player = ?`),
}

// RequestFriend is store.Friends.RequestFriend in tx.
func RequestFriend(ctx context.Context, tx Tx, from, to string, at time.Time) (string, error) {
	if state, err := one(ctx, tx, friendState, from, to); err != nil || state != "" {
		return state, err
	}
	asked, err := one(ctx, tx, askedBy, to, from)
	if err != nil {
		return "", err
	}
	if asked != "" {
		return store.Friend, befriend(ctx, tx, from, to, at)
	}
	_, err = tx.Exec(ctx, setEdge, from, to, store.Outgoing, at.UnixMilli())
	return store.Outgoing, err
}

// AcceptFriend is store.Friends.AcceptFriend in tx.
func AcceptFriend(ctx context.Context, tx Tx, player, from string, at time.Time) error {
	n, err := tx.Exec(ctx, acceptEdge, at.UnixMilli(), from, player, player, from)
	switch {
	case err != nil:
		return err
	case n != 1:
		return store.ErrNotFound
	}
	_, err = tx.Exec(ctx, setEdge, player, from, store.Friend, at.UnixMilli())
	return err
}

// befriend makes a and b friends.
func befriend(ctx context.Context, tx Tx, a, b string, at time.Time) error {
	if _, err := tx.Exec(ctx, setEdge, a, b, store.Friend, at.UnixMilli()); err != nil {
		return err
	}
	_, err := tx.Exec(ctx, setEdge, b, a, store.Friend, at.UnixMilli())
	return err
}

// Block is store.Friends.Block in tx.
func Block(ctx context.Context, tx Tx, player, other string, at time.Time) error {
	if _, err := tx.Exec(ctx, block, player, other, at.UnixMilli()); err != nil {
		return err
	}
	_, err := tx.Exec(ctx, Unfriend, player, other, other, player)
	return err
}

// one reads the one text column of the first row q returns, "" if none.
func one(ctx context.Context, tx Tx, q Query, args ...any) (string, error) {
	rs, err := tx.Query(ctx, q, args...)
	if err != nil {
		return "", err
	}
	defer rs.Close()
	var s string
	if rs.Next() {
		err = rs.Scan(&s)
	}
	return s, errors.Join(err, rs.Err())
}

// ScanRelations reads Relations's rows, in store.SortRelations's order.
func ScanRelations(rs Rows) ([]store.Relation, error) {
	var out []store.Relation
	for rs.Next() {
		var r store.Relation
		var at int64
		if err := rs.Scan(&r.Player, &r.Name, &r.Username, &r.State, &at); err != nil {
			return nil, err
		}
		r.Since = time.UnixMilli(at)
		out = append(out, r)
	}
	store.SortRelations(out)
	return out, rs.Err()
}

// ScanStrings reads rows of one text column.
func ScanStrings(rs Rows) ([]string, error) {
	var out []string
	for rs.Next() {
		var s string
		if err := rs.Scan(&s); err != nil {
			return nil, err
		}
		out = append(out, s)
	}
	return out, rs.Err()
}
