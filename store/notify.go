package store

import (
	"context"
	"encoding/json"
	"slices"
	"sort"
	"time"
)

// Notifications (issue 29): what reaches a player who is not looking at
// the page. Each is kept in the player's inbox and, written with it, one
// delivery per channel the player chose for its kind: a durable outbox.
// A node sends a delivery only once it has claimed it, for a while; a
// node that dies between its claim and its send leaves a claim that ends,
// and the delivery is claimed again, by it restarted or by another node.
// The notification's id goes with every send as its idempotency key, so
// that a delivery sent but not yet marked sent when its node died is
// recognised by the other end when it comes again.

// The kinds of notification.
const (
	KindYourTurn      = "your_turn"
	KindInvitation    = "invitation"
	KindFriendRequest = "friend_request"
	KindGameOver      = "game_over"
	KindDeadlineSoon  = "deadline_soon"
)

// Kinds lists every kind of notification.
var Kinds = []string{KindYourTurn, KindInvitation, KindFriendRequest, KindGameOver, KindDeadlineSoon}

// The channels a notification is delivered on, beside the inbox, which
// keeps every notification.
const (
	ChannelEmail = "email"
	ChannelPush  = "push"
)

// Channels lists every channel.
var Channels = []string{ChannelEmail, ChannelPush}

// Notification is one notice to one player, as their inbox keeps it.
type Notification struct {
	// ID is random and unique: the key of every delivery's send.
	ID     string
	Player string
	Kind   string
	// Payload is the kind's JSON: the table, the other player...
	Payload json.RawMessage
	Created time.Time
	// Read is when the player marked it read; zero while unread.
	Read time.Time
}

// Delivery is a notification to send on one channel, as claimed.
type Delivery struct {
	Notification
	Channel string
	// Attempts counts the claims of the delivery, this one included.
	Attempts int
}

// Pref is one player's choice for one kind on one channel; a choice
// never made is the notify package's default.
type Pref struct {
	Kind    string `json:"kind"`
	Channel string `json:"channel"`
	On      bool   `json:"on"`
}

// Notifications is the inbox and the outbox of notifications.
type Notifications interface {
	// Notify records n in its player's inbox and a delivery of it on each
	// of channels, all or none. An id recorded already is ErrTaken.
	Notify(ctx context.Context, n Notification, channels []string) error
	// Inbox returns up to limit of player's notifications, newest first.
	Inbox(ctx context.Context, player string, limit int) ([]Notification, error)
	// MarkRead marks player's notifications ids (every one if ids is
	// empty) read at at, unless read already, and says how many it
	// marked. Another player's ids are left alone.
	MarkRead(ctx context.Context, player string, ids []string, at time.Time) (int, error)
	// ClaimDeliveries claims up to limit deliveries on the channels given
	// that are not done and whose claim, if any, ended by now, oldest
	// first, for owner until until; each claim counts an attempt. Two
	// calls at once, from two nodes, never claim the same delivery.
	ClaimDeliveries(ctx context.Context, owner string, channels []string, now, until time.Time, limit int) ([]Delivery, error)
	// DeliveryDone marks a delivery owner claimed done at at: sent, or
	// given up with the reason failed. ErrNotFound if owner's claim is
	// no longer its own (it ended, and another claimed it).
	DeliveryDone(ctx context.Context, id, channel, owner string, at time.Time, failed string) error
	// RetryDelivery gives up owner's claim of a delivery not sent, to be
	// claimed again at retry or after (ErrNotFound as DeliveryDone).
	RetryDelivery(ctx context.Context, id, channel, owner string, retry time.Time) error
	// NotifyPrefs returns the choices player made.
	NotifyPrefs(ctx context.Context, player string) ([]Pref, error)
	// SetNotifyPref records player's choice.
	SetNotifyPref(ctx context.Context, player string, p Pref) error

	// PruneNotifications removes the notifications created before
	// before, but those with a delivery not done, the deliveries done
	// before it and the paces ended before it, and says how many
	// notifications it removed.
	PruneNotifications(ctx context.Context, before time.Time) (int, error)
	// Pace takes player's turn at key (a kind of mail at one table) at
	// now, until until, if the last turn taken there ended by now; it
	// reports whether it took it. Two calls at once, from two nodes,
	// never both take it.
	Pace(ctx context.Context, player, key string, now, until time.Time) (bool, error)

	// AddPushSub records a player's push subscription (a browser's),
	// replacing the one with the same endpoint; RemovePushSub removes it
	// (a push service said it is gone), PushSubs lists player's, oldest
	// first.
	AddPushSub(ctx context.Context, p PushSub) error
	RemovePushSub(ctx context.Context, endpoint string) error
	PushSubs(ctx context.Context, player string) ([]PushSub, error)

	// SetEmail records a player's e-mail address, replacing theirs, as
	// e has it (not verified, when the player gives it); an empty
	// Address removes it.
	SetEmail(ctx context.Context, e Email) error
	// Email returns player's address (ErrNotFound if none).
	Email(ctx context.Context, player string) (Email, error)
	// VerifyEmail marks player's address verified if it is still
	// address (ErrNotFound otherwise: it changed since the link was sent).
	VerifyEmail(ctx context.Context, player, address string) error
}

