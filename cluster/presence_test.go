package cluster

import (
	"reflect"
	"testing"
	"time"

	"tapis/cluster/natstest"
)

// sockets is a node's own answer: the players with a socket there.
type sockets map[string]bool

func (s sockets) Online(players []string) map[string]bool {
	out := map[string]bool{}
	for _, p := range players {
		if s[p] {
			out[p] = true
		}
	}
	return out
}

// Each node answers for its own sockets; a question to any node joins
// every node's answers; a node gone stops counting.
func TestPresence(t *testing.T) {
	url := natstest.Start(t)
	var nodes []*Node
	var ps []*Presence
	for i, s := range []sockets{{"ann": true}, {"bob": true}, {}} {
		n := New(connect(t, url), string(rune('a'+i)))
		t.Cleanup(n.Close)
		if err := n.Announce(func() int { return 0 }); err != nil {
			t.Fatal(err)
		}
		p, err := n.ServePresence(s)
		if err != nil {
			t.Fatal(err)
		}
		nodes, ps = append(nodes, n), append(ps, p)
	}
	players := []string{"ann", "bob", "cat"}
	sees := func(want map[string]bool) func() bool {
		return func() bool { return reflect.DeepEqual(ps[2].Online(players), want) }
	}
	eventually(t, "node c seeing ann on a and bob on b", sees(map[string]bool{"ann": true, "bob": true}))
	nodes[1].Close()
	eventually(t, "node c seeing ann alone once b is gone", sees(map[string]bool{"ann": true}))
}

// eventually waits until cond holds, polling as servertest.Eventually
// does (which this package cannot import).
func eventually(t *testing.T, what string, cond func() bool) {
	t.Helper()
	for deadline := time.Now().Add(30 * time.Second); !cond(); time.Sleep(10 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("after 30 s, still not %s", what)
		}
	}
}
