package server_test

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"tapis/server"
	"tapis/server/servertest"
	"tapis/wire"
)

// chatLine is a line of the chat as a client reads it.
type chatLine = wire.ChatLine

// chatMsg is any of the chat's messages (and errors), decoded loosely.
type chatMsg = servertest.Chat

// chatNext returns the next message of one of the types, skipping others.
func (c *client) chatNext(types ...string) chatMsg {
	c.t.Helper()
	return c.NextChat(types...)
}

func (c *client) chatNextE(types ...string) (chatMsg, error) { return c.NextChatE(types...) }

// chatConfig is testConfig with the chat's pace off, for the tests that
// are not about it.
func chatConfig() server.Config {
	cfg := testConfig()
	cfg.Limits.ChatEvery = -1
	return cfg
}

// chatTable is a started Cabo table: Ann (the host, seat 0), Bob, a
// random bot, and a spectator who has said she is Zoé.
type chatTable struct {
	table        string
	ann, bob     seatResp
	ca, cb, spec *client
	specID       string
}

func newChatTable(t *testing.T, h *harness) *chatTable {
	t.Helper()
	ct := &chatTable{}
	ct.ann = h.create("cabo", []string{"", "", "random"}, "Ann", "")
	ct.table = ct.ann.Table
	ct.bob = h.join(ct.table, "Bob")
	ct.ca, ct.cb, ct.spec = h.dial(ct.table, ct.ann.Token), h.dial(ct.table, ct.bob.Token), h.dial(ct.table, "")
	// A socket is open before the table has attached it: a line said
	// before then would come in the history, not as a line.
	ct.ca.next("welcome")
	ct.cb.next("welcome")
	ct.spec.send(`{"type":"hello","name":"  Zoé\u202e "}`)
	hi := ct.spec.chatNext("hello", "error")
	if hi.Type != "hello" || hi.Name != "Zoé" || hi.From == "" {
		t.Fatalf("hello answered %+v", hi)
	}
	ct.specID = hi.From
	return ct
}

func (ct *chatTable) all() []*client { return []*client{ct.ca, ct.cb, ct.spec} }

// Two seats and a spectator write; everyone reads every line, in the one
// order the table gave them, marked with the writer's seat, name and
// whether they watch; markup arrives as the same text.
func TestChatDelivered(t *testing.T) {
	h := newHarness(t, chatConfig())
	ct := newChatTable(t, h)
	want := []chatLine{
		{No: 1, Seat: 0, Name: "Ann", Text: "hello all"},
		{No: 2, Seat: -1, Name: "Zoé", Text: "hi from the rail", Spectator: true, From: ct.specID},
		{No: 3, Seat: 1, Name: "Bob", Text: "<script>alert(1)</script>"},
		{No: 4, Seat: 0, Name: "Ann", Text: "a b c 👩‍👩‍👧 ok"},
	}
	sent := []struct {
		by   *client
		text string
	}{
		{ct.ca, "  hello all \n"},
		{ct.spec, "hi from the rail"},
		{ct.cb, "<script>alert(1)</script>"},
		// A line break, a tab, a right-to-left override and a zero-width
		// space go; the joiners of the family emoji stay.
		{ct.ca, "a\nb\tc\u202e \u200b👩\u200d👩\u200d👧 ok"},
	}
	// An observer (unnamed: it only reads) waits for each line before
	// the next is sent, so that the order is the test's.
	obs := h.dial(ct.table, "")
	obs.next("welcome")
	before := time.Now().Add(-time.Second)
	for i, s := range sent {
		s.by.send(map[string]any{"type": "chat", "text": s.text})
		if got := obs.chatNext("chat", "error"); got.Type != "chat" || got.Line.No != want[i].No {
			t.Fatalf("line %d: the observer got %+v", i+1, got)
		}
	}
	for ci, c := range ct.all() {
		for i, w := range want {
			l := c.chatNext("chat").Line
			if l.At.Before(before) || l.At.After(time.Now()) {
				t.Errorf("client %d, line %d: at %v", ci, i+1, l.At)
			}
			l.At = time.Time{}
			if l != w {
				t.Errorf("client %d, line %d: got %+v, want %+v", ci, i+1, l, w)
			}
		}
	}
}