// PushSub is a browser's Web Push subscription (the Push API's
// PushSubscription): where to send, and the keys to encrypt for it.
type PushSub struct {
	Player   string
	Endpoint string
	// P256dh and Auth are the browser's keys, base64url.
	P256dh, Auth string
	// Lang is the language of the browser's pushes ("en", "fr").
	Lang    string
	Created time.Time
}

// Email is a player's e-mail address: no mail but its verification's goes
// to it until it is verified.
type Email struct {
	Player  string
	Address string
	// Lang is the language of the player's mails ("en", "fr").
	Lang     string
	Verified bool
}

// SortPrefs puts prefs in the order NotifyPrefs returns them: by kind,
// then channel.
func SortPrefs(ps []Pref) {
	sort.Slice(ps, func(i, j int) bool {
		if ps[i].Kind != ps[j].Kind {
			return ps[i].Kind < ps[j].Kind
		}
		return ps[i].Channel < ps[j].Channel
	})
}

// memoryNotes is what Memory keeps of notifications.
type memoryNotes struct {
	notes map[string]*Notification
	// order is the ids in the order recorded.
	order      []string
	deliveries map[[2]string]*memoryDelivery
	prefs      map[[3]string]bool
	emails     map[string]Email
	paces      map[[2]string]time.Time
	push       []PushSub
}

type memoryDelivery struct {
	owner    string
	until    time.Time
	attempts int
	done     bool
	doneAt   time.Time
	seq      int
}

func (m *Memory) notes() *memoryNotes {
	if m.nt.notes == nil {
		m.nt = memoryNotes{notes: map[string]*Notification{}, deliveries: map[[2]string]*memoryDelivery{},
			prefs: map[[3]string]bool{}, emails: map[string]Email{}, paces: map[[2]string]time.Time{}}
	}
	return &m.nt
}

// Notify implements Notifications.
func (m *Memory) Notify(_ context.Context, n Notification, channels []string) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.closed {
		return ErrClosed
	}
	nt := m.notes()
	if nt.notes[n.ID] != nil {
		return ErrTaken
	}
	n.Payload = append(json.RawMessage(nil), n.Payload...)
	nt.notes[n.ID] = &n
	nt.order = append(nt.order, n.ID)
	for _, c := range channels {
		nt.deliveries[[2]string{n.ID, c}] = &memoryDelivery{seq: len(nt.order)}
	}
	return nil
}

// Inbox implements Notifications.
func (m *Memory) Inbox(_ context.Context, player string, limit int) ([]Notification, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.closed {
		return nil, ErrClosed
	}
	nt := m.notes()
	var out []Notification
	for i := len(nt.order) - 1; i >= 0 && len(out) < limit; i-- {
		if n := nt.notes[nt.order[i]]; n.Player == player {
			c := *n
			c.Payload = append(json.RawMessage(nil), n.Payload...)
			out = append(out, c)
		}
	}
	// Newest first by time; the order recorded breaks ties.
	sort.SliceStable(out, func(i, j int) bool { return out[i].Created.After(out[j].Created) })
	return out, nil
}

// MarkRead implements Notifications.
func (m *Memory) MarkRead(_ context.Context, player string, ids []string, at time.Time) (int, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.closed {
		return 0, ErrClosed
	}
	k := 0
	for _, n := range m.notes().notes {
		if n.Player == player && n.Read.IsZero() && (len(ids) == 0 || slices.Contains(ids, n.ID)) {
			n.Read = at
			k++
		}
	}
	return k, nil
}

// ClaimDeliveries implements Notifications.
func (m *Memory) ClaimDeliveries(_ context.Context, owner string, channels []string, now, until time.Time, limit int) ([]Delivery, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.closed {
		return nil, ErrClosed
	}
	nt := m.notes()
	type cand struct {
		k [2]string
		d *memoryDelivery
	}
	var cs []cand
	for k, d := range nt.deliveries {
		if !d.done && !d.until.After(now) && slices.Contains(channels, k[1]) {
			cs = append(cs, cand{k, d})
		}
	}
	sort.Slice(cs, func(i, j int) bool {
		if !cs[i].d.until.Equal(cs[j].d.until) {
			return cs[i].d.until.Before(cs[j].d.until)
		}
		if cs[i].d.seq != cs[j].d.seq {
			return cs[i].d.seq < cs[j].d.seq
		}
		return cs[i].k[1] < cs[j].k[1]
	})
	var out []Delivery
	for _, c := range cs {
		if len(out) == limit {
			break
		}
		c.d.owner, c.d.until = owner, until
		c.d.attempts++
		n := *nt.notes[c.k[0]]
		n.Payload = append(json.RawMessage(nil), n.Payload...)
		out = append(out, Delivery{Notification: n, Channel: c.k[1], Attempts: c.d.attempts})
	}
	return out, nil
}

