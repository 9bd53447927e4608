package friend_test

import (
	"net/http"
	"reflect"
	"testing"

	"tapis/friend"
	"tapis/server/servertest"
)

// list reads p's friends list as "state:username" in order.
func list(t *testing.T, p *servertest.Person) []string {
	t.Helper()
	var l friend.List
	p.Must(http.StatusOK, "GET", "/api/me/friends", nil, &l)
	return flat(l)
}

// flat is a list as "state:username".
func flat(l friend.List) []string {
	out := []string{}
	for _, g := range []struct {
		state string
		ps    []friend.Person
	}{{"friend", l.Friends}, {"incoming", l.Incoming}, {"outgoing", l.Outgoing}, {"blocked", l.Blocked}} {
		for _, p := range g.ps {
			out = append(out, g.state+":"+p.Username)
		}
	}
	return out
}

func want(t *testing.T, who string, got []string, want ...string) {
	t.Helper()
	if want == nil {
		want = []string{}
	}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("%s's friends list: %v, want %v", who, got, want)
	}
}

// code sends a request as p and returns the status and the refusal's
// code.
func code(p *servertest.Person, method, path string, body any) (int, string) {
	var e struct{ Code string }
	st := p.Do(method, path, body, &e)
	return st, e.Code
}

// A request, its acceptance, a decline, a removal; the refusals.
func TestFriends(t *testing.T) {
	s := servertest.New(t, servertest.Unlimited())
	ann, _ := s.SignUp("Ann", "ann")
	bob, bobID := s.SignUp("Bob", "bob")
	cat, catID := s.SignUp("Cat", "cat")
	var l friend.List
	ann.Must(http.StatusOK, "POST", "/api/me/friends", map[string]string{"username": "BOB"}, &l)
	want(t, "ann", flat(l), "outgoing:bob")
	want(t, "bob", list(t, bob), "incoming:ann")
	var annID string
	bob.Must(http.StatusOK, "GET", "/api/me/friends", nil, &l)
	annID = l.Incoming[0].ID
	if l.Incoming[0].Name != "Ann" || l.Incoming[0].Since.IsZero() {
		t.Fatalf("incoming %+v", l.Incoming[0])
	}
	if st, c := code(ann, "POST", "/api/me/friends/"+bobID+"/accept", nil); st != 404 || c != "no_request" {
		t.Fatalf("accepting one's own request: %d %s", st, c)
	}
	bob.Must(http.StatusOK, "POST", "/api/me/friends/"+annID+"/accept", nil, &l)
	want(t, "bob", flat(l), "friend:ann")
	want(t, "ann", list(t, ann), "friend:bob")

	// A decline, and requests that meet.
	cat.Must(http.StatusOK, "POST", "/api/me/friends", map[string]string{"username": "ann"}, nil)
	ann.Must(http.StatusOK, "POST", "/api/me/friends/"+catID+"/decline", nil, &l)
	want(t, "ann", flat(l), "friend:bob")
	want(t, "cat", list(t, cat))
	cat.Must(http.StatusOK, "POST", "/api/me/friends", map[string]string{"username": "bob"}, nil)
	bob.Must(http.StatusOK, "POST", "/api/me/friends", map[string]string{"username": "cat"}, &l)
	want(t, "bob", flat(l), "friend:ann", "friend:cat")

	// Removing a friend ends it both ways.
	ann.Must(http.StatusOK, "DELETE", "/api/me/friends/"+bobID, nil, &l)
	want(t, "ann", flat(l))
	want(t, "bob", list(t, bob), "friend:cat")

	guest, _ := s.SignUp("Gus", "")
	for _, c := range []struct {
		p            *servertest.Person
		method, path string
		body         any
		status       int
		code         string
	}{
		{s.Person(), "GET", "/api/me/friends", nil, 401, "signed_out"},
		{guest, "GET", "/api/me/friends", nil, 403, "needs_account"},
		{guest, "POST", "/api/me/friends", map[string]string{"username": "ann"}, 403, "needs_account"},
		{ann, "POST", "/api/me/friends", map[string]string{"username": "nobody"}, 404, "no_player"},
		{ann, "POST", "/api/me/friends", map[string]string{"username": "Ann"}, 400, "self"},
		{ann, "POST", "/api/me/friends", map[string]string{}, 400, "bad_request"},
		{ann, "POST", "/api/me/friends", map[string]string{"player": bobID}, 400, "bad_request"},
		{ann, "POST", "/api/me/blocks", map[string]string{"player": "nobody"}, 404, "no_player"},
		{ann, "POST", "/api/me/friends/" + catID + "/accept", nil, 404, "no_request"},
	} {
		if st, code := code(c.p, c.method, c.path, c.body); st != c.status || code != c.code {
			t.Errorf("%s %s %v: %d %s, want %d %s", c.method, c.path, c.body, st, code, c.status, c.code)
		}
	}
}