// A line is checked before anything is written: empty, too long (in
// characters, not bytes), a spectator without a name, hellos that are not
// allowed.
func TestChatRefused(t *testing.T) {
	h := newHarness(t, chatConfig())
	ct := newChatTable(t, h)
	anon := h.dial(ct.table, "")
	for _, c := range []struct {
		name string
		by   *client
		msg  string
		code string
	}{
		{"empty", ct.ca, `{"type":"chat","text":" \n\t\u200b "}`, "chat_empty"},
		{"501 characters", ct.ca, fmt.Sprintf(`{"type":"chat","text":%q}`, strings.Repeat("x", 501)), "chat_long"},
		{"501 accented characters", ct.cb, fmt.Sprintf(`{"type":"chat","text":%q}`, strings.Repeat("é", 501)), "chat_long"},
		{"no name", anon, `{"type":"chat","text":"who am I"}`, "chat_name"},
		{"a player's name", anon, `{"type":"hello","name":"ann"}`, "name_taken"},
		{"no letter", anon, `{"type":"hello","name":"\u200b <>"}`, "bad_name"},
		{"a second hello", ct.spec, `{"type":"hello","name":"Zed"}`, "named"},
		{"a seat's hello", ct.ca, `{"type":"hello","name":"Ann"}`, "bad_message"},
		{"unknown field", ct.ca, `{"type":"chat","text":"x","html":"<b>"}`, "bad_message"},
	} {
		c.by.send(c.msg)
		if got := c.by.chatNext("chat", "error"); got.Type != "error" || got.Code != c.code {
			t.Errorf("%s: got %+v, want error %s", c.name, got, c.code)
		} else if c.code == "chat_long" && !strings.Contains(got.Error, "500") {
			t.Errorf("%s: the error does not say the limit: %q", c.name, got.Error)
		}
	}
	// 500 accented characters are 1000 bytes, and a line.
	ct.cb.send(map[string]any{"type": "chat", "text": strings.Repeat("é", 500), "id": 7})
	if got := ct.cb.chatNext("chat", "error"); got.Type != "chat" || got.Line.No != 1 || len([]rune(got.Line.Text)) != 500 {
		t.Fatalf("500 characters: got %+v", got)
	}
}

// One client sends 1,000 lines as fast as it can: the first few are
// taken, the rest refused as chat_slow with a wait, while the players go
// on playing and another player's lines, within the pace, all get
// through.
func TestChatFlood(t *testing.T) {
	// The chat's default pace: 5 at once, then 1 every 2 s. The
	// connection's own pace is set high rather than off: unbounded, a
	// flood's answers come faster than any socket takes them, and the
	// flooder is dropped as a slow client (as it should be).
	cfg := testConfig()
	cfg.Rate, cfg.Burst = 1000, 100
	h := newHarness(t, cfg)
	ct := newChatTable(t, h)
	const flood = 1000
	start := time.Now()
	sendErr := make(chan error, 1)
	go func() {
		for i := range flood {
			if err := ct.spec.sendE(map[string]any{"type": "chat", "text": fmt.Sprint("spam ", i)}); err != nil {
				sendErr <- err
				return
			}
		}
		sendErr <- nil
	}()
	// Meanwhile Ann and Bob play, and Bob says three things.
	errs := make(chan error, 1)
	go func() {
		_, err := playRandom(ct.ca, ct.ann.Seat, 1, 16)
		errs <- err
	}()
	bobSaid := make(chan error, 1)
	go func() {
		for i := range 3 {
			if err := ct.cb.sendE(map[string]any{"type": "chat", "text": fmt.Sprint("bob ", i)}); err != nil {
				bobSaid <- err
				return
			}
		}
		bobSaid <- nil
	}()
	if _, err := playRandom(ct.cb, ct.bob.Seat, 2, 16); err != nil {
		t.Fatal(err)
	}
	if err := <-errs; err != nil {
		t.Fatal(err)
	}
	if err := <-bobSaid; err != nil {
		t.Fatal(err)
	}
	if err := <-sendErr; err != nil {
		t.Fatal(err)
	}
	// Every line of the flood is answered: taken (its echo) or refused.
	taken, slow, bob := 0, 0, 0
	for taken+slow < flood {
		m := ct.spec.chatNext("chat", "error")
		switch {
		case m.Type == "error" && m.Code == "chat_slow":
			slow++
			if m.RetryAfter < 1 || m.RetryAfter > 2 {
				t.Fatalf("chat_slow says to wait %d s", m.RetryAfter)
			}
		case m.Type == "error" && m.Code == "too_fast":
			// The connection's own pace, said once a second.
		case m.Type == "error":
			t.Fatalf("the flood got %+v", m)
		case m.Line.From == ct.specID:
			taken++
		case m.Line.Name == "Bob":
			bob++
		}
	}
	// The pace allows 5, then one every 2 s since the flood began.
	if most := 5 + int(time.Since(start)/(2*time.Second)) + 1; taken < 5 || taken > most {
		t.Fatalf("%d lines of the flood taken in %v (at most %d allowed)", taken, time.Since(start), most)
	}
	for bob < 3 {
		if m := ct.spec.chatNext("chat"); m.Line.Name == "Bob" {
			bob++
		}
	}
	t.Logf("flood: %d taken, %d refused in %v", taken, slow, time.Since(start))
}

// say60 has lines 1 to 60 written at the table, every third by the
// spectator.
func (ct *chatTable) say60(t *testing.T) {
	t.Helper()
	for i := 1; i <= 60; i++ {
		who := ct.ca
		if i%3 == 0 {
			who = ct.spec
		}
		who.send(map[string]any{"type": "chat", "text": fmt.Sprint("line ", i)})
		// The writer reads on to its own line.
		for {
			m := who.chatNext("chat", "error")
			if m.Type != "chat" || m.Line.No > i {
				t.Fatalf("line %d: %+v", i, m)
			}
			if m.Line.No == i {
				break
			}
		}
	}
}

