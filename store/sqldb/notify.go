package sqldb

import (
	"cmp"
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"time"

	"tapis/store"
)

// The statements of notifications.
var (
	notify = shared(`INSERT INTO tapis_notifications (id, player, kind, payload, created) VALUES (?, ?, ?, ?, ?)`)
	// deliver makes a delivery of the notification just recorded.
	deliver = shared(`INSERT INTO tapis_deliveries (id, channel, seq) SELECT id, ?, seq FROM tapis_notifications WHERE id = ?`)
	// NoteColumns is a notification's (ScanNote).
	NoteColumns = `SELECT id, player, kind, payload, created, read FROM tapis_notifications `
	// Inbox is store.Notifications.Inbox's read.
	Inbox       = shared(NoteColumns + `WHERE player = ? ORDER BY created DESC, seq DESC LIMIT ?`)
	readAll     = shared(`UPDATE tapis_notifications SET read = ? WHERE player = ? AND read = 0`)
	readOne     = shared(`UPDATE tapis_notifications SET read = ? WHERE player = ? AND read = 0 AND id = ?`)
	claimedNote = shared(NoteColumns + `WHERE id = ?`)
	attempts    = shared(`SELECT attempts FROM tapis_deliveries WHERE id = ? AND channel = ?`)
	// DeliveryDone and RetryDelivery change a delivery its owner claimed
	// and has not done.
	DeliveryDone  = shared(`UPDATE tapis_deliveries SET done = ?, failed = ? WHERE id = ? AND channel = ? AND owner = ? AND done = 0`)
	RetryDelivery = shared(`UPDATE tapis_deliveries SET owner = '', until = ? WHERE id = ? AND channel = ? AND owner = ? AND done = 0`)
	// NotifyPrefs reads a player's choices; SetNotifyPref records one.
	NotifyPrefs   = shared(`SELECT kind, channel, on_ FROM tapis_notify_prefs WHERE player = ?`)
	SetNotifyPref = shared(`INSERT INTO tapis_notify_prefs (player, kind, channel, on_) VALUES (?, ?, ?, ?)
		ON CONFLICT (player, kind, channel) DO UPDATE SET on_ = excluded.on_`)
	// SetEmail records a player's address, DeleteEmail removes it, Email
	// reads it, VerifyEmail marks it verified if it is still the one
	// given.
	SetEmail = shared(`INSERT INTO tapis_emails (player, address, lang, verified) VALUES (?, ?, ?, ?)
		ON CONFLICT (player) DO UPDATE SET address = excluded.address, lang = excluded.lang, verified = excluded.verified`)
	DeleteEmail     = shared(`DELETE FROM tapis_emails WHERE player = ?`)
	Email           = shared(`SELECT player, address, lang, verified FROM tapis_emails WHERE player = ?`)
	VerifyEmail     = shared(`UPDATE tapis_emails SET verified = TRUE WHERE player = ? AND address = ?`)
	pruneDeliveries = shared(`DELETE FROM tapis_deliveries WHERE done <> 0 AND done < ?`)
	pruneNotes      = shared(`DELETE FROM tapis_notifications WHERE created < ?
		AND NOT EXISTS (SELECT 1 FROM tapis_deliveries d WHERE d.id = tapis_notifications.id)`)
	prunePaces = shared(`DELETE FROM tapis_paces WHERE until < ?`)
	// AddPushSub, RemovePushSub and PushSubs keep browsers' push
	// subscriptions.
	AddPushSub = shared(`INSERT INTO tapis_push (endpoint, player, p256dh, auth, lang, created) VALUES (?, ?, ?, ?, ?, ?)
		ON CONFLICT (endpoint) DO UPDATE SET player = excluded.player, p256dh = excluded.p256dh, auth = excluded.auth,
		lang = excluded.lang, created = excluded.created`)
	RemovePushSub = shared(`DELETE FROM tapis_push WHERE endpoint = ?`)
	PushSubs      = shared(`SELECT player, endpoint, p256dh, auth, lang, created FROM tapis_push WHERE player = ? ORDER BY created, endpoint`)
	// Pace takes a turn: a row written is a turn taken (the upsert's
	// WHERE leaves a turn that has not ended).
	Pace = shared(`INSERT INTO tapis_paces (player, key, until) VALUES (?, ?, ?)
		ON CONFLICT (player, key) DO UPDATE SET until = excluded.until WHERE tapis_paces.until <= ?`)
)