// A block is silent: the one blocked sees their request pending as any
// other, the one who blocked never sees it, nor can it be accepted.
func TestBlockIsSilent(t *testing.T) {
	s := servertest.New(t, servertest.Unlimited())
	ann, annID := s.SignUp("Ann", "ann")
	bob, _ := s.SignUp("Bob", "bob")
	cat, _ := s.SignUp("Cat", "cat")
	ann.Must(http.StatusOK, "POST", "/api/me/friends", map[string]string{"username": "bob"}, nil)
	bob.Must(http.StatusOK, "POST", "/api/me/friends/"+annID+"/accept", nil, nil)
	var l friend.List
	bob.Must(http.StatusOK, "POST", "/api/me/blocks", map[string]string{"player": annID}, &l)
	want(t, "bob", flat(l), "blocked:ann")

	// Ann asks Bob, who blocked her, and Cat, who did not: the same
	// answers.
	var toBob, toCat friend.List
	if st := ann.Do("POST", "/api/me/friends", map[string]string{"username": "bob"}, &toBob); st != 200 {
		t.Fatalf("a request to one who blocked: %d", st)
	}
	ann.Must(http.StatusOK, "POST", "/api/me/friends", map[string]string{"username": "cat"}, &toCat)
	want(t, "ann", flat(toCat), "outgoing:bob", "outgoing:cat")
	want(t, "bob", list(t, bob), "blocked:ann")
	want(t, "cat", list(t, cat), "incoming:ann")
	if st, c := code(bob, "POST", "/api/me/friends/"+annID+"/accept", nil); st != 404 || c != "no_request" {
		t.Fatalf("accepting a blocked player's request: %d %s", st, c)
	}

	// Bob asking Ann lifts his block (he changed his mind), and meets
	// her request.
	bob.Must(http.StatusOK, "POST", "/api/me/friends", map[string]string{"username": "ann"}, &l)
	want(t, "bob", flat(l), "friend:ann")
	bob.Must(http.StatusOK, "POST", "/api/me/blocks", map[string]string{"username": "ann"}, nil)
	bob.Must(http.StatusOK, "DELETE", "/api/me/blocks/"+annID, nil, &l)
	want(t, "bob", flat(l))
}

// Requests and blocks are paced per player, then per network.
func TestRequestsArePaced(t *testing.T) {
	s := servertest.New(t, servertest.Unlimited())
	s.SignUp("Zed", "zed")
	var people []*servertest.Person
	for _, n := range []string{"ann", "bob", "cat", "dan"} {
		p, _ := s.SignUp(n, n)
		people = append(people, p)
	}
	// A player's budget: 10 at once.
	for i := range 10 {
		if st := people[0].Do("POST", "/api/me/friends", map[string]string{"username": "zed"}, nil); st != 200 {
			t.Fatalf("request %d: %d", i, st)
		}
	}
	if st, c := code(people[0], "POST", "/api/me/blocks", map[string]string{"username": "zed"}); st != 429 || c != "too_fast" {
		t.Fatalf("an 11th request: %d %s", st, c)
	}
	// The network's: 30 at once, which Ann spent 10 of.
	for _, p := range people[1:3] {
		for range 10 {
			p.Must(http.StatusOK, "POST", "/api/me/friends", map[string]string{"username": "zed"}, nil)
		}
	}
	if st, c := code(people[3], "POST", "/api/me/friends", map[string]string{"username": "zed"}); st != 429 || c != "too_fast" {
		t.Fatalf("a request past the network's budget: %d %s", st, c)
	}
}

