package friend_test

import (
	"net/http"
	"testing"

	"tapis/server/servertest"
)

// Quick match never seats together two players one of whom blocked the
// other (issue 29): Ann, who blocked Bob, and Bob wait for people; Cat
// comes and sits with Ann, and Bob waits on.
func TestQuickMatchKeepsBlocksApart(t *testing.T) {
	s := servertest.New(t, servertest.Unlimited())
	ann, _ := s.SignUp("Ann", "ann")
	bob, _ := s.SignUp("Bob", "bob")
	cat, _ := s.SignUp("Cat", "cat")
	ann.Must(http.StatusOK, "POST", "/api/me/blocks", map[string]string{"username": "bob"}, nil)
	never := -1
	type entry struct {
		Entry *struct {
			Table string `json:"table"`
		} `json:"entry"`
	}
	queue := func(p *servertest.Person) {
		p.Must(http.StatusOK, "POST", "/api/queue", map[string]any{"game": "cabo", "players": 2, "wait_seconds": never}, nil)
	}
	at := func(p *servertest.Person) string {
		var e entry
		p.Must(http.StatusOK, "GET", "/api/queue", nil, &e)
		if e.Entry == nil {
			return ""
		}
		return e.Entry.Table
	}
	queue(ann)
	queue(bob)
	queue(cat)
	servertest.Eventually(t, "cat seated", func() bool { return at(cat) != "" })
	if a, c := at(ann), at(cat); a != c {
		t.Fatalf("cat at %q, ann at %q: want them together", c, a)
	}
	if b := at(bob); b != "" {
		t.Fatalf("bob, whom ann blocked, seated at %q", b)
	}
}
