package postgres

import (
	"context"
	"errors"
	"slices"
	"time"

	"github.com/jackc/pgx/v5"

	"tapis/store"
	"tapis/store/sqldb"
)

// PostgreSQL's friends, blocks and notifications: the writes that read
// first run in a transaction (sqldb writes them once for both stores over
// sqldb.Tx); deliveries are claimed in one statement that skips the rows
// another node is claiming (sqldb.ClaimPostgres).

// pgTx is a pgx transaction as sqldb.Tx.
type pgTx struct{ tx pgx.Tx }

func (t pgTx) Exec(ctx context.Context, q sqldb.Query, args ...any) (int64, error) {
	tag, err := t.tx.Exec(ctx, q.Postgres, args...)
	return tag.RowsAffected(), err
}

func (t pgTx) Query(ctx context.Context, q sqldb.Query, args ...any) (sqldb.RowsCloser, error) {
	return t.tx.Query(ctx, q.Postgres, args...)
}

// inTx runs f in a transaction; what failed is worded with what, but for
// ErrNotFound and a unique index's refusal, which the caller tells apart.
func (p *Store) inTx(ctx context.Context, what string, f func(sqldb.Tx) error) error {
	return p.tx(ctx, what, func(tx pgx.Tx) error {
		err := f(pgTx{tx})
		if err == nil || isUnique(err) || errors.Is(err, store.ErrNotFound) {
			return err
		}
		return p.fail(err, "%s", what)
	})
}

// RequestFriend implements store.Friends.
func (p *Store) RequestFriend(ctx context.Context, from, to string, at time.Time) (state string, err error) {
	err = p.inTx(ctx, "friend request", func(tx sqldb.Tx) (err error) {
		state, err = sqldb.RequestFriend(ctx, tx, from, to, at)
		return err
	})
	return state, err
}

// AcceptFriend implements store.Friends.
func (p *Store) AcceptFriend(ctx context.Context, player, from string, at time.Time) error {
	return p.inTx(ctx, "accepting a friend", func(tx sqldb.Tx) error {
		return sqldb.AcceptFriend(ctx, tx, player, from, at)
	})
}

// Unfriend implements store.Friends.
func (p *Store) Unfriend(ctx context.Context, a, b string) error {
	if _, err := p.exec(ctx, sqldb.Unfriend.Postgres, a, b, b, a); err != nil {
		return p.fail(err, "unfriending")
	}
	return nil
}

// Block implements store.Friends.
func (p *Store) Block(ctx context.Context, player, other string, at time.Time) error {
	return p.inTx(ctx, "block", func(tx sqldb.Tx) error { return sqldb.Block(ctx, tx, player, other, at) })
}

// Unblock implements store.Friends.
func (p *Store) Unblock(ctx context.Context, player, other string) error {
	if _, err := p.exec(ctx, sqldb.Unblock.Postgres, player, other); err != nil {
		return p.fail(err, "unblocking")
	}
	return nil
}

// query runs a read of q and hands its rows to scan.
func query[T any](p *Store, ctx context.Context, what string, scan func(sqldb.Rows) (T, error), q string, args ...any) (T, error) {
	var zero T
	if p.closed.Load() {
		return zero, store.ErrClosed
	}
	rs, err := p.pool.Query(ctx, q, args...)
	if err != nil {
		return zero, p.fail(err, "%s", what)
	}
	defer rs.Close()
	v, err := scan(rs)
	if err != nil {
		return zero, p.fail(err, "%s", what)
	}
	return v, nil
}

// Relations implements store.Friends.
func (p *Store) Relations(ctx context.Context, player string) ([]store.Relation, error) {
	return query(p, ctx, "friends of "+player, sqldb.ScanRelations, sqldb.Relations.Postgres, player, player, player)
}

// BlockedBy implements store.Friends.
func (p *Store) BlockedBy(ctx context.Context, player string, others []string) ([]string, error) {
	all, err := query(p, ctx, "blocks of "+player, sqldb.ScanStrings, sqldb.Blockers.Postgres, player)
	if err != nil {
		return nil, err
	}
	return slices.DeleteFunc(all, func(b string) bool { return !slices.Contains(others, b) }), nil
}

// Blocks implements store.Friends.
func (p *Store) Blocks(ctx context.Context, player string) ([]string, error) {
	return query(p, ctx, "blocks of "+player, sqldb.ScanStrings, sqldb.Blocks.Postgres, player, player)
}

// Notify implements store.Notifications.
func (p *Store) Notify(ctx context.Context, n store.Notification, channels []string) error {
	err := p.inTx(ctx, "notification", func(tx sqldb.Tx) error { return sqldb.Notify(ctx, tx, n, channels) })
	if isUnique(err) {
		return store.ErrTaken
	}
	return err
}

// Inbox implements store.Notifications.
func (p *Store) Inbox(ctx context.Context, player string, limit int) ([]store.Notification, error) {
	return query(p, ctx, "inbox of "+player, sqldb.ScanNotes, sqldb.Inbox.Postgres, player, max(limit, 0))
}

// MarkRead implements store.Notifications.
func (p *Store) MarkRead(ctx context.Context, player string, ids []string, at time.Time) (n int, err error) {
	err = p.inTx(ctx, "marking read", func(tx sqldb.Tx) (err error) {
		n, err = sqldb.MarkRead(ctx, tx, player, ids, at)
		return err
	})
	return n, err
}

