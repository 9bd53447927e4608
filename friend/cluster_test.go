package friend_test

import (
	"net/http"
	"testing"

	"github.com/nats-io/nats.go"

	"tapis/cluster"
	"tapis/cluster/natstest"
	"tapis/friend"
	"tapis/server/servertest"
	"tapis/store"
)

// In a cluster, a friend is online when their socket is open to a table
// of any node: Bob's table and socket are on node A, Ann asks node B.
func TestOnlineAcrossTheCluster(t *testing.T) {
	st := store.NewMemory()
	url := natstest.Start(t)
	node := func(name string) *servertest.Server {
		nc, err := nats.Connect(url)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(nc.Close)
		cfg := servertest.Unlimited()
		cfg.Store = st
		cfg.Cluster, cfg.Leases = cluster.New(nc, name), st
		return servertest.New(t, cfg)
	}
	a, b := node("nodeA"), node("nodeB")
	annOnA, annID := a.SignUp("Ann", "ann")
	bob, _ := a.SignUp("Bob", "bob")
	ann := &servertest.Person{Server: b, HTTP: annOnA.HTTP}
	ann.Must(http.StatusOK, "POST", "/api/me/friends", map[string]string{"username": "bob"}, nil)
	bob.Must(http.StatusOK, "POST", "/api/me/friends/"+annID+"/accept", nil, nil)
	online := func() bool {
		var l friend.List
		ann.Must(http.StatusOK, "GET", "/api/me/friends", nil, &l)
		return len(l.Friends) == 1 && l.Friends[0].Online
	}
	if online() {
		t.Fatal("bob online with no socket")
	}
	var tab servertest.Seat
	bob.Must(http.StatusCreated, "POST", "/api/tables", map[string]any{"game": "cabo", "players": 2, "bots": []string{"", "random"}}, &tab)
	c := bob.Dial(tab.Table)
	c.Next("state")
	servertest.Eventually(t, "bob, at a table of node A, online for node B", online)
	c.Conn.CloseNow()
	servertest.Eventually(t, "bob offline once his socket closed", func() bool { return !online() })
}
