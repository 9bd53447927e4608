package storetest

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"slices"
	"sync"
	"testing"
	"time"

	"tapis/store"
)

// relations is what player's friends list holds, as "id:state" in order.
func relations(t *testing.T, s store.Store, player string) []string {
	t.Helper()
	rs, err := s.Relations(context.Background(), player)
	must(t, err)
	out := []string{}
	for _, r := range rs {
		out = append(out, r.Player+":"+r.State)
	}
	return out
}

// wantRelations fails t unless player's list is want.
func wantRelations(t *testing.T, s store.Store, player string, want ...string) {
	t.Helper()
	if want == nil {
		want = []string{}
	}
	if got := relations(t, s, player); !reflect.DeepEqual(got, want) {
		t.Fatalf("friends of %s: %v, want %v", player, got, want)
	}
}

// Friend requests, their meeting, acceptance, removal; blocks, silent to
// the one blocked; names from the players' rows, a deleted player left
// out; all of it after a restart.
func testFriends(t *testing.T, bk Backend) {
	ctx := context.Background()
	k := fresh(t, bk)
	s := k.open(t)
	for i, n := range []string{"Ann", "Bob", "Cat", "Dan", "Eve"} {
		must(t, s.CreatePlayer(ctx, store.Player{ID: fmt.Sprintf("p%d", i+1), Name: n, Username: n, UsernameKey: n, Created: ms(1)}))
	}
	state, err := s.RequestFriend(ctx, "p1", "p2", ms(10))
	if err != nil || state != store.Outgoing {
		t.Fatalf("request: %q %v", state, err)
	}
	// Asking again changes nothing.
	if state, err := s.RequestFriend(ctx, "p1", "p2", ms(11)); err != nil || state != store.Outgoing {
		t.Fatalf("request again: %q %v", state, err)
	}
	wantRelations(t, s, "p1", "p2:outgoing")
	wantRelations(t, s, "p2", "p1:incoming")
	rs, err := s.Relations(ctx, "p2")
	must(t, err)
	if r := rs[0]; r.Name != "Ann" || r.Username != "Ann" || !r.Since.Equal(ms(10)) {
		t.Fatalf("incoming request %+v", r)
	}
	// Accepting what nobody asked is refused.
	if err := s.AcceptFriend(ctx, "p1", "p2", ms(12)); !errors.Is(err, store.ErrNotFound) {
		t.Fatalf("accepting one's own request: %v", err)
	}
	must(t, s.AcceptFriend(ctx, "p2", "p1", ms(13)))
	wantRelations(t, s, "p1", "p2:friend")
	wantRelations(t, s, "p2", "p1:friend")
	if state, err := s.RequestFriend(ctx, "p2", "p1", ms(14)); err != nil || state != store.Friend {
		t.Fatalf("request between friends: %q %v", state, err)
	}
	// Two requests meet: friends.
	_, err = s.RequestFriend(ctx, "p3", "p1", ms(20))
	must(t, err)
	if state, err := s.RequestFriend(ctx, "p1", "p3", ms(21)); err != nil || state != store.Friend {
		t.Fatalf("requests meeting: %q %v", state, err)
	}
	wantRelations(t, s, "p3", "p1:friend")
	// Declining and withdrawing are Unfriend, as removing a friend is.
	_, err = s.RequestFriend(ctx, "p4", "p1", ms(30))
	must(t, err)
	wantRelations(t, s, "p1", "p2:friend", "p3:friend", "p4:incoming")
	must(t, s.Unfriend(ctx, "p1", "p4"))
	must(t, s.Unfriend(ctx, "p1", "p4"))
	wantRelations(t, s, "p4")
	must(t, s.Unfriend(ctx, "p3", "p1"))
	wantRelations(t, s, "p1", "p2:friend")
	wantRelations(t, s, "p3")

	// A block ends a friendship, and the blocked one's requests are
	// kept for them but never shown, nor accepted, nor met.
	must(t, s.Block(ctx, "p2", "p1", ms(40)))
	must(t, s.Block(ctx, "p2", "p1", ms(41)))
	wantRelations(t, s, "p2", "p1:blocked")
	wantRelations(t, s, "p1")
	if state, err := s.RequestFriend(ctx, "p1", "p2", ms(42)); err != nil || state != store.Outgoing {
		t.Fatalf("request to one who blocked: %q %v", state, err)
	}
	wantRelations(t, s, "p1", "p2:outgoing")
	wantRelations(t, s, "p2", "p1:blocked")
	if err := s.AcceptFriend(ctx, "p2", "p1", ms(43)); !errors.Is(err, store.ErrNotFound) {
		t.Fatalf("accepting a blocked player's request: %v", err)
	}
	if state, err := s.RequestFriend(ctx, "p2", "p1", ms(44)); err != nil || state != store.Outgoing {
		t.Fatalf("a blocked player's request met: %q %v", state, err)
	}
	rs, err = s.Relations(ctx, "p2")
	must(t, err)
	if len(rs) != 2 || rs[0].State != store.Blocked || !rs[0].Since.Equal(ms(40)) {
		t.Fatalf("blocks keep their first time: %+v", rs)
	}
	must(t, s.Unfriend(ctx, "p2", "p1"))
	by, err := s.BlockedBy(ctx, "p1", []string{"p2", "p3", "p5"})
	must(t, err)
	if !reflect.DeepEqual(by, []string{"p2"}) {
		t.Fatalf("blocked by %v", by)
	}
	if by, err := s.BlockedBy(ctx, "p2", []string{"p1"}); err != nil || len(by) != 0 {
		t.Fatalf("blocking is one way: %v %v", by, err)
	}
	must(t, s.Block(ctx, "p3", "p2", ms(45)))
	for player, want := range map[string][]string{"p1": {"p2"}, "p2": {"p1", "p3"}, "p3": {"p2"}, "p4": nil} {
		got, err := s.Blocks(ctx, player)
		must(t, err)
		slices.Sort(got)
		if !slices.Equal(got, want) {
			t.Fatalf("blocks of %s: %v, want %v", player, got, want)
		}
	}
	must(t, s.Unblock(ctx, "p3", "p2"))
	must(t, s.Unblock(ctx, "p2", "p1"))
	must(t, s.Unblock(ctx, "p2", "p1"))
	wantRelations(t, s, "p2")

	// A deleted player is left out.
	_, err = s.RequestFriend(ctx, "p5", "p1", ms(50))
	must(t, err)
	must(t, s.DeletePlayer(ctx, "p5"))
	wantRelations(t, s, "p1")

	if k.durable {
		_, err = s.RequestFriend(ctx, "p3", "p4", ms(60))
		must(t, err)
		must(t, s.Close())
		s = k.open(t)
		wantRelations(t, s, "p4", "p3:incoming")
	}
	must(t, s.Close())
	if _, err := s.Relations(ctx, "p1"); !errors.Is(err, store.ErrClosed) {
		t.Fatalf("closed: %v", err)
	}
}