// ClaimDeliveries implements store.Notifications.
func (p *Store) ClaimDeliveries(ctx context.Context, owner string, channels []string, now, until time.Time, limit int) ([]store.Delivery, error) {
	if len(channels) == 0 || limit <= 0 {
		return nil, nil
	}
	return query(p, ctx, "claiming deliveries", sqldb.ScanDeliveries, sqldb.ClaimPostgres,
		owner, until.UnixMilli(), now.UnixMilli(), channels, limit)
}

// changeOne runs a write that must change one row (DeliveryDone's,
// RetryDelivery's, VerifyEmail's), else is ErrNotFound.
func (p *Store) changeOne(ctx context.Context, what, q string, args ...any) error {
	n, err := p.exec(ctx, q, args...)
	switch {
	case err != nil:
		return p.fail(err, "%s", what)
	case n != 1:
		return store.ErrNotFound
	}
	return nil
}

// DeliveryDone implements store.Notifications.
func (p *Store) DeliveryDone(ctx context.Context, id, channel, owner string, at time.Time, failed string) error {
	return p.changeOne(ctx, "a delivery", sqldb.DeliveryDone.Postgres, sqldb.DoneAt(at), failed, id, channel, owner)
}

// RetryDelivery implements store.Notifications.
func (p *Store) RetryDelivery(ctx context.Context, id, channel, owner string, retry time.Time) error {
	return p.changeOne(ctx, "a delivery", sqldb.RetryDelivery.Postgres, retry.UnixMilli(), id, channel, owner)
}

// NotifyPrefs implements store.Notifications.
func (p *Store) NotifyPrefs(ctx context.Context, player string) ([]store.Pref, error) {
	return query(p, ctx, "notification choices of "+player, sqldb.ScanPrefs, sqldb.NotifyPrefs.Postgres, player)
}

// SetNotifyPref implements store.Notifications.
func (p *Store) SetNotifyPref(ctx context.Context, player string, pr store.Pref) error {
	if _, err := p.exec(ctx, sqldb.SetNotifyPref.Postgres, player, pr.Kind, pr.Channel, pr.On); err != nil {
		return p.fail(err, "notification choice of %s", player)
	}
	return nil
}

// SetEmail implements store.Notifications.
func (p *Store) SetEmail(ctx context.Context, e store.Email) error {
	q, args := sqldb.SetEmailArgs(e)
	if _, err := p.exec(ctx, q.Postgres, args...); err != nil {
		return p.fail(err, "e-mail of %s", e.Player)
	}
	return nil
}

// Email implements store.Notifications.
func (p *Store) Email(ctx context.Context, player string) (store.Email, error) {
	if p.closed.Load() {
		return store.Email{}, store.ErrClosed
	}
	var e store.Email
	err := p.pool.QueryRow(ctx, sqldb.Email.Postgres, player).Scan(&e.Player, &e.Address, &e.Lang, &e.Verified)
	switch {
	case errors.Is(err, pgx.ErrNoRows):
		return store.Email{}, store.ErrNotFound
	case err != nil:
		return store.Email{}, p.fail(err, "e-mail of %s", player)
	}
	return e, nil
}

// VerifyEmail implements store.Notifications.
func (p *Store) VerifyEmail(ctx context.Context, player, address string) error {
	return p.changeOne(ctx, "verifying an e-mail", sqldb.VerifyEmail.Postgres, player, address)
}

// Pace implements store.Notifications.
func (p *Store) Pace(ctx context.Context, player, key string, now, until time.Time) (bool, error) {
	n, err := p.exec(ctx, sqldb.Pace.Postgres, player, key, until.UnixMilli(), now.UnixMilli())
	if err != nil {
		return false, p.fail(err, "pace of %s", player)
	}
	return n == 1, nil
}

// PruneNotifications implements store.Notifications.
func (p *Store) PruneNotifications(ctx context.Context, before time.Time) (n int, err error) {
	err = p.inTx(ctx, "pruning notifications", func(tx sqldb.Tx) (err error) {
		n, err = sqldb.PruneNotifications(ctx, tx, before)
		return err
	})
	return n, err
}

// AddPushSub implements store.Notifications.
func (p *Store) AddPushSub(ctx context.Context, ps store.PushSub) error {
	if _, err := p.exec(ctx, sqldb.AddPushSub.Postgres, sqldb.AddPushSubArgs(ps)...); err != nil {
		return p.fail(err, "push subscription of %s", ps.Player)
	}
	return nil
}

// RemovePushSub implements store.Notifications.
func (p *Store) RemovePushSub(ctx context.Context, endpoint string) error {
	if _, err := p.exec(ctx, sqldb.RemovePushSub.Postgres, endpoint); err != nil {
		return p.fail(err, "a push subscription")
	}
	return nil
}

// PushSubs implements store.Notifications.
func (p *Store) PushSubs(ctx context.Context, player string) ([]store.PushSub, error) {
	return query(p, ctx, "push subscriptions of "+player, sqldb.ScanPushSubs, sqldb.PushSubs.Postgres, player)
}