// A friend with a socket open to a table is online.
func TestOnline(t *testing.T) {
	s := servertest.New(t, servertest.Unlimited())
	ann, annID := s.SignUp("Ann", "ann")
	bob, _ := s.SignUp("Bob", "bob")
	ann.Must(http.StatusOK, "POST", "/api/me/friends", map[string]string{"username": "bob"}, nil)
	bob.Must(http.StatusOK, "POST", "/api/me/friends/"+annID+"/accept", nil, nil)
	online := func() bool {
		var l friend.List
		ann.Must(http.StatusOK, "GET", "/api/me/friends", nil, &l)
		return l.Friends[0].Online
	}
	if online() {
		t.Fatal("bob online with no socket")
	}
	tab := s.Create("cabo", []string{"", "random"}, "Zoe", "")
	c := bob.Dial(tab.Table)
	c.Next("state")
	if !online() {
		t.Fatal("bob watching a table is not online")
	}
	c.Conn.CloseNow()
	servertest.Eventually(t, "bob offline once his socket closed", func() bool { return !online() })
}

// A player blocked by someone seated at a table cannot sit there: told
// the table is full, as anyone is; others can; a seat taken before the
// block is kept.
func TestBlockedCannotJoin(t *testing.T) {
	s, ann, bob, cat, tab := bobsTable(t)
	cat.Must(http.StatusOK, "POST", "/api/tables/"+tab.Table+"/join", map[string]any{}, nil)
	bob.Must(http.StatusOK, "POST", "/api/me/blocks", map[string]string{"username": "ann"}, nil)
	bob.Must(http.StatusOK, "POST", "/api/me/blocks", map[string]string{"username": "cat"}, nil)
	if st, c := code(ann, "POST", "/api/tables/"+tab.Table+"/join", map[string]any{}); st != 409 || c != "full" {
		t.Fatalf("a blocked player joining: %d %s", st, c)
	}
	// Cat sat before the block: her seat is hers still.
	var again servertest.Seat
	cat.Must(http.StatusOK, "POST", "/api/tables/"+tab.Table+"/join", map[string]any{}, &again)
	if again.Seat != 1 {
		t.Fatalf("cat's seat after the block: %d", again.Seat)
	}
	dan, _ := s.SignUp("Dan", "dan")
	dan.Must(http.StatusOK, "POST", "/api/tables/"+tab.Table+"/join", map[string]any{}, nil)
	bob.Must(http.StatusOK, "DELETE", "/api/me/blocks/"+friendID(t, bob, "ann"), nil, nil)
	ann.Must(http.StatusOK, "POST", "/api/tables/"+tab.Table+"/join", map[string]any{}, nil)
}

// friendID is the id of the player username in p's list.
func friendID(t *testing.T, p *servertest.Person, username string) string {
	t.Helper()
	var l friend.List
	p.Must(http.StatusOK, "GET", "/api/me/friends", nil, &l)
	for _, g := range [][]friend.Person{l.Friends, l.Incoming, l.Outgoing, l.Blocked} {
		for _, pp := range g {
			if pp.Username == username {
				return pp.ID
			}
		}
	}
	t.Fatalf("%s not in the list", username)
	return ""
}

// A player seated at a table invites a friend: the friend's inbox has
// the invitation, whose table they can join; again within the hour, no
// second one. Strangers, tables one does not sit at, tables over are
// refused.
func TestInvite(t *testing.T) {
	s := servertest.New(t, servertest.Unlimited())
	ann, annID := s.SignUp("Ann", "ann")
	bob, bobID := s.SignUp("Bob", "bob")
	s.SignUp("Cat", "cat")
	ann.Must(http.StatusOK, "POST", "/api/me/friends", map[string]string{"username": "bob"}, nil)
	bob.Must(http.StatusOK, "POST", "/api/me/friends/"+annID+"/accept", nil, nil)
	var tab servertest.Seat
	ann.Must(http.StatusCreated, "POST", "/api/tables", map[string]any{"game": "cabo", "players": 2, "bots": []string{"", ""}}, &tab)
	other := s.Create("cabo", []string{"", ""}, "Zoe", "")

	for _, c := range []struct {
		body   map[string]string
		status int
		code   string
	}{
		{map[string]string{"table": tab.Table, "username": "cat"}, 403, "not_friends"},
		{map[string]string{"table": other.Table, "username": "bob"}, 403, "not_seated"},
		{map[string]string{"table": "nosuchtable", "username": "bob"}, 404, "no_table"},
		{map[string]string{"table": tab.Table, "username": "nobody"}, 404, "no_player"},
	} {
		if st, code := code(ann, "POST", "/api/me/invitations", c.body); st != c.status || code != c.code {
			t.Errorf("%v: %d %s, want %d %s", c.body, st, code, c.status, c.code)
		}
	}
	ann.Must(http.StatusOK, "POST", "/api/me/invitations", map[string]string{"table": tab.Table, "player": bobID}, nil)
	ann.Must(http.StatusOK, "POST", "/api/me/invitations", map[string]string{"table": tab.Table, "username": "bob"}, nil)
	var in struct {
		Items []struct {
			Kind    string
			Payload map[string]string
		}
	}
	bob.Must(http.StatusOK, "GET", "/api/me/inbox", nil, &in)
	var invites []map[string]string
	for _, it := range in.Items {
		if it.Kind == "invitation" {
			invites = append(invites, it.Payload)
		}
	}
	if len(invites) != 1 || invites[0]["table"] != tab.Table || invites[0]["game"] != "cabo" || invites[0]["name"] != "Ann" {
		t.Fatalf("invitations in bob's inbox: %v", invites)
	}
	bob.Must(http.StatusOK, "POST", "/api/tables/"+invites[0]["table"]+"/join", map[string]any{}, nil)
}

