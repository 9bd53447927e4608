package sqlite

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"slices"
	"time"

	"tapis/store"
	"tapis/store/sqldb"
)

// SQLite's friends, blocks and notifications: the writes that read first
// run as the writer's op.run, in its transaction (sqldb writes them once
// for both stores over sqldb.Tx); the others are ops like any.

// sqlTx is the writer's transaction as sqldb.Tx.
type sqlTx struct{ tx *sql.Tx }

func (t sqlTx) Exec(ctx context.Context, q sqldb.Query, args ...any) (int64, error) {
	res, err := t.tx.ExecContext(ctx, q.SQLite, args...)
	if err != nil {
		return 0, err
	}
	return res.RowsAffected()
}

func (t sqlTx) Query(ctx context.Context, q sqldb.Query, args ...any) (sqldb.RowsCloser, error) {
	rs, err := t.tx.QueryContext(ctx, q.SQLite, args...)
	if err != nil {
		return nil, err
	}
	return rowsCloser{rs}, nil
}

// rowsCloser is *sql.Rows as sqldb.RowsCloser, whose Close returns
// nothing (an error closing rows read to their end says nothing new).
type rowsCloser struct{ *sql.Rows }

func (r rowsCloser) Close() { r.Rows.Close() }

// inTx runs f in the writer's transaction; what failed is worded with
// what.
func (s *Store) inTx(ctx context.Context, what string, f func(sqldb.Tx) error) error {
	return s.do(ctx, op{run: func(tx *sql.Tx) error {
		if err := f(sqlTx{tx}); err != nil {
			if isUnique(err) || errors.Is(err, store.ErrNotFound) {
				return err
			}
			return fmt.Errorf("store: %s: %v", what, err)
		}
		return nil
	}})
}

// RequestFriend implements store.Friends.
func (s *Store) RequestFriend(ctx context.Context, from, to string, at time.Time) (state string, err error) {
	err = s.inTx(ctx, "friend request", func(tx sqldb.Tx) (err error) {
		state, err = sqldb.RequestFriend(ctx, tx, from, to, at)
		return err
	})
	return state, err
}

// AcceptFriend implements store.Friends.
func (s *Store) AcceptFriend(ctx context.Context, player, from string, at time.Time) error {
	return s.inTx(ctx, "accepting a friend", func(tx sqldb.Tx) error {
		return sqldb.AcceptFriend(ctx, tx, player, from, at)
	})
}

// Unfriend implements store.Friends.
func (s *Store) Unfriend(ctx context.Context, a, b string) error {
	return s.exec(ctx, sqldb.Unfriend.SQLite, a, b, b, a)
}

// Block implements store.Friends.
func (s *Store) Block(ctx context.Context, player, other string, at time.Time) error {
	return s.inTx(ctx, "block", func(tx sqldb.Tx) error { return sqldb.Block(ctx, tx, player, other, at) })
}

// Unblock implements store.Friends.
func (s *Store) Unblock(ctx context.Context, player, other string) error {
	return s.exec(ctx, sqldb.Unblock.SQLite, player, other)
}

// query runs a read of q and hands its rows to scan.
func query[T any](s *Store, ctx context.Context, what string, scan func(sqldb.Rows) (T, error), q sqldb.Query, args ...any) (T, error) {
	var zero T
	if s.closed() {
		return zero, store.ErrClosed
	}
	rs, err := s.db.QueryContext(ctx, q.SQLite, args...)
	if err != nil {
		return zero, fmt.Errorf("store: %s: %v", what, err)
	}
	defer rs.Close()
	v, err := scan(rs)
	if err != nil {
		return zero, fmt.Errorf("store: %s: %v", what, err)
	}
	return v, nil
}

// Relations implements store.Friends.
func (s *Store) Relations(ctx context.Context, player string) ([]store.Relation, error) {
	return query(s, ctx, "friends of "+player, sqldb.ScanRelations, sqldb.Relations, player, player, player)
}

// BlockedBy implements store.Friends.
func (s *Store) BlockedBy(ctx context.Context, player string, others []string) ([]string, error) {
	all, err := query(s, ctx, "blocks of "+player, sqldb.ScanStrings, sqldb.Blockers, player)
	if err != nil {
		return nil, err
	}
	return slices.DeleteFunc(all, func(b string) bool { return !slices.Contains(others, b) }), nil
}

// Blocks implements store.Friends.
func (s *Store) Blocks(ctx context.Context, player string) ([]string, error) {
	return query(s, ctx, "blocks of "+player, sqldb.ScanStrings, sqldb.Blocks, player, player)
}

// Notify implements store.Notifications.
func (s *Store) Notify(ctx context.Context, n store.Notification, channels []string) error {
	err := s.inTx(ctx, "notification", func(tx sqldb.Tx) error { return sqldb.Notify(ctx, tx, n, channels) })
	if isUnique(err) {
		return store.ErrTaken
	}
	return err
}