// note is a notification for the tests.
func note(id, player string, at int64) store.Notification {
	return store.Notification{ID: id, Player: player, Kind: store.KindFriendRequest,
		Payload: json.RawMessage(`{"from":"x"}`), Created: ms(at)}
}

// inbox is the ids of player's inbox, in order.
func inbox(t *testing.T, s store.Store, player string, limit int) []string {
	t.Helper()
	ns, err := s.Inbox(context.Background(), player, limit)
	must(t, err)
	out := []string{}
	for _, n := range ns {
		out = append(out, n.ID)
	}
	return out
}

// claimIDs is "id/channel" of each delivery, in order.
func claimIDs(ds []store.Delivery) []string {
	out := []string{}
	for _, d := range ds {
		out = append(out, d.ID+"/"+d.Channel)
	}
	return out
}

// The inbox: newest first, read marks, choices; the outbox: claims that
// end, done and retried deliveries, claims kept across a restart.
func testNotifications(t *testing.T, bk Backend) {
	ctx := context.Background()
	k := fresh(t, bk)
	s := k.open(t)
	email := []string{store.ChannelEmail}
	both := []string{store.ChannelEmail, store.ChannelPush}
	must(t, s.Notify(ctx, note("n1", "p1", 100), both))
	must(t, s.Notify(ctx, note("n2", "p1", 200), nil))
	must(t, s.Notify(ctx, note("n3", "p2", 150), email))
	if err := s.Notify(ctx, note("n1", "p2", 300), email); !errors.Is(err, store.ErrTaken) {
		t.Fatalf("an id twice: %v", err)
	}
	if got := inbox(t, s, "p1", 10); !reflect.DeepEqual(got, []string{"n2", "n1"}) {
		t.Fatalf("inbox %v", got)
	}
	if got := inbox(t, s, "p1", 1); !reflect.DeepEqual(got, []string{"n2"}) {
		t.Fatalf("inbox limited %v", got)
	}
	ns, err := s.Inbox(ctx, "p1", 10)
	must(t, err)
	if n := ns[1]; n.Kind != store.KindFriendRequest || string(n.Payload) != `{"from":"x"}` || !n.Created.Equal(ms(100)) || !n.Read.IsZero() {
		t.Fatalf("notification %+v", n)
	}
	if n, err := s.MarkRead(ctx, "p1", []string{"n1", "n1", "n3"}, ms(500)); err != nil || n != 1 {
		t.Fatalf("marked %d read (%v), want 1: another's is left alone", n, err)
	}
	if n, err := s.MarkRead(ctx, "p1", nil, ms(600)); err != nil || n != 1 {
		t.Fatalf("marked all: %d %v", n, err)
	}
	ns, err = s.Inbox(ctx, "p1", 10)
	must(t, err)
	if !ns[0].Read.Equal(ms(600)) || !ns[1].Read.Equal(ms(500)) {
		t.Fatalf("read at %v %v", ns[0].Read, ns[1].Read)
	}

	// Claims: oldest first, on the channels asked for, each once while
	// its claim lasts.
	ds, err := s.ClaimDeliveries(ctx, "a", email, ms(1000), ms(2000), 1)
	must(t, err)
	if got := claimIDs(ds); !reflect.DeepEqual(got, []string{"n1/email"}) || ds[0].Attempts != 1 || ds[0].Player != "p1" ||
		string(ds[0].Payload) != `{"from":"x"}` {
		t.Fatalf("first claim %v %+v", got, ds)
	}
	ds, err = s.ClaimDeliveries(ctx, "b", both, ms(1000), ms(2000), 10)
	must(t, err)
	if got := claimIDs(ds); !reflect.DeepEqual(got, []string{"n1/push", "n3/email"}) {
		t.Fatalf("second claim %v", got)
	}
	if ds, err := s.ClaimDeliveries(ctx, "c", both, ms(1999), ms(3000), 10); err != nil || len(ds) != 0 {
		t.Fatalf("claimed while claimed: %v %v", claimIDs(ds), err)
	}
	must(t, s.DeliveryDone(ctx, "n1", store.ChannelPush, "b", ms(1100), ""))
	if err := s.DeliveryDone(ctx, "n1", store.ChannelPush, "b", ms(1100), ""); !errors.Is(err, store.ErrNotFound) {
		t.Fatalf("done twice: %v", err)
	}
	if err := s.DeliveryDone(ctx, "n1", store.ChannelEmail, "b", ms(1100), ""); !errors.Is(err, store.ErrNotFound) {
		t.Fatalf("done by another: %v", err)
	}
	must(t, s.RetryDelivery(ctx, "n3", store.ChannelEmail, "b", ms(5000)))
	// a's claim ended: c takes it, and a may no longer mark it.
	ds, err = s.ClaimDeliveries(ctx, "c", both, ms(2000), ms(3000), 10)
	must(t, err)
	if got := claimIDs(ds); !reflect.DeepEqual(got, []string{"n1/email"}) || ds[0].Attempts != 2 {
		t.Fatalf("claim after the first ended %v %+v", got, ds)
	}
	if err := s.DeliveryDone(ctx, "n1", store.ChannelEmail, "a", ms(2100), ""); !errors.Is(err, store.ErrNotFound) {
		t.Fatalf("done by the claim that ended: %v", err)
	}
	must(t, s.DeliveryDone(ctx, "n1", store.ChannelEmail, "c", ms(2100), "bounced"))
	if ds, err := s.ClaimDeliveries(ctx, "c", both, ms(4999), ms(6000), 10); err != nil || len(ds) != 0 {
		t.Fatalf("claimed before its retry: %v %v", claimIDs(ds), err)
	}

	// Choices.
	must(t, s.SetNotifyPref(ctx, "p1", store.Pref{Kind: store.KindYourTurn, Channel: store.ChannelEmail, On: true}))
	must(t, s.SetNotifyPref(ctx, "p1", store.Pref{Kind: store.KindGameOver, Channel: store.ChannelEmail, On: true}))
	must(t, s.SetNotifyPref(ctx, "p1", store.Pref{Kind: store.KindYourTurn, Channel: store.ChannelEmail, On: false}))
	must(t, s.SetNotifyPref(ctx, "p2", store.Pref{Kind: store.KindYourTurn, Channel: store.ChannelPush, On: true}))
	ps, err := s.NotifyPrefs(ctx, "p1")
	must(t, err)
	want := []store.Pref{{Kind: store.KindGameOver, Channel: store.ChannelEmail, On: true}, {Kind: store.KindYourTurn, Channel: store.ChannelEmail}}
	if !reflect.DeepEqual(ps, want) {
		t.Fatalf("choices %+v", ps)
	}

	// E-mail addresses: verified only while the address is the same.
	if _, err := s.Email(ctx, "p1"); !errors.Is(err, store.ErrNotFound) {
		t.Fatalf("no address: %v", err)
	}
	must(t, s.SetEmail(ctx, store.Email{Player: "p1", Address: "ann@example.org", Lang: "fr"}))
	if err := s.VerifyEmail(ctx, "p1", "old@example.org"); !errors.Is(err, store.ErrNotFound) {
		t.Fatalf("verifying another address: %v", err)
	}
	must(t, s.VerifyEmail(ctx, "p1", "ann@example.org"))
	if e, err := s.Email(ctx, "p1"); err != nil || e != (store.Email{Player: "p1", Address: "ann@example.org", Lang: "fr", Verified: true}) {
		t.Fatalf("address %+v %v", e, err)
	}
	must(t, s.SetEmail(ctx, store.Email{Player: "p1", Address: "new@example.org", Lang: "en"}))
	if e, err := s.Email(ctx, "p1"); err != nil || e.Verified || e.Address != "new@example.org" || e.Lang != "en" {
		t.Fatalf("a new address %+v %v", e, err)
	}
	must(t, s.SetEmail(ctx, store.Email{Player: "p2", Address: "bob@example.org", Lang: "en"}))
	must(t, s.SetEmail(ctx, store.Email{Player: "p1"}))
	if _, err := s.Email(ctx, "p1"); !errors.Is(err, store.ErrNotFound) {
		t.Fatalf("an address removed: %v", err)
	}

	// Pruning: n2 (no delivery) goes; n1 (done at 1100 and 2100) goes
	// once both are before the time given; n3, whose delivery waits,
	// stays.
	if n, err := s.PruneNotifications(ctx, ms(2000)); err != nil || n != 1 {
		t.Fatalf("pruned %d (%v), want 1", n, err)
	}
	if got := inbox(t, s, "p1", 10); !reflect.DeepEqual(got, []string{"n1"}) {
		t.Fatalf("inbox after pruning %v", got)
	}
	if n, err := s.PruneNotifications(ctx, ms(1e9)); err != nil || n != 1 {
		t.Fatalf("pruned %d (%v), want 1", n, err)
	}
	if got := inbox(t, s, "p2", 10); !reflect.DeepEqual(got, []string{"n3"}) {
		t.Fatalf("a notification with a delivery waiting was pruned: %v", got)
	}

	// Push subscriptions, by endpoint.
	sub := func(player, endpoint string, at int64) store.PushSub {
		return store.PushSub{Player: player, Endpoint: endpoint, P256dh: "k" + endpoint, Auth: "a" + endpoint, Lang: "fr", Created: ms(at)}
	}
	must(t, s.AddPushSub(ctx, sub("p1", "https://push.test/2", 20)))
	must(t, s.AddPushSub(ctx, sub("p1", "https://push.test/1", 10)))
	must(t, s.AddPushSub(ctx, sub("p2", "https://push.test/3", 5)))
	// The same browser, signed in as another player now.
	must(t, s.AddPushSub(ctx, sub("p2", "https://push.test/2", 30)))
	subs, err := s.PushSubs(ctx, "p1")
	must(t, err)
	if !reflect.DeepEqual(subs, []store.PushSub{sub("p1", "https://push.test/1", 10)}) {
		t.Fatalf("subscriptions %+v", subs)
	}
	must(t, s.RemovePushSub(ctx, "https://push.test/3"))
	must(t, s.RemovePushSub(ctx, "https://push.test/3"))
	if ps, err := s.PushSubs(ctx, "p2"); err != nil || !reflect.DeepEqual(ps, []store.PushSub{sub("p2", "https://push.test/2", 30)}) {
		t.Fatalf("subscriptions %+v %v", ps, err)
	}

	// Paces: a turn taken holds until it ends, per player and key.
	for _, c := range []struct {
		player, key string
		now, until  int64
		took        bool
	}{
		{"p1", "your_turn:t1", 1000, 2000, true},
		{"p1", "your_turn:t1", 1999, 3000, false},
		{"p1", "your_turn:t2", 1999, 3000, true},
		{"p2", "your_turn:t1", 1999, 3000, true},
		{"p1", "your_turn:t1", 2000, 4000, true},
		{"p1", "your_turn:t1", 3999, 5000, false},
	} {
		if took, err := s.Pace(ctx, c.player, c.key, ms(c.now), ms(c.until)); err != nil || took != c.took {
			t.Fatalf("pace %+v: %v %v", c, took, err)
		}
	}

	if k.durable {
		if e, err := s.Email(ctx, "p2"); err != nil || e.Address != "bob@example.org" {
			t.Fatalf("address %+v %v", e, err)
		}
		// A claim outlives a restart, and ends as it would have.
		must(t, s.Close())
		s = k.open(t)
		if ds, err := s.ClaimDeliveries(ctx, "d", both, ms(4999), ms(6000), 10); err != nil || len(ds) != 0 {
			t.Fatalf("claimed before its retry, after a restart: %v %v", claimIDs(ds), err)
		}
		ds, err = s.ClaimDeliveries(ctx, "d", both, ms(5000), ms(6000), 10)
		must(t, err)
		if got := claimIDs(ds); !reflect.DeepEqual(got, []string{"n3/email"}) || ds[0].Attempts != 2 {
			t.Fatalf("claim after a restart %v", got)
		}
		if got := inbox(t, s, "p2", 10); !reflect.DeepEqual(got, []string{"n3"}) {
			t.Fatalf("inbox after a restart %v", got)
		}
	}
	must(t, s.Close())
}