// Between two players with a block, either way, no chat line passes:
// each sees their own, the others see both; a page opened after the
// block gets the chat's history without the other's lines.
func TestBlockedChat(t *testing.T) {
	_, ann, bob, cat, tab := bobsTable(t)
	ann.Must(http.StatusOK, "POST", "/api/tables/"+tab.Table+"/join", map[string]any{}, nil)
	cat.Must(http.StatusOK, "POST", "/api/tables/"+tab.Table+"/join", map[string]any{}, nil)
	bob.Must(http.StatusOK, "POST", "/api/me/blocks", map[string]string{"username": "ann"}, nil)
	ca, cb, cc := ann.Dial(tab.Table), bob.Dial(tab.Table), cat.Dial(tab.Table)
	say := func(c *servertest.Client, text string) {
		c.Send(map[string]any{"type": "chat", "text": text})
	}
	next := func(c *servertest.Client) string { return c.NextChat("chat").Line.Text }
	say(ca, "from ann")
	if got := next(ca); got != "from ann" {
		t.Fatalf("ann's own line: %q", got)
	}
	if got := next(cc); got != "from ann" {
		t.Fatalf("cat got %q", got)
	}
	say(cb, "from bob")
	if got := next(cb); got != "from bob" {
		t.Fatalf("bob's own line: %q", got)
	}
	if got := next(cc); got != "from bob" {
		t.Fatalf("cat got %q", got)
	}
	say(cc, "from cat")
	// The next line Bob gets is Cat's: Ann's never came; and the next
	// Ann gets is Cat's: Bob's never came.
	if got := next(cb); got != "from cat" {
		t.Fatalf("bob got %q, want cat's line (ann's must not reach him)", got)
	}
	if got := next(ca); got != "from cat" {
		t.Fatalf("ann got %q, want cat's line (bob's must not reach her)", got)
	}
	// A page Ann opens now: the history without Bob's line.
	ca2 := ann.Dial(tab.Table)
	h := ca2.NextChat("chat_history")
	var texts []string
	for _, l := range h.Lines {
		texts = append(texts, l.Text)
	}
	if !reflect.DeepEqual(texts, []string{"from ann", "from cat"}) {
		t.Fatalf("ann's history %v", texts)
	}
	cc2 := cat.Dial(tab.Table)
	texts = nil
	for _, l := range cc2.NextChat("chat_history").Lines {
		texts = append(texts, l.Text)
	}
	if !reflect.DeepEqual(texts, []string{"from ann", "from bob", "from cat"}) {
		t.Fatalf("cat's history %v", texts)
	}
}

// bobsTable starts a server where Ann, Bob and Cat have accounts, and Bob
// a Papayoo table of four people, waiting.
func bobsTable(t *testing.T) (s *servertest.Server, ann, bob, cat *servertest.Person, tab servertest.Seat) {
	s = servertest.New(t, servertest.Unlimited())
	ann, _ = s.SignUp("Ann", "ann")
	bob, _ = s.SignUp("Bob", "bob")
	cat, _ = s.SignUp("Cat", "cat")
	bob.Must(http.StatusCreated, "POST", "/api/tables", map[string]any{"game": "papayoo", "players": 4, "bots": []string{"", "", "", ""}}, &tab)
	return s, ann, bob, cat, tab
}
