package storetest

import (
	"context"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"sync"
	"testing"
	"time"

	"tapis/rating"
	"tapis/store"
)

// A match is recorded once; anchors keep their rating but count games;
// the leaderboard leaves anchors and players below the minimum out, and
// ranks by mu − 3 sigma; a profile holds standings, history and recent
// games; a refused update writes nothing.
func testRatingsRecordAndRead(t *testing.T, bk Backend) {
	ctx := context.Background()
	k := fresh(t, bk)
	s := k.open(t)
	defer s.Close()
	must(t, s.SetAnchor(ctx, "bot:normal", "cabo", 27, 1))
	// ann beats bob three times, bob beats the bot twice.
	record(t, s, match("t1", 1000, "cabo", []string{"ann", "bob"}, []int{0, 1}))
	record(t, s, match("t2", 2000, "cabo", []string{"bob", "ann"}, []int{1, 0}))
	record(t, s, match("t3", 3000, "cabo", []string{"ann", "bob", "bot:normal"}, []int{0, 1, 2}))
	record(t, s, match("t4", 4000, "cabo", []string{"bob", "bot:normal"}, []int{0, 1}))
	record(t, s, match("t5", 5000, "papayoo", []string{"ann", "cyd"}, []int{0, 0}))
	again := match("t1", 9000, "cabo", []string{"ann", "bob"}, []int{1, 0})
	if err := s.RecordRated(ctx, again, func([]store.Standing) ([]store.Standing, error) {
		t.Fatal("update called for a recorded match")
		return nil, nil
	}); !errors.Is(err, store.ErrRecorded) {
		t.Fatalf("recording t1 again: %v, want ErrRecorded", err)
	}
	boom := errors.New("boom")
	bad := match("t6", 6000, "cabo", []string{"ann", "dan"}, []int{0, 1})
	if err := s.RecordRated(ctx, bad, func([]store.Standing) ([]store.Standing, error) { return nil, boom }); !errors.Is(err, boom) {
		t.Fatalf("a failing update: %v", err)
	}
	if err := s.RecordRated(ctx, bad, func(b []store.Standing) ([]store.Standing, error) { return b[:1], nil }); err == nil {
		t.Fatal("an update of the wrong length was accepted")
	}
	twice := match("t6", 6000, "cabo", []string{"ann", "ann"}, []int{0, 1})
	if err := s.RecordRated(ctx, twice, rate(twice)); err == nil || errors.Is(err, store.ErrRecorded) {
		t.Fatalf("a person at two seats: %v", err)
	}
	rs, err := s.MatchResults(ctx, "t6", 1)
	if err != nil || len(rs) != 0 {
		t.Fatalf("a refused match left results %v (%v)", rs, err)
	}
	if _, err := s.Rank(ctx, "cabo", "dan", 0); !errors.Is(err, store.ErrNotFound) {
		t.Fatalf("dan, refused, has a rank: %v", err)
	}
	// Two bots of one level: the anchor sits twice.
	record(t, s, match("t7", 7000, "cabo", []string{"dan", "bot:normal", "bot:normal"}, []int{2, 0, 1}))

	board, err := s.Leaderboard(ctx, "cabo", 3, 10, 0)
	must(t, err)
	if len(board) != 2 || board[0].Player != "ann" || board[1].Player != "bob" || board[0].Rank != 1 || board[1].Rank != 2 {
		t.Fatalf("leaderboard: %+v", board)
	}
	if board[0].Games != 3 || board[0].Wins != 3 || board[1].Games != 4 || board[1].Wins != 1 {
		t.Fatalf("games and wins: %+v", board)
	}
	if board[0].Ordinal() <= board[1].Ordinal() {
		t.Fatalf("ann below bob: %v, %v", board[0].Ordinal(), board[1].Ordinal())
	}
	if page, err := s.Leaderboard(ctx, "cabo", 3, 10, 1); err != nil || len(page) != 1 || page[0].Player != "bob" || page[0].Rank != 2 {
		t.Fatalf("second page: %+v %v", page, err)
	}
	if b4, err := s.Leaderboard(ctx, "cabo", 4, 10, 0); err != nil || len(b4) != 1 || b4[0].Player != "bob" {
		t.Fatalf("at least 4 games: %+v %v", b4, err)
	}
	r, err := s.Rank(ctx, "cabo", "bob", 3)
	if err != nil || r.Rank != 2 || r.Games != 4 {
		t.Fatalf("bob's rank: %+v %v", r, err)
	}
	if r, err := s.Rank(ctx, "cabo", "bob", 4); err != nil || r.Rank != 1 {
		t.Fatalf("bob's rank among those with 4 games: %+v %v", r, err)
	}
	if _, err := s.Rank(ctx, "cabo", "bot:normal", 0); !errors.Is(err, store.ErrNotFound) {
		t.Fatalf("the anchor has a rank: %v", err)
	}

	p, err := s.Profile(ctx, "bot:normal", 5)
	must(t, err)
	if len(p.Standings) != 1 || p.Standings[0].Mu != 27 || p.Standings[0].Sigma != 1 || !p.Standings[0].Fixed || p.Standings[0].Games != 3 {
		t.Fatalf("the anchor moved or did not count: %+v", p.Standings)
	}
	p, err = s.Profile(ctx, "ann", 2)
	must(t, err)
	if len(p.Standings) != 2 || p.Standings[0].Game != "cabo" || p.Standings[1].Game != "papayoo" || p.Standings[1].Wins != 1 {
		t.Fatalf("ann's standings: %+v", p.Standings)
	}
	if len(p.History) != 4 || p.History[0].Table != "t1" || p.History[3].Table != "t5" {
		t.Fatalf("ann's history: %+v", p.History)
	}
	for i, h := range p.History[:3] {
		if i > 0 && (h.MuBefore != p.History[i-1].MuAfter || h.SigmaBefore != p.History[i-1].SigmaAfter) {
			t.Fatalf("history %d does not start where %d ended: %+v", i, i-1, p.History)
		}
	}
	if h := p.History[2]; h.Players != 3 || h.Rank != 0 || h.Seat != 0 || h.Score != 0 || !h.At.Equal(time.UnixMilli(3000)) {
		t.Fatalf("t3's row: %+v", h)
	}
	if len(p.Recent) != 2 || p.Recent[0].Table != "t5" || p.Recent[1].Table != "t3" {
		t.Fatalf("ann's recent games: %+v", p.Recent)
	}
	if p, err := s.Profile(ctx, "nobody", 5); err != nil || len(p.Standings)+len(p.History)+len(p.Recent) != 0 {
		t.Fatalf("a stranger's profile: %+v %v", p, err)
	}
	rs, err = s.MatchResults(ctx, "t3", 1)
	must(t, err)
	if len(rs) != 3 || rs[2].Player != "bot:normal" || rs[2].MuAfter != 27 || rs[0].MuAfter <= rs[0].MuBefore {
		t.Fatalf("t3's results: %+v", rs)
	}
}