// Nodes claiming at once never take the same delivery.
func testClaimRace(t *testing.T, bk Backend) {
	ctx := context.Background()
	k := fresh(t, bk)
	s := k.open(t)
	const n = 60
	for i := range n {
		must(t, s.Notify(ctx, note(fmt.Sprintf("n%02d", i), "p1", int64(i)), []string{store.ChannelEmail}))
	}
	stores := []store.Store{s}
	if k.durable {
		for range 3 {
			stores = append(stores, k.open(t))
		}
	}
	var mu sync.Mutex
	seen := map[string]string{}
	var wg sync.WaitGroup
	errs := make(chan error, 8*len(stores))
	for i, o := range stores {
		for w := range 2 {
			wg.Add(1)
			go func() {
				defer wg.Done()
				owner := fmt.Sprintf("node%d.%d", i, w)
				for {
					ds, err := o.ClaimDeliveries(ctx, owner, []string{store.ChannelEmail}, time.UnixMilli(10), time.UnixMilli(1e12), 3)
					if err != nil {
						errs <- err
						return
					}
					if len(ds) == 0 {
						return
					}
					mu.Lock()
					for _, d := range ds {
						if was, ok := seen[d.ID]; ok {
							errs <- fmt.Errorf("%s claimed by %s and %s", d.ID, was, owner)
						}
						seen[d.ID] = owner
					}
					mu.Unlock()
				}
			}()
		}
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
	if len(seen) != n {
		t.Fatalf("%d claimed, want %d", len(seen), n)
	}
	for _, o := range stores {
		must(t, o.Close())
	}
}

// Deleting an account removes what friends and notifications keep of the
// player: friends, requests and blocks either way, inbox, outbox,
// choices, address, subscriptions; the others' stay.
func testForgetPlayer(t *testing.T, bk Backend) {
	ctx := context.Background()
	s := fresh(t, bk).open(t)
	defer s.Close()
	for _, id := range []string{"p1", "p2", "p3"} {
		must(t, s.CreatePlayer(ctx, store.Player{ID: id, Name: id, Username: id, UsernameKey: id, Created: ms(1)}))
	}
	_, err := s.RequestFriend(ctx, "p1", "p2", ms(1))
	must(t, err)
	must(t, s.AcceptFriend(ctx, "p2", "p1", ms(2)))
	_, err = s.RequestFriend(ctx, "p3", "p1", ms(3))
	must(t, err)
	must(t, s.Block(ctx, "p1", "p3", ms(4)))
	must(t, s.Block(ctx, "p2", "p3", ms(4)))
	must(t, s.Block(ctx, "p3", "p1", ms(4)))
	email := []string{store.ChannelEmail}
	must(t, s.Notify(ctx, note("n1", "p1", 5), email))
	must(t, s.Notify(ctx, note("n2", "p2", 6), email))
	must(t, s.SetNotifyPref(ctx, "p1", store.Pref{Kind: store.KindYourTurn, Channel: store.ChannelEmail, On: true}))
	must(t, s.SetEmail(ctx, store.Email{Player: "p1", Address: "p1@example.org", Lang: "en"}))
	must(t, s.AddPushSub(ctx, store.PushSub{Player: "p1", Endpoint: "https://push.test/1", P256dh: "k", Auth: "a", Lang: "en", Created: ms(7)}))
	took, err := s.Pace(ctx, "p1", "k", ms(8), ms(100))
	must(t, err)
	if !took {
		t.Fatal("no pace taken")
	}

	must(t, s.DeletePlayer(ctx, "p1"))
	wantRelations(t, s, "p2", "p3:blocked")
	wantRelations(t, s, "p3")
	if by, err := s.BlockedBy(ctx, "p1", []string{"p3"}); err != nil || len(by) != 0 {
		t.Fatalf("blocks of the deleted player kept: %v %v", by, err)
	}
	if got := inbox(t, s, "p1", 10); len(got) != 0 {
		t.Fatalf("inbox of the deleted player %v", got)
	}
	if ps, err := s.NotifyPrefs(ctx, "p1"); err != nil || len(ps) != 0 {
		t.Fatalf("choices of the deleted player %v %v", ps, err)
	}
	if _, err := s.Email(ctx, "p1"); !errors.Is(err, store.ErrNotFound) {
		t.Fatalf("address of the deleted player: %v", err)
	}
	if subs, err := s.PushSubs(ctx, "p1"); err != nil || len(subs) != 0 {
		t.Fatalf("subscriptions of the deleted player %v %v", subs, err)
	}
	if took, err := s.Pace(ctx, "p1", "k", ms(9), ms(100)); err != nil || !took {
		t.Fatalf("pace of the deleted player kept: %v %v", took, err)
	}
	ds, err := s.ClaimDeliveries(ctx, "a", email, ms(10), ms(20), 10)
	must(t, err)
	if got := claimIDs(ds); !reflect.DeepEqual(got, []string{"n2/email"}) {
		t.Fatalf("deliveries left %v", got)
	}
}
