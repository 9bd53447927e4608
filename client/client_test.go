package client_test

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"tapis/client"
	"tapis/server"
	"tapis/store"
)

// newServer starts a real server on a loopback port, with a memory store
// and bots that move at once.
func newServer(t *testing.T, cfg server.Config) string {
	t.Helper()
	cfg.Store = store.NewMemory()
	// The tests' players answer at once, faster than people may.
	cfg.Rate = -1
	if cfg.BotDelay == 0 {
		cfg.BotDelay = -1
	}
	cfg.Logger = slog.New(slog.NewTextHandler(io.Discard, nil))
	cfg.Levels = map[string]string{"normal": "normal@50", "hard": "hard@50"}
	ctx, cancel := context.WithCancel(context.Background())
	srv, err := server.New(ctx, cfg)
	if err != nil {
		cancel()
		t.Fatal(err)
	}
	hs := httptest.NewUnstartedServer(srv)
	hs.Config = srv.HTTPServer()
	hs.Start()
	t.Cleanup(func() {
		cancel()
		hs.CloseClientConnections()
		hs.Close()
		srv.Wait()
	})
	return hs.URL
}

func newClient(t *testing.T, base string, opts ...client.Option) *client.Client {
	t.Helper()
	c, err := client.New(base, opts...)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

func testContext(t *testing.T) context.Context {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	t.Cleanup(cancel)
	return ctx
}

// play plays the first legal move whenever the seat must act, until the
// match is over; it returns the last state and how many moves it sent. A
// "stale" refusal is part of the game: in a simultaneous phase another
// seat may move first, and the state that follows is answered instead.
func play(ctx context.Context, c *client.Conn) (*client.State, int, error) {
	moves, sentAt := 0, -1
	for {
		m, err := c.Next(ctx)
		if err != nil {
			return nil, moves, err
		}
		switch m := m.(type) {
		case *client.Error:
			if m.Code != "stale" {
				return nil, moves, fmt.Errorf("seat %d: %w", c.Seat(), m)
			}
		case *client.State:
			if m.Over() {
				return m, moves, nil
			}
			if m.Moves(c.Seat()) && len(m.Legal) > 0 && sentAt != m.N {
				if _, err := c.Move(ctx, m.Legal[0]); err != nil {
					return nil, moves, err
				}
				moves++
				sentAt = m.N
			}
		}
	}
}

// A person against a bot: Create seats the creator, Dial welcomes them at
// their seat with the table, and the moves they send end the match.
func TestCreateDialPlay(t *testing.T) {
	ctx := testContext(t)
	c := newClient(t, newServer(t, server.Config{}))
	seat, err := c.Create(ctx, client.NewTable{Game: "cabo", Players: 2, Bots: []string{"", "random"}, Name: "Ada"})
	if err != nil {
		t.Fatal(err)
	}
	if seat.Seat != 0 || seat.Token == "" || seat.Table == "" || seat.Invite == "" {
		t.Fatalf("seat response %+v", seat)
	}
	conn, err := c.Dial(ctx, seat.Table, seat.Token)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	w := conn.Welcome()
	if conn.Seat() != 0 || w.Table.ID != seat.Table || w.Table.Game != "cabo" || len(w.Table.Seats) != 2 || w.Table.Seats[1].Bot != "random" {
		t.Fatalf("welcome %+v", w)
	}
	last, moves, err := play(ctx, conn)
	if err != nil {
		t.Fatal(err)
	}
	if moves == 0 || last.N < moves || len(last.Result.Winners) == 0 || len(last.Result.Scores) != 2 {
		t.Fatalf("after %d moves: %+v", moves, last)
	}
	if conn.State() != last {
		t.Error("State is not the latest state read")
	}
	// Again starts match 2 at move 0.
	if _, err := conn.Again(ctx); err != nil {
		t.Fatal(err)
	}
	for {
		m, err := conn.Next(ctx)
		if err != nil {
			t.Fatal(err)
		}
		if st, ok := m.(*client.State); ok && st.Match == 2 {
			if st.N != 0 || st.Over() {
				t.Fatalf("match 2 begins at %+v", st)
			}
			break
		}
	}
}

// Two people: one creates, the other joins by the invite link's id; both
// play over their own connection to the end.
func TestJoinTwoPeople(t *testing.T) {
	ctx := testContext(t)
	base := newServer(t, server.Config{})
	ada := newClient(t, base)
	s0, err := ada.Create(ctx, client.NewTable{Game: "papayoo", Players: 3, Bots: []string{"", "", "easy"}, Name: "Ada"})
	if err != nil {
		t.Fatal(err)
	}
	inviteBase, id, err := client.ParseInvite(s0.Invite)
	if err != nil || id != s0.Table || inviteBase != base {
		t.Fatalf("ParseInvite(%q) = %q, %q, %v", s0.Invite, inviteBase, id, err)
	}
	bea := newClient(t, inviteBase)
	s1, err := bea.Join(ctx, id, "Bea")
	if err != nil {
		t.Fatal(err)
	}
	if s1.Seat != 1 || s1.Token == "" || s1.Token == s0.Token {
		t.Fatalf("join: %+v", s1)
	}
	type outcome struct {
		st    *client.State
		moves int
		err   error
	}
	done := make(chan outcome, 2)
	for _, s := range []struct {
		c    *client.Client
		seat client.Seat
	}{{ada, s0}, {bea, s1}} {
		conn, err := s.c.Dial(ctx, s.seat.Table, s.seat.Token)
		if err != nil {
			t.Fatal(err)
		}
		defer conn.Close()
		if conn.Seat() != s.seat.Seat {
			t.Fatalf("token of seat %d welcomed at %d", s.seat.Seat, conn.Seat())
		}
		go func() {
			st, n, err := play(ctx, conn)
			done <- outcome{st, n, err}
		}()
	}
	a, b := <-done, <-done
	if a.err != nil || b.err != nil {
		t.Fatal(a.err, b.err)
	}
	if a.moves == 0 || b.moves == 0 || a.st.N != b.st.N || !a.st.Over() {
		t.Fatalf("outcomes %d moves and %d moves, n %d and %d", a.moves, b.moves, a.st.N, b.st.N)
	}
}

// A move answering a position the table has left is refused as "stale",
// and the refusal carries the move's id.
func TestStaleMoveIsRefused(t *testing.T) {
	ctx := testContext(t)
	c := newClient(t, newServer(t, server.Config{}))
	seat, err := c.Create(ctx, client.NewTable{Game: "cabo", Players: 2, Bots: []string{"", "random"}, Name: "Ada"})
	if err != nil {
		t.Fatal(err)
	}
	conn, err := c.Dial(ctx, seat.Table, seat.Token)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	var id int64
	stale := -1
	for {
		m, err := conn.Next(ctx)
		if err != nil {
			t.Fatal(err)
		}
		if e, ok := m.(*client.Error); ok {
			if e.Code != "stale" || e.ID == nil {
				t.Fatalf("refusal %+v", e)
			}
			if *e.ID == id {
				return
			}
			continue // a bot moved first in a simultaneous phase
		}
		st, ok := m.(*client.State)
		if !ok || st.Over() || !st.Moves(0) || len(st.Legal) == 0 {
			continue
		}
		if stale >= 0 {
			if id, err = conn.MoveAt(ctx, stale, st.Legal[0]); err != nil {
				t.Fatal(err)
			}
			continue
		}
		if st.N > 0 {
			stale = st.N - 1
		}
		if _, err := conn.Move(ctx, st.Legal[0]); err != nil {
			t.Fatal(err)
		}
	}
}

// Refusals of the HTTP API are *APIError with the API's code; 429 says
// how long to wait.
func TestAPIErrors(t *testing.T) {
	ctx := testContext(t)
	c := newClient(t, newServer(t, server.Config{Limits: server.Limits{CreateEvery: time.Hour, CreateBurst: 1}}))
	_, err := c.Create(ctx, client.NewTable{Game: "cabo", Players: 7, Name: "Ada"})
	var ae *client.APIError
	if !errors.As(err, &ae) || ae.Status != 400 || ae.Code != "bad_players" {
		t.Fatalf("7 players: %v", err)
	}
	if _, err := c.Join(ctx, "nosuchtable", "Bea"); !errors.As(err, &ae) || ae.Status != 404 {
		t.Fatalf("join of no table: %v", err)
	}
	_, err = c.Create(ctx, client.NewTable{Game: "cabo", Players: 2, Name: "Ada"})
	wait, fast := client.IsTooFast(err)
	if !fast || wait <= 0 {
		t.Fatalf("second table within the hour: %v (wait %v)", err, wait)
	}
}

// A refusal's reason and args are read with its code.
func TestAPIErrorReason(t *testing.T) {
	ctx := testContext(t)
	c := newClient(t, newServer(t, server.Config{}))
	_, err := c.Create(ctx, client.NewTable{Game: "cabo", Players: 3, Bots: []string{"", "easy"}, Name: "Ada"})
	var ae *client.APIError
	if !errors.As(err, &ae) || ae.Status != 400 || ae.Code != "bad_bots" || ae.Reason != "bots_length" ||
		ae.Args["bots"] != 2.0 || ae.Args["players"] != 3.0 {
		t.Fatalf("two bots entries for three seats: %v (%+v)", err, ae)
	}
}

// With cookies, a guest's session seats them without a token.
func TestGuestSession(t *testing.T) {
	ctx := testContext(t)
	base := newServer(t, server.Config{})
	c := newClient(t, base, client.WithCookies())
	p, err := c.Guest(ctx, "Zoé")
	if err != nil || p.Name != "Zoé" || !p.Guest || p.ID == "" {
		t.Fatalf("guest %+v, %v", p, err)
	}
	seat, err := c.Create(ctx, client.NewTable{Game: "cabo", Players: 2, Bots: []string{"", "random"}})
	if err != nil || seat.Seat != 0 {
		t.Fatalf("create: %+v, %v", seat, err)
	}
	conn, err := c.Dial(ctx, seat.Table, "")
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	if conn.Seat() != 0 || conn.Table().Seats[0].Name != "Zoé" {
		t.Fatalf("the session's connection is seat %d of %+v", conn.Seat(), conn.Table())
	}
	// Without the cookie, the same connection is a spectator's.
	anon, err := newClient(t, base).Dial(ctx, seat.Table, "")
	if err != nil {
		t.Fatal(err)
	}
	defer anon.Close()
	if anon.Seat() != -1 {
		t.Fatalf("a client without the session sits at %d", anon.Seat())
	}
}

// The heartbeat keeps a connection that sends nothing else alive past the
// server's presence timeout: its pings are answered for longer than it.
func TestHeartbeatKeepsThePlayerPresent(t *testing.T) {
	ctx := testContext(t)
	const presence = 300 * time.Millisecond
	c := newClient(t, newServer(t, server.Config{Presence: presence}), client.WithHeartbeat(presence/3))
	seat, err := c.Create(ctx, client.NewTable{Game: "cabo", Players: 2, Name: "Ada"})
	if err != nil {
		t.Fatal(err)
	}
	conn, err := c.Dial(ctx, seat.Table, seat.Token)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	start, pongs := time.Now(), 0
	for time.Since(start) < 3*presence {
		m, err := conn.Next(ctx)
		if err != nil {
			t.Fatalf("after %v and %d pongs: %v", time.Since(start), pongs, err)
		}
		if _, ok := m.(*client.Pong); ok {
			pongs++
		}
	}
	if pongs < 3 {
		t.Fatalf("%d pongs in %v", pongs, time.Since(start))
	}
}

func TestParseInvite(t *testing.T) {
	for _, tc := range []struct {
		link, base, table string
		ok                bool
	}{
		{"https://tapis.example/t/k3abc", "https://tapis.example", "k3abc", true},
		{"http://127.0.0.1:8080/t/x1", "http://127.0.0.1:8080", "x1", true},
		{"https://host/games/t/x1", "https://host/games", "x1", true},
		{"https://host/t/", "", "", false},
		{"https://host/m/x1/2", "", "", false},
		{"https://host/t/x1/extra", "", "", false},
		{"/t/x1", "", "", false},
	} {
		base, table, err := client.ParseInvite(tc.link)
		if (err == nil) != tc.ok || base != tc.base || table != tc.table {
			t.Errorf("ParseInvite(%q) = %q, %q, %v", tc.link, base, table, err)
		}
	}
}

// A dial that fails says why without the seat's token, which its URL
// carries: errors get logged, and the token takes the seat.
func TestDialErrorHidesToken(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close() // nothing listens there now
	c, err := client.New("http://" + addr)
	if err != nil {
		t.Fatal(err)
	}
	const token = "0123456789abcdef0123456789abcdef"
	_, err = c.Dial(testContext(t), "tab", token)
	if err == nil || strings.Contains(err.Error(), token) || !strings.Contains(err.Error(), "connection refused") {
		t.Fatalf("dial to nothing: %v", err)
	}
	var op *net.OpError
	if !errors.As(err, &op) {
		t.Errorf("the error no longer unwraps to the network's: %v", err)
	}
}
