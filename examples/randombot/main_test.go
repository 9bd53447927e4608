package main

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"net/http/httptest"
	"testing"
	"time"

	"tapis/client"
	"tapis/server"
	"tapis/store"
)

// The example joins from an invite link and plays a whole match beside
// one of the server's bots.
func TestPlaysAMatchFromAnInvite(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	srv, err := server.New(ctx, server.Config{Store: store.NewMemory(), BotDelay: -1, Rate: -1,
		Logger: slog.New(slog.NewTextHandler(io.Discard, nil))})
	if err != nil {
		t.Fatal(err)
	}
	hs := httptest.NewServer(srv)
	defer func() { cancel(); hs.CloseClientConnections(); hs.Close(); srv.Wait() }()
	c, err := client.New(hs.URL)
	if err != nil {
		t.Fatal(err)
	}
	// The creator sits at seat 0 and plays it as the bot would; the bot
	// takes the table's only free seat from the invite.
	seat, err := c.Create(ctx, client.NewTable{Game: "cabo", Players: 3, Bots: []string{"", "", "easy"}, Name: "Host"})
	if err != nil {
		t.Fatal(err)
	}
	host := make(chan error, 1)
	go func() {
		over, err := session(ctx, c, seat, "Host", 0)
		if err == nil && !over {
			err = fmt.Errorf("the host's session ended before the match")
		}
		host <- err
	}()
	if err := play(ctx, seat.Invite, "Robot", 0); err != nil {
		t.Fatal(err)
	}
	if err := <-host; err != nil {
		t.Fatal(err)
	}
	tab, err := c.Table(ctx, seat.Table)
	if err != nil {
		t.Fatal(err)
	}
	if tab.Status != "over" || tab.Seats[1].Name != "Robot" {
		t.Fatalf("after the bot's match the table is %+v", tab)
	}
}
