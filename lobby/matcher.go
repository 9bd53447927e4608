package lobby

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"time"

	"tapis/game"
	"tapis/store"
)

// BuildFunc makes the table for a group Plan seats: an id, as many seats as
// players, with Seat.Player and Seat.Name set for each of people (in any
// seats, taken as the server takes a seat), bots of level botLevel in the
// rest (botLevel is empty when people fill the table), the game's default
// options, and the first match's start with its seed. The server builds it,
// as it builds the tables created from its API.
type BuildFunc func(game string, players int, people []store.Entry, botLevel string) (store.Table, *store.Start, error)

// Matcher seats the players waiting in the quick-match queue, a pass at a
// time. It holds nothing between passes: every pass reads the queue from
// the store, and SeatQueued seats a group only if all of it is still
// waiting, so several matchers (on several nodes) may step the same queue
// at once and each player is seated once.
//
// Queue, Games and Build are required; the rest is optional.
type Matcher struct {
	Queue store.Queue
	// Games are the games the matcher seats; entries for other games are
	// left waiting (for a node that has them).
	Games []game.Game
	Build BuildFunc
	// Blocks, if set, says whom each waiting player must not be seated
	// with: the players with a block between them, either way (issue
	// 29). A pass that cannot read them seats nobody of that game.
	Blocks Blocker
	// Seated, if set, is told of every table a pass seated, once it is
	// in the store: the server hosts it there.
	Seated func(t store.Table, start *store.Start)
	// Now is Run's clock (time.Now if nil).
	Now func() time.Time
	// Logger receives the errors of Run's passes (slog.Default() if nil).
	Logger *slog.Logger
}

// Step makes one pass: for each game with waiting entries it plans the
// groups to seat at now (Plan), builds each group's table and seats it with
// SeatQueued. A group whose entries changed meanwhile (ErrQueueChanged:
// somebody left, or another matcher seated them) is skipped: the next pass
// sees the new queue. Step returns the tables it seated, and the errors of
// the groups it could not build or write, joined; one failed group does not
// stop the others.
func (m *Matcher) Step(ctx context.Context, now time.Time) ([]store.Table, error) {
	entries, err := m.Queue.Queued(ctx, "")
	if err != nil {
		return nil, fmt.Errorf("lobby: reading the queue: %w", err)
	}
	byGame := map[string][]store.Entry{}
	for _, e := range entries {
		byGame[e.Game] = append(byGame[e.Game], e)
	}
	var seated []store.Table
	var errs []error
	for _, g := range m.Games {
		waiting := byGame[g.Name()]
		if len(waiting) == 0 {
			continue
		}
		apart, err := m.apart(ctx, waiting)
		if err != nil {
			errs = append(errs, err)
			continue
		}
		min, max := g.Players()
		for _, grp := range PlanApart(now, waiting, min, max, apart) {
			if err := ctx.Err(); err != nil {
				return seated, errors.Join(append(errs, err)...)
			}
			t, start, err := m.seat(ctx, g.Name(), grp)
			switch {
			case errors.Is(err, store.ErrQueueChanged):
			case err != nil:
				errs = append(errs, err)
			default:
				seated = append(seated, t)
				if m.Seated != nil {
					m.Seated(t, start)
				}
			}
		}
	}
	return seated, errors.Join(errs...)
}

// Blocker is what the matcher asks about blocks (store.Friends' Blocks):
// the players with a block between them and player, either way.
type Blocker interface {
	Blocks(ctx context.Context, player string) ([]string, error)
}

// apart reads the blocks among the waiting entries, as Plan's Apart; nil
// if the matcher has no Blocks or nobody waiting blocked anybody.
func (m *Matcher) apart(ctx context.Context, waiting []store.Entry) (Apart, error) {
	if m.Blocks == nil || len(waiting) < 2 {
		return nil, nil
	}
	pairs := map[[2]string]bool{}
	for _, e := range waiting {
		others, err := m.Blocks.Blocks(ctx, e.Player)
		if err != nil {
			return nil, fmt.Errorf("lobby: reading %s's blocks: %w", e.Player, err)
		}
		for _, o := range others {
			pairs[[2]string{e.Player, o}] = true
			pairs[[2]string{o, e.Player}] = true
		}
	}
	if len(pairs) == 0 {
		return nil, nil
	}
	return func(a, b string) bool { return pairs[[2]string{a, b}] }, nil
}

// seat builds the table of one group and writes it with its players'
// entries.
func (m *Matcher) seat(ctx context.Context, name string, grp Group) (store.Table, *store.Start, error) {
	t, start, err := m.Build(name, grp.Seats, grp.People, grp.Bot)
	if err != nil {
		return store.Table{}, nil, fmt.Errorf("lobby: building a %s table of %d: %w", name, grp.Seats, err)
	}
	players := make([]string, len(grp.People))
	for i, e := range grp.People {
		players[i] = e.Player
	}
	if err := m.Queue.SeatQueued(ctx, players, t, start); err != nil {
		if errors.Is(err, store.ErrQueueChanged) {
			return store.Table{}, nil, err
		}
		return store.Table{}, nil, fmt.Errorf("lobby: seating table %s: %w", t.ID, err)
	}
	return t, start, nil
}

// Run steps every period until ctx is done, and at once whenever wake
// receives (the server pokes it when a player joins the queue, with a
// send that does not block on a channel of capacity 1; wake may be nil).
// The first pass is at once, for the players who queued while no matcher
// ran. Errors are logged, and the next pass tries again.
func (m *Matcher) Run(ctx context.Context, every time.Duration, wake <-chan struct{}) {
	now, log := m.Now, m.Logger
	if now == nil {
		now = time.Now
	}
	if log == nil {
		log = slog.Default()
	}
	tick := time.NewTicker(every)
	defer tick.Stop()
	for {
		if _, err := m.Step(ctx, now()); err != nil && ctx.Err() == nil {
			log.Error("lobby: quick-match pass", "err", err)
		}
		select {
		case <-ctx.Done():
			return
		case <-tick.C:
		case <-wake:
		}
	}
}