// The acceptance test: 1,000 rated games recorded, and every rating is
// the one replaying the results in order gives.
func testRatingsThousandGames(t *testing.T, bk Backend) {
	anchors := map[string]rating.Rating{"bot:easy": {Mu: 20, Sigma: 1}, "bot:hard": {Mu: 32, Sigma: 1}}
	ms := randomMatches(1000, 7)
	want := replayed(ms, anchors)
	k := fresh(t, bk)
	s := k.open(t)
	defer s.Close()
	for p, a := range anchors {
		must(t, s.SetAnchor(context.Background(), p, "limits", a.Mu, a.Sigma))
	}
	for _, m := range ms {
		record(t, s, m)
	}
	checkReplayed(t, s, "limits", want)
	if k.durable {
		// And after a restart.
		must(t, s.Close())
		s = k.open(t)
		defer s.Close()
		checkReplayed(t, s, "limits", want)
	}
}

// Two writers recording matches that share a player at once lose no
// update: the shared player's games and rating are those of replaying the
// matches in the order they committed. The order is taken inside the
// update, which runs while the shared player's row is locked (PostgreSQL)
// or in the one writer (SQLite); a transaction tried again after a
// deadlock is placed where it last ran.
func testRatingsConcurrent(t *testing.T, bk Backend) {
	const each = 60
	k := fresh(t, bk)
	if !k.durable {
		t.Skip("keeps no data shared between the stores it opens")
	}
	s := k.open(t)
	defer s.Close()
	var mu sync.Mutex
	var order []store.RatedMatch
	var wg sync.WaitGroup
	errs := make([]error, 2)
	for w := range 2 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range each {
				ps := []string{"shared", fmt.Sprintf("w%d-%d", w, i%5), fmt.Sprintf("w%d-x", w)}
				m := match(fmt.Sprintf("w%d-%03d", w, i), int64(i), "cabo", ps, []int{(i + w) % 3, (i + 1) % 3, (i + 2) % 3})
				up := rate(m)
				err := s.RecordRated(context.Background(), m, func(b []store.Standing) ([]store.Standing, error) {
					mu.Lock()
					order = append(order, m)
					mu.Unlock()
					return up(b)
				})
				if err != nil {
					errs[w] = err
					return
				}
			}
		}()
	}
	wg.Wait()
	must(t, errors.Join(errs...))
	// The last run of each match is the one that committed.
	last := map[string]int{}
	for i, m := range order {
		last[m.Table] = i
	}
	var committed []store.RatedMatch
	for i, m := range order {
		if last[m.Table] == i {
			committed = append(committed, m)
		}
	}
	if len(committed) != 2*each {
		t.Fatalf("%d matches committed, want %d", len(committed), 2*each)
	}
	want := replayed(committed, nil)
	if want["shared"].Games != 2*each {
		t.Fatalf("replay counts %d games", want["shared"].Games)
	}
	checkReplayed(t, s, "cabo", want)
}

