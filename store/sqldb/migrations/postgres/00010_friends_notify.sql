-- Friends, blocks and notifications (issue 29), as SQLite's migration 10
-- says. Deliveries are claimed with FOR UPDATE SKIP LOCKED, so that two
-- nodes claiming at once never take the same one.

-- +goose Up
CREATE TABLE tapis_friends (
	player text NOT NULL,
	other  text NOT NULL,
	state  text NOT NULL,
	at     bigint NOT NULL,
	PRIMARY KEY (player, other)
);
CREATE INDEX tapis_friends_other ON tapis_friends (other);

CREATE TABLE tapis_blocks (
	player  text NOT NULL,
	blocked text NOT NULL,
	at      bigint NOT NULL,
	PRIMARY KEY (player, blocked)
);
CREATE INDEX tapis_blocks_blocked ON tapis_blocks (blocked);

CREATE TABLE tapis_notifications (
	seq     bigserial PRIMARY KEY,
	id      text NOT NULL UNIQUE,
	player  text NOT NULL,
	kind    text NOT NULL,
	payload text NOT NULL,
	created bigint NOT NULL,
	read    bigint NOT NULL DEFAULT 0
);
CREATE INDEX tapis_notifications_player ON tapis_notifications (player, created);

CREATE TABLE tapis_deliveries (
	id       text NOT NULL,
	channel  text NOT NULL,
	seq      bigint NOT NULL,
	owner    text NOT NULL DEFAULT '',
	until    bigint NOT NULL DEFAULT 0,
	attempts integer NOT NULL DEFAULT 0,
	done     bigint NOT NULL DEFAULT 0,
	failed   text NOT NULL DEFAULT '',
	PRIMARY KEY (id, channel)
);
CREATE INDEX tapis_deliveries_due ON tapis_deliveries (until, seq) WHERE done = 0;

CREATE TABLE tapis_notify_prefs (
	player  text NOT NULL,
	kind    text NOT NULL,
	channel text NOT NULL,
	on_     boolean NOT NULL,
	PRIMARY KEY (player, kind, channel)
);

CREATE TABLE tapis_emails (
	player   text PRIMARY KEY,
	address  text NOT NULL,
	lang     text NOT NULL,
	verified boolean NOT NULL
);

-- The pace of a kind of mail per player and key (store.Notifications.Pace).
CREATE TABLE tapis_paces (
	player text NOT NULL,
	key    text NOT NULL,
	until  bigint NOT NULL,
	PRIMARY KEY (player, key)
);

-- Browsers' Web Push subscriptions, by endpoint.
CREATE TABLE tapis_push (
	endpoint text PRIMARY KEY,
	player   text NOT NULL,
	p256dh   text NOT NULL,
	auth     text NOT NULL,
	lang     text NOT NULL,
	created  bigint NOT NULL
);
CREATE INDEX tapis_push_player ON tapis_push (player, created);