// claimed returns the delivery (id, channel) if owner holds its claim.
func (m *Memory) claimed(id, channel, owner string) (*memoryDelivery, error) {
	if m.closed {
		return nil, ErrClosed
	}
	d := m.notes().deliveries[[2]string{id, channel}]
	if d == nil || d.done || d.owner != owner {
		return nil, ErrNotFound
	}
	return d, nil
}

// DeliveryDone implements Notifications.
func (m *Memory) DeliveryDone(_ context.Context, id, channel, owner string, at time.Time, _ string) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	d, err := m.claimed(id, channel, owner)
	if err != nil {
		return err
	}
	d.done, d.doneAt = true, at
	return nil
}

// RetryDelivery implements Notifications.
func (m *Memory) RetryDelivery(_ context.Context, id, channel, owner string, retry time.Time) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	d, err := m.claimed(id, channel, owner)
	if err != nil {
		return err
	}
	d.owner, d.until = "", retry
	return nil
}

// NotifyPrefs implements Notifications.
func (m *Memory) NotifyPrefs(_ context.Context, player string) ([]Pref, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.closed {
		return nil, ErrClosed
	}
	var out []Pref
	for k, on := range m.notes().prefs {
		if k[0] == player {
			out = append(out, Pref{Kind: k[1], Channel: k[2], On: on})
		}
	}
	SortPrefs(out)
	return out, nil
}

// SetNotifyPref implements Notifications.
func (m *Memory) SetNotifyPref(_ context.Context, player string, p Pref) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.closed {
		return ErrClosed
	}
	m.notes().prefs[[3]string{player, p.Kind, p.Channel}] = p.On
	return nil
}

// SetEmail implements Notifications.
func (m *Memory) SetEmail(_ context.Context, e Email) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.closed {
		return ErrClosed
	}
	if e.Address == "" {
		delete(m.notes().emails, e.Player)
	} else {
		m.notes().emails[e.Player] = e
	}
	return nil
}

// Email implements Notifications.
func (m *Memory) Email(_ context.Context, player string) (Email, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.closed {
		return Email{}, ErrClosed
	}
	e, ok := m.notes().emails[player]
	if !ok {
		return Email{}, ErrNotFound
	}
	return e, nil
}

// VerifyEmail implements Notifications.
func (m *Memory) VerifyEmail(_ context.Context, player, address string) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.closed {
		return ErrClosed
	}
	e, ok := m.notes().emails[player]
	if !ok || e.Address != address {
		return ErrNotFound
	}
	e.Verified = true
	m.notes().emails[player] = e
	return nil
}

// Pace implements Notifications.
func (m *Memory) Pace(_ context.Context, player, key string, now, until time.Time) (bool, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.closed {
		return false, ErrClosed
	}
	k := [2]string{player, key}
	if end, ok := m.notes().paces[k]; ok && end.After(now) {
		return false, nil
	}
	m.notes().paces[k] = until
	return true, nil
}

// PruneNotifications implements Notifications.
func (m *Memory) PruneNotifications(_ context.Context, before time.Time) (int, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.closed {
		return 0, ErrClosed
	}
	nt := m.notes()
	// left holds the notifications that keep a delivery: not done, or
	// done at before or after.
	left := map[string]bool{}
	for k, d := range nt.deliveries {
		if d.done && d.doneAt.Before(before) {
			delete(nt.deliveries, k)
		} else {
			left[k[0]] = true
		}
	}
	k := 0
	nt.order = slices.DeleteFunc(nt.order, func(id string) bool {
		if nt.notes[id].Created.Before(before) && !left[id] {
			delete(nt.notes, id)
			k++
			return true
		}
		return false
	})
	for key, until := range nt.paces {
		if until.Before(before) {
			delete(nt.paces, key)
		}
	}
	return k, nil
}

// AddPushSub implements Notifications.
func (m *Memory) AddPushSub(_ context.Context, p PushSub) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.closed {
		return ErrClosed
	}
	nt := m.notes()
	nt.push = slices.DeleteFunc(nt.push, func(o PushSub) bool { return o.Endpoint == p.Endpoint })
	nt.push = append(nt.push, p)
	return nil
}

// RemovePushSub implements Notifications.
func (m *Memory) RemovePushSub(_ context.Context, endpoint string) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.closed {
		return ErrClosed
	}
	nt := m.notes()
	nt.push = slices.DeleteFunc(nt.push, func(o PushSub) bool { return o.Endpoint == endpoint })
	return nil
}

// PushSubs implements Notifications.
func (m *Memory) PushSubs(_ context.Context, player string) ([]PushSub, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.closed {
		return nil, ErrClosed
	}
	var out []PushSub
	for _, p := range m.notes().push {
		if p.Player == player {
			out = append(out, p)
		}
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].Created.Before(out[j].Created) })
	return out, nil
}