// SetEmailArgs are the statement and arguments of SetEmail for e, or of
// DeleteEmail for an empty address.
func SetEmailArgs(e store.Email) (Query, []any) {
	if e.Address == "" {
		return DeleteEmail, []any{e.Player}
	}
	return SetEmail, []any{e.Player, e.Address, e.Lang, e.Verified}
}

// Notify is store.Notifications.Notify in tx; a unique index refusing
// the notification is the store's to tell (store.ErrTaken).
func Notify(ctx context.Context, tx Tx, n store.Notification, channels []string) error {
	payload := string(n.Payload)
	if payload == "" {
		payload = "{}"
	}
	if _, err := tx.Exec(ctx, notify, n.ID, n.Player, n.Kind, payload, n.Created.UnixMilli()); err != nil {
		return err
	}
	for _, c := range channels {
		if _, err := tx.Exec(ctx, deliver, c, n.ID); err != nil {
			return err
		}
	}
	return nil
}

// MarkRead is store.Notifications.MarkRead in tx.
func MarkRead(ctx context.Context, tx Tx, player string, ids []string, at time.Time) (int, error) {
	if len(ids) == 0 {
		n, err := tx.Exec(ctx, readAll, at.UnixMilli(), player)
		return int(n), err
	}
	k := 0
	for _, id := range slices.Compact(slices.Sorted(slices.Values(ids))) {
		n, err := tx.Exec(ctx, readOne, at.UnixMilli(), player, id)
		if err != nil {
			return 0, err
		}
		k += int(n)
	}
	return k, nil
}

// claimSQLite is ClaimDeliveries's claim in SQLite, its channels bound
// one by one (%s): a write first, so that the writer's transaction takes
// the database's write lock before it reads anything (a store opened
// twice on one file waits for the other then, rather than fail).
const claimSQLite = `UPDATE tapis_deliveries SET owner = ?, until = ?, attempts = attempts + 1
	WHERE (id, channel) IN (SELECT id, channel FROM tapis_deliveries WHERE done = 0 AND until <= ? AND channel IN (%s)
	                        ORDER BY until, seq, channel LIMIT ?)
	RETURNING id, channel, seq`

// ClaimPostgres is ClaimDeliveries's claim in PostgreSQL: one statement
// that skips the rows another node's claim has locked, so that two nodes
// claiming at once take different deliveries. Its rows are NoteColumns'
// and the delivery's channel and attempts (ScanDeliveries).
const ClaimPostgres = `WITH c AS (
	  UPDATE tapis_deliveries d SET owner = $1, until = $2, attempts = d.attempts + 1
	  FROM (SELECT id, channel FROM tapis_deliveries WHERE done = 0 AND until <= $3 AND channel = ANY($4)
	        ORDER BY until, seq, channel LIMIT $5 FOR UPDATE SKIP LOCKED) due
	  WHERE d.id = due.id AND d.channel = due.channel
	  RETURNING d.id, d.channel, d.attempts, d.seq)
	SELECT n.id, n.player, n.kind, n.payload, n.created, n.read, c.channel, c.attempts
	FROM c JOIN tapis_notifications n ON n.id = c.id ORDER BY c.seq, c.channel`

// ClaimSQLite is ClaimDeliveries in tx, in SQLite, whose one writer
// claims for one caller at a time.
func ClaimSQLite(ctx context.Context, tx Tx, owner string, channels []string, now, until time.Time, limit int) ([]store.Delivery, error) {
	if len(channels) == 0 || limit <= 0 {
		return nil, nil
	}
	q := strings.Replace(claimSQLite, "%s", strings.TrimSuffix(strings.Repeat("?, ", len(channels)), ", "), 1)
	args := []any{owner, until.UnixMilli(), now.UnixMilli()}
	for _, c := range channels {
		args = append(args, c)
	}
	rs, err := tx.Query(ctx, Query{SQLite: q}, append(args, limit)...)
	if err != nil {
		return nil, err
	}
	type key struct {
		id, channel string
		seq         int64
	}
	var keys []key
	for rs.Next() {
		var k key
		if err := rs.Scan(&k.id, &k.channel, &k.seq); err != nil {
			rs.Close()
			return nil, err
		}
		keys = append(keys, k)
	}
	rs.Close()
	if err := rs.Err(); err != nil {
		return nil, err
	}
	// RETURNING gives the rows in no set order.
	slices.SortFunc(keys, func(a, b key) int {
		return cmp.Or(cmp.Compare(a.seq, b.seq), cmp.Compare(a.channel, b.channel))
	})
	out := make([]store.Delivery, 0, len(keys))
	for _, k := range keys {
		d, err := claimed(ctx, tx, k.id, k.channel)
		if err != nil {
			return nil, err
		}
		out = append(out, d)
	}
	return out, nil
}

