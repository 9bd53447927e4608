-- Friends, blocks and notifications (issue 29; store/friends.go,
-- store/notify.go). A friend request is a row (player, other, 'outgoing')
-- from the one who asked; a friendship is two rows, one each way, in
-- state 'friend'. A block is one player's alone. A notification is kept
-- in its player's inbox (tapis_notifications) with a delivery per
-- channel chosen (tapis_deliveries, the outbox): a delivery is claimed
-- by a node (owner) until a time, and done once sent or given up. A
-- player's e-mail address is theirs alone (tapis_emails), verified by a
-- link before any other mail goes to it.

-- +goose Up
CREATE TABLE tapis_friends (
	player TEXT NOT NULL,
	other  TEXT NOT NULL,
	state  TEXT NOT NULL,
	at     INTEGER NOT NULL,
	PRIMARY KEY (player, other)
) WITHOUT ROWID;
CREATE INDEX tapis_friends_other ON tapis_friends (other);

CREATE TABLE tapis_blocks (
	player  TEXT NOT NULL,
	blocked TEXT NOT NULL,
	at      INTEGER NOT NULL,
	PRIMARY KEY (player, blocked)
) WITHOUT ROWID;
CREATE INDEX tapis_blocks_blocked ON tapis_blocks (blocked);

CREATE TABLE tapis_notifications (
	seq     INTEGER PRIMARY KEY AUTOINCREMENT,
	id      TEXT NOT NULL UNIQUE,
	player  TEXT NOT NULL,
	kind    TEXT NOT NULL,
	payload TEXT NOT NULL,
	created INTEGER NOT NULL,
	read    INTEGER NOT NULL DEFAULT 0
);
CREATE INDEX tapis_notifications_player ON tapis_notifications (player, created);

CREATE TABLE tapis_deliveries (
	id       TEXT NOT NULL,
	channel  TEXT NOT NULL,
	seq      INTEGER NOT NULL,
	owner    TEXT NOT NULL DEFAULT '',
	until    INTEGER NOT NULL DEFAULT 0,
	attempts INTEGER NOT NULL DEFAULT 0,
	done     INTEGER NOT NULL DEFAULT 0,
	failed   TEXT NOT NULL DEFAULT '',
	PRIMARY KEY (id, channel)
) WITHOUT ROWID;
CREATE INDEX tapis_deliveries_due ON tapis_deliveries (until, seq) WHERE done = 0;

CREATE TABLE tapis_notify_prefs (
	player  TEXT NOT NULL,
	kind    TEXT NOT NULL,
	channel TEXT NOT NULL,
	on_     INTEGER NOT NULL,
	PRIMARY KEY (player, kind, channel)
) WITHOUT ROWID;

CREATE TABLE tapis_emails (
	player   TEXT PRIMARY KEY,
	address  TEXT NOT NULL,
	lang     TEXT NOT NULL,
	verified INTEGER NOT NULL
) WITHOUT ROWID;

-- The pace of a kind of mail per player and key (store.Notifications.Pace).
CREATE TABLE tapis_paces (
	player TEXT NOT NULL,
	key    TEXT NOT NULL,
	until  INTEGER NOT NULL,
	PRIMARY KEY (player, key)
) WITHOUT ROWID;

-- Browsers' Web Push subscriptions, by endpoint.
CREATE TABLE tapis_push (
	endpoint TEXT PRIMARY KEY,
	player   TEXT NOT NULL,
	p256dh   TEXT NOT NULL,
	auth     TEXT NOT NULL,
	lang     TEXT NOT NULL,
	created  INTEGER NOT NULL
);
CREATE INDEX tapis_push_player ON tapis_push (player, created);
