package client_test

import (
	"context"
	"fmt"
	"log"
	"math/rand/v2"

	"tapis/client"
)

// A bot that takes a seat at a new Cabo table against one of the server's
// bots and plays random legal moves until the match is over.
func Example() {
	ctx := context.Background()
	c, err := client.New("http://localhost:8080")
	if err != nil {
		log.Fatal(err)
	}
	seat, err := c.Create(ctx, client.NewTable{Game: "cabo", Players: 2, Bots: []string{"", "easy"}, Name: "Robot"})
	if err != nil {
		log.Fatal(err)
	}
	conn, err := c.Dial(ctx, seat.Table, seat.Token)
	if err != nil {
		log.Fatal(err)
	}
	defer conn.Close()
	for {
		m, err := conn.Next(ctx)
		if err != nil {
			log.Fatal(err)
		}
		switch m := m.(type) {
		case *client.State:
			if m.Over() {
				fmt.Println("scores:", m.Result.Scores, "winners:", m.Result.Winners)
				return
			}
			if m.Moves(conn.Seat()) && len(m.Legal) > 0 {
				// Move answers this state (its n): if another seat moves
				// first, the server refuses it as "stale" and a newer
				// state follows.
				if _, err := conn.Move(ctx, m.Legal[rand.IntN(len(m.Legal))]); err != nil {
					log.Fatal(err)
				}
			}
		case *client.Error:
			log.Printf("refused: %s", m.Message)
		}
	}
}