// checkHistory checks that c is sent lines 11 to 60 of say60 on attach.
func checkHistory(t *testing.T, when string, c *client) {
	t.Helper()
	m := c.chatNext("chat_history")
	if len(m.Lines) != 50 {
		t.Fatalf("%s: %d lines of history", when, len(m.Lines))
	}
	for i, l := range m.Lines {
		no := 11 + i
		if l.No != no || l.Text != fmt.Sprint("line ", no) || l.Spectator != (no%3 == 0) {
			t.Fatalf("%s: history line %d is %+v", when, i, l)
		}
		if want := map[bool]string{true: "Zoé", false: "Ann"}[no%3 == 0]; l.Name != want {
			t.Fatalf("%s: line %d by %q", when, no, l.Name)
		}
	}
}

// A connection that attaches gets the last 50 lines, in order: a player
// who reconnects, a new spectator.
func TestChatHistory(t *testing.T) {
	h := newHarness(t, chatConfig())
	ct := newChatTable(t, h)
	ct.say60(t)
	ct.cb.ws.CloseNow()
	checkHistory(t, "reconnected", h.dial(ct.table, ct.bob.Token))
	checkHistory(t, "a new spectator", h.dial(ct.table, ""))
}

// The chat is kept with the table: after a restart of the server on the
// same database, the last 50 lines come back and the numbering goes on.
func TestChatRestart(t *testing.T) {
	open := reopener(t)
	cfg := chatConfig()
	cfg.Store = open()
	h1 := newHarness(t, cfg)
	ct := newChatTable(t, h1)
	ct.say60(t)
	cfg.Store.Close()
	h1.stop()

	cfg2 := chatConfig()
	cfg2.Store = open()
	t.Cleanup(func() { cfg2.Store.Close() })
	h2 := newHarness(t, cfg2)
	ca := h2.dial(ct.table, ct.ann.Token)
	if w := ca.next("welcome"); w.Seat != 0 {
		t.Fatalf("after the restart: seat %d", w.Seat)
	}
	checkHistory(t, "after a restart", ca)
	ca.send(`{"type":"chat","text":"still here"}`)
	if m := ca.chatNext("chat", "error"); m.Line.No != 61 {
		t.Fatalf("the first line after the restart: %+v", m)
	}
}

// The host mutes a spectator: their lines are refused from then on, for
// everyone; another spectator still talks; nobody else may mute.
func TestChatMute(t *testing.T) {
	h := newHarness(t, chatConfig())
	ct := newChatTable(t, h)
	other := h.dial(ct.table, "")
	other.send(`{"type":"hello","name":"Yann"}`)
	otherID := other.chatNext("hello").From
	if otherID == ct.specID {
		t.Fatalf("two spectators are both %q", otherID)
	}
	ct.cb.send(map[string]any{"type": "mute", "spectator": ct.specID})
	if m := ct.cb.chatNext("error", "muted"); m.Code != "not_host" {
		t.Fatalf("Bob (not the host) muting: %+v", m)
	}
	ct.spec.send(map[string]any{"type": "mute", "spectator": otherID})
	if m := ct.spec.chatNext("error", "muted"); m.Code != "not_host" {
		t.Fatalf("a spectator muting: %+v", m)
	}
	ct.ca.send(map[string]any{"type": "mute", "spectator": "c:999"})
	if m := ct.ca.chatNext("error", "muted"); m.Code != "bad_message" {
		t.Fatalf("muting nobody: %+v", m)
	}
	ct.spec.send(`{"type":"chat","text":"before"}`)
	if m := ct.spec.chatNext("chat", "error"); m.Type != "chat" {
		t.Fatalf("before the mute: %+v", m)
	}
	ct.ca.send(map[string]any{"type": "mute", "spectator": ct.specID})
	for _, c := range []*client{ct.ca, ct.cb, ct.spec, other} {
		if m := c.chatNext("muted", "error"); m.Type != "muted" || m.Spectator != ct.specID || m.Name != "Zoé" {
			t.Fatalf("the mute was told as %+v", m)
		}
	}
	ct.spec.send(`{"type":"chat","text":"after"}`)
	if m := ct.spec.chatNext("chat", "error"); m.Code != "muted" {
		t.Fatalf("a muted spectator's line: %+v", m)
	}
	other.send(`{"type":"chat","text":"I may"}`)
	if m := ct.ca.chatNext("chat"); m.Line.Name != "Yann" || m.Line.Text != "I may" || m.Line.No != 2 {
		t.Fatalf("the other spectator's line reached the host as %+v", m)
	}
	// The players too still talk.
	ct.cb.send(`{"type":"chat","text":"ok"}`)
	if m := ct.spec.chatNext("chat"); m.Line.No != 2 {
		t.Fatalf("the muted spectator read %+v", m)
	}
	if m := ct.spec.chatNext("chat"); m.Line.Seat != 1 || m.Line.No != 3 {
		t.Fatalf("Bob's line reached the muted spectator as %+v", m)
	}
}
