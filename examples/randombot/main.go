// Command randombot is an example bot built on package client: it takes a
// seat at a Tapis table from its invite link and plays random legal moves
// until the match ends.
//
//	go run ./examples/randombot --name Robot https://tapis.example/t/k3abc
//
// Create the table in the browser with a free seat for it (and, if you
// like, one of Tapis's own bots in another seat: "easy", "normal" or
// "hard", which the server plays), copy the invite link, and run this.
//
// It plays at random, from the "legal" list of each state, because that
// is all a client of any language gets: Tapis's own bots (package bot)
// choose from the game's full state, which only the server holds (it
// shows each seat only its view), so they cannot run on the client side.
// A smarter bot reads the state's "view" (each game's shape is its
// engine's view type, games/<g>/view.go) and picks among the same legal
// moves; a refusal's Reason says why a move was refused.
package main

import (
	"context"
	"flag"
	"fmt"
	"math/rand/v2"
	"os"
	"os/signal"
	"time"

	"tapis/client"
)

func main() {
	name := flag.String("name", "Random bot", "the name the bot sits under")
	think := flag.Duration("think", time.Second, "how long it pauses before each move, so that people can follow")
	flag.Usage = func() {
		fmt.Fprintln(flag.CommandLine.Output(), "usage: randombot [--name NAME] [--think 1s] INVITE-LINK")
		flag.PrintDefaults()
	}
	flag.Parse()
	if flag.NArg() != 1 {
		flag.Usage()
		os.Exit(2)
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	if err := play(ctx, flag.Arg(0), *name, *think); err != nil {
		fmt.Fprintln(os.Stderr, "randombot:", err)
		os.Exit(1)
	}
}

// play joins the table of invite as name and plays until its match ends.
func play(ctx context.Context, invite, name string, think time.Duration) error {
	base, table, err := client.ParseInvite(invite)
	if err != nil {
		return err
	}
	c, err := client.New(base)
	if err != nil {
		return err
	}
	seat, err := c.Join(ctx, table, name)
	if err != nil {
		return err
	}
	// A socket may close under a game in progress: the server restarting,
	// or in a cluster the table moving to another node ("reconnecting").
	// The seat's token seats the bot again wherever the table is now, at
	// the same position; a few failures in a row give up.
	for failures := 0; ; {
		over, err := session(ctx, c, seat, name, think)
		switch {
		case over:
			return nil
		case ctx.Err() != nil:
			return ctx.Err()
		case failures >= 5:
			return err
		}
		failures++
		fmt.Fprintf(os.Stderr, "connection lost (%v); reconnecting\n", err)
		select {
		case <-time.After(time.Duration(failures) * 500 * time.Millisecond):
		case <-ctx.Done():
			return ctx.Err()
		}
	}
}

// session plays on one socket until the match is over (true) or the
// socket fails.
func session(ctx context.Context, c *client.Client, seat client.Seat, name string, think time.Duration) (bool, error) {
	conn, err := c.Dial(ctx, seat.Table, seat.Token)
	if err != nil {
		return false, err
	}
	defer conn.Close()
	fmt.Printf("seated at table %s, seat %d, as %q\n", seat.Table, conn.Seat(), name)
	for {
		m, err := conn.Next(ctx)
		if err != nil {
			return false, err
		}
		switch m := m.(type) {
		case *client.State:
			if m.Over() {
				fmt.Printf("match over: scores %v, winners %v\n", m.Result.Scores, m.Result.Winners)
				return true, nil
			}
			if !m.Moves(conn.Seat()) || len(m.Legal) == 0 {
				continue
			}
			select {
			case <-time.After(think):
			case <-ctx.Done():
				return false, ctx.Err()
			}
			// MoveAt answers the state the move was chosen from: if the
			// table moved on meanwhile, the server refuses it as "stale"
			// and the newer state, already on its way, is answered.
			if _, err := conn.MoveAt(ctx, m.N, m.Legal[rand.IntN(len(m.Legal))]); err != nil {
				return false, err
			}
		case *client.Error:
			if m.Code != "stale" {
				fmt.Fprintf(os.Stderr, "refused: %s (%s)\n", m.Message, m.Code)
			}
		}
	}
}