// A table's rated flag comes back from Load and Match.
func testRatedTableRoundTrip(t *testing.T, bk Backend) {
	ctx := context.Background()
	k := fresh(t, bk)
	s := k.open(t)
	defer s.Close()
	for _, rated := range []bool{false, true} {
		id := fmt.Sprintf("r%v", rated)
		must(t, s.CreateTable(ctx, store.Table{ID: id, Game: "cabo", Players: 2, Created: time.UnixMilli(1),
			Seats: []store.Seat{{Name: "Ann", TokenHash: "h"}, {Bot: "easy"}}, Host: 0, Rated: rated}, &store.Start{No: 1, Seed: 3}))
		sv, err := s.Load(ctx, id)
		if err != nil || sv.Rated != rated {
			t.Fatalf("load %s: rated %v, %v", id, sv.Rated, err)
		}
		must(t, s.EndMatch(ctx, id, 1))
		sv, err = s.Match(ctx, id, 1)
		if err != nil || sv.Rated != rated {
			t.Fatalf("match %s: rated %v, %v", id, sv.Rated, err)
		}
	}
}

// rate is the update the server makes: package rating's, anchors fixed,
// a new player starting from rating.New.
func rate(m store.RatedMatch) func([]store.Standing) ([]store.Standing, error) {
	return func(before []store.Standing) ([]store.Standing, error) {
		rs := make([]rating.Rating, len(before))
		ranks := make([]int, len(before))
		fixed := make([]bool, len(before))
		for i, b := range before {
			rs[i] = rating.Rating{Mu: b.Mu, Sigma: b.Sigma}
			if b.New {
				rs[i] = rating.New()
			}
			ranks[i], fixed[i] = m.Seats[i].Rank, b.Fixed
		}
		after, err := rating.UpdateFixed(rs, ranks, fixed)
		if err != nil {
			return nil, err
		}
		out := make([]store.Standing, len(before))
		for i, a := range after {
			out[i] = store.Standing{Mu: a.Mu, Sigma: a.Sigma}
		}
		return out, nil
	}
}