// claimed reads a delivery just claimed, with its notification.
func claimed(ctx context.Context, tx Tx, id, channel string) (store.Delivery, error) {
	rs, err := tx.Query(ctx, claimedNote, id)
	if err != nil {
		return store.Delivery{}, err
	}
	ns, err := ScanNotes(rs)
	rs.Close()
	switch {
	case err != nil:
		return store.Delivery{}, err
	case len(ns) != 1:
		return store.Delivery{}, fmt.Errorf("notification %s missing", id)
	}
	d := store.Delivery{Notification: ns[0], Channel: channel}
	rs, err = tx.Query(ctx, attempts, id, channel)
	if err != nil {
		return store.Delivery{}, err
	}
	defer rs.Close()
	if rs.Next() {
		err = rs.Scan(&d.Attempts)
	}
	return d, err
}

// ScanNotes reads rows of NoteColumns.
func ScanNotes(rs Rows) ([]store.Notification, error) {
	var out []store.Notification
	for rs.Next() {
		var n store.Notification
		if err := scanNote(rs, &n); err != nil {
			return nil, err
		}
		out = append(out, n)
	}
	return out, rs.Err()
}

// scanNote reads a row of NoteColumns into n, and more columns after
// them into more.
func scanNote(rs Rows, n *store.Notification, more ...any) error {
	var payload string
	var created, read int64
	if err := rs.Scan(append([]any{&n.ID, &n.Player, &n.Kind, &payload, &created, &read}, more...)...); err != nil {
		return err
	}
	n.Payload, n.Created = json.RawMessage(payload), time.UnixMilli(created)
	if read != 0 {
		n.Read = time.UnixMilli(read)
	}
	return nil
}

// ScanDeliveries reads ClaimPostgres's rows.
func ScanDeliveries(rs Rows) ([]store.Delivery, error) {
	var out []store.Delivery
	for rs.Next() {
		var d store.Delivery
		if err := scanNote(rs, &d.Notification, &d.Channel, &d.Attempts); err != nil {
			return nil, err
		}
		out = append(out, d)
	}
	return out, rs.Err()
}

// ScanPrefs reads NotifyPrefs's rows, in store.SortPrefs's order.
func ScanPrefs(rs Rows) ([]store.Pref, error) {
	var out []store.Pref
	for rs.Next() {
		var p store.Pref
		if err := rs.Scan(&p.Kind, &p.Channel, &p.On); err != nil {
			return nil, err
		}
		out = append(out, p)
	}
	store.SortPrefs(out)
	return out, rs.Err()
}

// DoneAt is the time a done delivery keeps: never 0, which means not
// done.
func DoneAt(at time.Time) int64 { return max(at.UnixMilli(), 1) }

// PruneNotifications is store.Notifications.PruneNotifications in tx.
func PruneNotifications(ctx context.Context, tx Tx, before time.Time) (int, error) {
	b := before.UnixMilli()
	if _, err := tx.Exec(ctx, pruneDeliveries, b); err != nil {
		return 0, err
	}
	n, err := tx.Exec(ctx, pruneNotes, b)
	if err != nil {
		return 0, err
	}
	_, err = tx.Exec(ctx, prunePaces, b)
	return int(n), err
}

// AddPushSubArgs are AddPushSub's arguments for p.
func AddPushSubArgs(p store.PushSub) []any {
	return []any{p.Endpoint, p.Player, p.P256dh, p.Auth, p.Lang, p.Created.UnixMilli()}
}

// ScanPushSubs reads PushSubs's rows.
func ScanPushSubs(rs Rows) ([]store.PushSub, error) {
	var out []store.PushSub
	for rs.Next() {
		var p store.PushSub
		var created int64
		if err := rs.Scan(&p.Player, &p.Endpoint, &p.P256dh, &p.Auth, &p.Lang, &created); err != nil {
			return nil, err
		}
		p.Created = time.UnixMilli(created)
		out = append(out, p)
	}
	return out, rs.Err()
}