// Inbox implements store.Notifications.
func (s *Store) Inbox(ctx context.Context, player string, limit int) ([]store.Notification, error) {
	return query(s, ctx, "inbox of "+player, sqldb.ScanNotes, sqldb.Inbox, player, max(limit, 0))
}

// MarkRead implements store.Notifications.
func (s *Store) MarkRead(ctx context.Context, player string, ids []string, at time.Time) (n int, err error) {
	err = s.inTx(ctx, "marking read", func(tx sqldb.Tx) (err error) {
		n, err = sqldb.MarkRead(ctx, tx, player, ids, at)
		return err
	})
	return n, err
}

// ClaimDeliveries implements store.Notifications: the writer claims for
// one caller at a time, so two never take the same delivery.
func (s *Store) ClaimDeliveries(ctx context.Context, owner string, channels []string, now, until time.Time, limit int) (ds []store.Delivery, err error) {
	err = s.inTx(ctx, "claiming deliveries", func(tx sqldb.Tx) (err error) {
		ds, err = sqldb.ClaimSQLite(ctx, tx, owner, channels, now, until, limit)
		return err
	})
	return ds, err
}

// DeliveryDone implements store.Notifications.
func (s *Store) DeliveryDone(ctx context.Context, id, channel, owner string, at time.Time, failed string) error {
	return s.do(ctx, op{one: true, refused: store.ErrNotFound, query: sqldb.DeliveryDone.SQLite,
		args: []any{sqldb.DoneAt(at), failed, id, channel, owner}})
}

// RetryDelivery implements store.Notifications.
func (s *Store) RetryDelivery(ctx context.Context, id, channel, owner string, retry time.Time) error {
	return s.do(ctx, op{one: true, refused: store.ErrNotFound, query: sqldb.RetryDelivery.SQLite,
		args: []any{retry.UnixMilli(), id, channel, owner}})
}

// NotifyPrefs implements store.Notifications.
func (s *Store) NotifyPrefs(ctx context.Context, player string) ([]store.Pref, error) {
	return query(s, ctx, "notification choices of "+player, sqldb.ScanPrefs, sqldb.NotifyPrefs, player)
}

// SetNotifyPref implements store.Notifications.
func (s *Store) SetNotifyPref(ctx context.Context, player string, p store.Pref) error {
	return s.exec(ctx, sqldb.SetNotifyPref.SQLite, player, p.Kind, p.Channel, p.On)
}

// SetEmail implements store.Notifications.
func (s *Store) SetEmail(ctx context.Context, e store.Email) error {
	q, args := sqldb.SetEmailArgs(e)
	return s.exec(ctx, q.SQLite, args...)
}

// Email implements store.Notifications.
func (s *Store) Email(ctx context.Context, player string) (store.Email, error) {
	if s.closed() {
		return store.Email{}, store.ErrClosed
	}
	var e store.Email
	err := s.db.QueryRowContext(ctx, sqldb.Email.SQLite, player).Scan(&e.Player, &e.Address, &e.Lang, &e.Verified)
	switch {
	case errors.Is(err, sql.ErrNoRows):
		return store.Email{}, store.ErrNotFound
	case err != nil:
		return store.Email{}, fmt.Errorf("store: e-mail of %s: %v", player, err)
	}
	return e, nil
}

// VerifyEmail implements store.Notifications.
func (s *Store) VerifyEmail(ctx context.Context, player, address string) error {
	return s.do(ctx, op{one: true, refused: store.ErrNotFound, query: sqldb.VerifyEmail.SQLite, args: []any{player, address}})
}

// Pace implements store.Notifications.
func (s *Store) Pace(ctx context.Context, player, key string, now, until time.Time) (bool, error) {
	var n int64
	err := s.do(ctx, op{query: sqldb.Pace.SQLite, args: []any{player, key, until.UnixMilli(), now.UnixMilli()}, affected: &n})
	return n == 1, err
}

// PruneNotifications implements store.Notifications.
func (s *Store) PruneNotifications(ctx context.Context, before time.Time) (n int, err error) {
	err = s.inTx(ctx, "pruning notifications", func(tx sqldb.Tx) (err error) {
		n, err = sqldb.PruneNotifications(ctx, tx, before)
		return err
	})
	return n, err
}

// AddPushSub implements store.Notifications.
func (s *Store) AddPushSub(ctx context.Context, p store.PushSub) error {
	return s.exec(ctx, sqldb.AddPushSub.SQLite, sqldb.AddPushSubArgs(p)...)
}

// RemovePushSub implements store.Notifications.
func (s *Store) RemovePushSub(ctx context.Context, endpoint string) error {
	return s.exec(ctx, sqldb.RemovePushSub.SQLite, endpoint)
}

// PushSubs implements store.Notifications.
func (s *Store) PushSubs(ctx context.Context, player string) ([]store.PushSub, error) {
	return query(s, ctx, "push subscriptions of "+player, sqldb.ScanPushSubs, sqldb.PushSubs, player)
}
