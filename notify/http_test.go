package notify_test

import (
	"encoding/json"
	"net/http"
	"testing"

	"tapis/friend"
	"tapis/notify"
	"tapis/server/servertest"
	"tapis/store"
)

// A friend request reaches the inbox of the one asked, and the channels
// they chose; not from a player they blocked. Reading marks; choices.
func TestInbox(t *testing.T) {
	email := newSink()
	cfg := servertest.Unlimited()
	cfg.Notify = notify.Config{Senders: map[string]notify.Sender{store.ChannelEmail: email}}
	s := servertest.New(t, cfg)
	ann, annID := s.SignUp("Ann", "ann")
	bob, bobID := s.SignUp("Bob", "bob")
	cat, catID := s.SignUp("Cat", "cat")

	var ch notify.Choices
	bob.Must(http.StatusOK, "GET", "/api/me/notifications", nil, &ch)
	if len(ch.Channels) != 1 || ch.Channels[0] != store.ChannelEmail || len(ch.Prefs) != len(store.Kinds) {
		t.Fatalf("choices %+v", ch)
	}
	for _, p := range ch.Prefs {
		if p.On {
			t.Fatalf("%+v on before it was chosen", p)
		}
	}
	bob.Must(http.StatusOK, "POST", "/api/me/notifications", map[string]any{"kind": "friend_request", "channel": "email", "on": true}, &ch)
	for _, p := range ch.Prefs {
		if p.On != (p.Kind == store.KindFriendRequest) {
			t.Fatalf("choices %+v", ch.Prefs)
		}
	}
	var e struct{ Code string }
	if st := bob.Do("POST", "/api/me/notifications", map[string]any{"kind": "spam", "channel": "email", "on": true}, &e); st != 400 || e.Code != "bad_pref" {
		t.Fatalf("a kind that does not exist: %d %s", st, e.Code)
	}

	ann.Must(http.StatusOK, "POST", "/api/me/friends", map[string]string{"username": "bob"}, nil)
	d := <-email.sent
	var from map[string]string
	must(t, json.Unmarshal(d.Payload, &from))
	if d.Player != bobID || d.Kind != store.KindFriendRequest || from["player"] != annID || from["username"] != "ann" {
		t.Fatalf("sent %+v", d)
	}
	var in notify.Inbox
	bob.Must(http.StatusOK, "GET", "/api/me/inbox", nil, &in)
	if len(in.Items) != 1 || in.Unread != 1 || in.Items[0].Kind != "friend_request" || in.Items[0].ID != d.ID {
		t.Fatalf("inbox %+v", in)
	}

	// Cat, blocked by Bob, asks: her answer is as Ann's was, and Bob is
	// told nothing.
	bob.Must(http.StatusOK, "POST", "/api/me/blocks", map[string]string{"player": catID}, nil)
	var l friend.List
	cat.Must(http.StatusOK, "POST", "/api/me/friends", map[string]string{"username": "bob"}, &l)
	if len(l.Outgoing) != 1 || l.Outgoing[0].ID != bobID {
		t.Fatalf("cat's list %+v", l)
	}
	// A notification that comes after Cat's shows that hers was not
	// written (the request handler notifies before it answers).
	// (Bob declines Ann's first: asked again after a decline, she
	// notifies him again; after withdrawing it herself she would not.)
	bob.Must(http.StatusOK, "POST", "/api/me/friends/"+annID+"/decline", nil, nil)
	ann.Must(http.StatusOK, "POST", "/api/me/friends", map[string]string{"username": "bob"}, nil)
	if d := <-email.sent; d.Player != bobID || !json.Valid(d.Payload) || string(d.Payload) == "" {
		t.Fatalf("sent %+v", d)
	}
	bob.Must(http.StatusOK, "GET", "/api/me/inbox", nil, &in)
	if len(in.Items) != 2 || in.Unread != 2 {
		t.Fatalf("inbox after a blocked player's request %+v", in)
	}
	for _, it := range in.Items {
		if err := json.Unmarshal(it.Payload, &from); err != nil || from["player"] != annID {
			t.Fatalf("bob was told of %s", it.Payload)
		}
	}
	var marked map[string]int
	bob.Must(http.StatusOK, "POST", "/api/me/inbox/read", map[string]any{"ids": []string{in.Items[1].ID}}, &marked)
	bob.Must(http.StatusOK, "GET", "/api/me/inbox", nil, &in)
	if marked["marked"] != 1 || in.Unread != 1 || !in.Items[1].Read || in.Items[0].Read {
		t.Fatalf("marked %v, inbox %+v", marked, in)
	}
	// Another's ids are left alone; none given marks every one.
	ann.Must(http.StatusOK, "POST", "/api/me/inbox/read", map[string]any{"ids": []string{in.Items[0].ID}}, &marked)
	if marked["marked"] != 0 {
		t.Fatalf("ann marked bob's: %v", marked)
	}
	bob.Must(http.StatusOK, "POST", "/api/me/inbox/read", map[string]any{}, &marked)
	bob.Must(http.StatusOK, "GET", "/api/me/inbox", nil, &in)
	if marked["marked"] != 1 || in.Unread != 0 {
		t.Fatalf("marked %v, inbox %+v", marked, in)
	}

	guest, _ := s.SignUp("Gus", "")
	if st := guest.Do("GET", "/api/me/inbox", nil, &e); st != 403 || e.Code != "needs_account" {
		t.Fatalf("a guest's inbox: %d %s", st, e.Code)
	}
	if st := s.Person().Do("GET", "/api/me/inbox", nil, &e); st != 401 || e.Code != "signed_out" {
		t.Fatalf("nobody's inbox: %d %s", st, e.Code)
	}
}