// match builds a rated match of table tab, the players ranked as given.
func match(tab string, at int64, game string, players []string, ranks []int) store.RatedMatch {
	m := store.RatedMatch{Table: tab, No: 1, Game: game, At: time.UnixMilli(at)}
	for i, p := range players {
		m.Seats = append(m.Seats, store.RatedSeat{Seat: i, Player: p, Rank: ranks[i], Score: 10 * ranks[i]})
	}
	return m
}

func record(t testing.TB, s store.Store, m store.RatedMatch) {
	t.Helper()
	if err := s.RecordRated(context.Background(), m, rate(m)); err != nil {
		t.Fatal(err)
	}
}

// replayed is what the ratings should be: the matches' results run
// through package rating in order, as the store never sees it.
func replayed(ms []store.RatedMatch, anchors map[string]rating.Rating) map[string]store.Standing {
	want := map[string]store.Standing{}
	for p, r := range anchors {
		want[p] = store.Standing{Player: p, Mu: r.Mu, Sigma: r.Sigma, Fixed: true}
	}
	for _, m := range ms {
		rs := make([]rating.Rating, len(m.Seats))
		ranks := make([]int, len(m.Seats))
		fixed := make([]bool, len(m.Seats))
		for i, st := range m.Seats {
			w, ok := want[st.Player]
			rs[i] = rating.Rating{Mu: w.Mu, Sigma: w.Sigma}
			if !ok {
				rs[i] = rating.New()
			}
			ranks[i], fixed[i] = st.Rank, w.Fixed
		}
		after, err := rating.UpdateFixed(rs, ranks, fixed)
		if err != nil {
			panic(err)
		}
		for i, st := range m.Seats {
			w := want[st.Player]
			w.Player, w.Mu, w.Sigma = st.Player, after[i].Mu, after[i].Sigma
			w.Games++
			if st.Rank == 0 {
				w.Wins++
			}
			want[st.Player] = w
		}
	}
	return want
}

// checkReplayed compares every player's standing with the replay.
func checkReplayed(t *testing.T, s store.Store, game string, want map[string]store.Standing) {
	t.Helper()
	for p, w := range want {
		got, err := s.Profile(context.Background(), p, 0)
		must(t, err)
		if len(got.Standings) != 1 {
			t.Fatalf("%s: standings %+v", p, got.Standings)
		}
		g := got.Standings[0]
		if g.Games != w.Games || g.Wins != w.Wins || g.Fixed != w.Fixed ||
			math.Abs(g.Mu-w.Mu) > 1e-9 || math.Abs(g.Sigma-w.Sigma) > 1e-9 {
			t.Fatalf("%s: stored %+v, replay gives %+v", p, g, w)
		}
	}
}

// randomMatches makes n matches of 2 to 5 players among 30 people and two
// anchors, with ties now and then.
func randomMatches(n int, seed uint64) []store.RatedMatch {
	r := rand.New(rand.NewPCG(seed, 1))
	people := []string{"bot:easy", "bot:hard"}
	for i := range 30 {
		people = append(people, fmt.Sprintf("p%02d", i))
	}
	var ms []store.RatedMatch
	for i := range n {
		k := 2 + r.IntN(4)
		perm := r.Perm(len(people))[:k]
		var ps []string
		var ranks []int
		for _, j := range perm {
			ps = append(ps, people[j])
			ranks = append(ranks, r.IntN(k))
		}
		ms = append(ms, match(fmt.Sprintf("m%04d", i), int64(1000+i), "limits", ps, ranks))
	}
	return ms
}
