package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/url"
	"regexp"
	"slices"
	"strings"
	"time"

	"tapis/client"
)

// served is a game as GET /api/games describes it: what a load test must
// ask within.
type served struct {
	Name string   `json:"name"`
	Min  int      `json:"min"`
	Max  int      `json:"max"`
	Bots []string `json:"bots"`
}

// errNoAnswer marks a server that could not be asked at all.
var errNoAnswer = errors.New("does not answer")

// preflight asks every server of o.url which games it serves, before a
// table is made, so that a server that is down or a game, seat count or
// bot level it does not serve stops the load test at once rather than
// after --duration of errors.
func preflight(ctx context.Context, o loadOptions) error {
	for _, u := range o.urls() {
		if err := preflightOne(ctx, o, u); err != nil {
			return err
		}
	}
	return nil
}

func preflightOne(ctx context.Context, o loadOptions, u string) error {
	c, err := client.New(u)
	if err != nil {
		return err
	}
	ctx, cancel := context.WithTimeout(ctx, o.drain)
	defer cancel()
	b, err := c.Get(ctx, "/api/games")
	if err != nil {
		if _, fast := client.IsTooFast(err); fast {
			return fmt.Errorf("%s refuses even the list of games (429): %v", u, err)
		}
		var api *client.APIError
		if errors.As(err, &api) {
			return fmt.Errorf("%s is not a Tapis server, or not one this load test knows: GET /api/games: %v", u, err)
		}
		// The network's words ("connect: connection refused") without
		// the request's, which the message says already.
		var ue *url.Error
		if errors.As(err, &ue) {
			err = ue.Err
		}
		return fmt.Errorf("%s %w: %v (is tapis serve running there?)", u, errNoAnswer, err)
	}
	var list []served
	if err := json.Unmarshal(b, &list); err != nil {
		return fmt.Errorf("%s is not a Tapis server, or not one this load test knows: GET /api/games: %v", u, err)
	}
	var names []string
	for _, g := range list {
		names = append(names, g.Name)
		if g.Name != o.game {
			continue
		}
		// A server that says nothing of seats or bots (an older one, or a
		// newer shape) is asked nothing of them: its refusals will say.
		switch {
		case g.Max > 0 && (o.players < g.Min || o.players > g.Max):
			return fmt.Errorf("--players %d: %s takes %d to %d players", o.players, g.Name, g.Min, g.Max)
		case o.bots != "" && g.Bots != nil && !slices.Contains(g.Bots, o.bots):
			return fmt.Errorf("--bots %q: %s offers %s at %s", o.bots, u, strings.Join(g.Bots, ", "), g.Name)
		}
		return nil
	}
	return fmt.Errorf("--game %q: %s serves %s", o.game, u, strings.Join(names, ", "))
}

// dialTooFast matches a WebSocket dial the server refused with 429 (the
// WebSocket library says the status only in its words).
var dialTooFast = regexp.MustCompile(`\b429\b`)

// tooFast counts a refusal for going too fast (429, or a WebSocket
// message's too_fast) and, the first time, says what it means: the
// server's per-client limits apply, and without --trusted-proxy every
// table of the load test is one client, this machine.
func (t *tally) tooFast(what string) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.refused++
	if t.refused == 1 {
		fmt.Fprintf(t.log, "tapis loadtest: refused as too fast (%s): the server's per-client limits apply, "+
			"and unless it trusts this machine as a proxy every table of this load test counts as the same client; "+
			"start it with --trusted-proxy 127.0.0.1/32 (or this machine's address) so that each table counts as its own. "+
			"The refusals are counted, and table creation is retried as the server asks.\n", what)
	}
}

// progress prints on w (the tally's log), every d until ctx ends, how the run is going: the
// tables playing, the moves so far and in the last period, the refusals
// and the errors.
func progress(ctx context.Context, t *tally, tables int, d time.Duration, w io.Writer) {
	if d <= 0 {
		return
	}
	start := time.Now()
	tick := time.NewTicker(d)
	defer tick.Stop()
	last := 0
	for {
		select {
		case <-ctx.Done():
			return
		case now := <-tick.C:
			// Under the tally's lock, which also orders the writes to w.
			t.mu.Lock()
			moves := len(t.rtts)
			fmt.Fprintf(w, "tapis loadtest: %.0fs: %d/%d tables playing, %d moves (%.0f/s), %d matches over, %d stale, %d errors, %d refused as too fast (429)",
				now.Sub(start).Seconds(), t.playing, tables, moves, float64(moves-last)/d.Seconds(), t.matches, t.stale, t.errors, t.refused)
			if t.away > 0 || len(t.aways) > 0 {
				fmt.Fprintf(w, ", %d seats away, %d back", t.away, len(t.aways))
			}
			fmt.Fprintln(w)
			t.mu.Unlock()
			last = moves
		}
	}
}
