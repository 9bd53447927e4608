//go:build linux

package papayoo

import (
	"os"
	"runtime"
	"strconv"
	"syscall"
	"testing"
	"time"

	"tapis/bot"
	"tapis/game"
)

func cpuNow() time.Duration {
	var ru syscall.Rusage
	syscall.Getrusage(syscall.RUSAGE_THREAD, &ru)
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

type timed struct {
	p     game.Player
	spent [3]time.Duration
	calls [3]int
}

func (t *timed) Observe(e game.Event) { t.p.Observe(e) }
func (t *timed) Choose(k game.Knowledge) game.Move {
	ph := 0
	if k.View().(*View).Phase == "play" {
		ph = 1
	}
	if len(k.Legal(nil)) == 1 {
		ph = 2
	}
	t0 := cpuNow()
	m := t.p.Choose(k)
	t.spent[ph] += cpuNow() - t0
	t.calls[ph]++
	return m
}

// TestTiming measures the CPU time a search bot spends per move at a
// table of heuristic bots: PAP_BOT=hard@800 PAP_GAMES=20 go test -run Timing -v
func TestTiming(t *testing.T) {
	name := os.Getenv("PAP_BOT")
	if name == "" {
		t.Skip()
	}
	games, _ := strconv.Atoi(os.Getenv("PAP_GAMES"))
	runtime.LockOSThread()
	tm := &timed{}
	for g := uint64(0); g < uint64(games); g++ {
		st, _ := NewState(game.Config{Players: 4, Seed: g})
		ps := []game.Player{}
		for s := 0; s < 4; s++ {
			p, _ := bot.New(Game{}, "heuristic", game.Seat(s), g)
			if s == 0 {
				p, _ = bot.New(Game{}, name, game.Seat(s), g)
				tm.p = p
				p = tm
			}
			ps = append(ps, p)
		}
		if _, err := bot.Play(st, ps, 1<<20); err != nil {
			t.Fatal(err)
		}
	}
	for i, ph := range []string{"pass", "play", "forced"} {
		t.Logf("%s: %d calls, %v per call", ph, tm.calls[i], tm.spent[i]/time.Duration(max(1, tm.calls[i])))
	}
	all := tm.spent[0] + tm.spent[1] + tm.spent[2]
	t.Logf("all: %v per game, %v per move", all/time.Duration(games), all/time.Duration(tm.calls[0]+tm.calls[1]+tm.calls[2]))
}
