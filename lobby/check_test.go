package lobby

import (
	"errors"
	"testing"
	"time"

	"tapis/game"
	"tapis/games"
)

func TestCheck(t *testing.T) {
	cabo, papayoo := games.Named("cabo"), games.Named("papayoo")
	for _, c := range []struct {
		name    string
		g       game.Game
		players int
		bot     string
		wait    time.Duration
		want    error
	}{
		{"any count, default wait", cabo, 0, "easy", DefaultWait, nil},
		{"the game's smallest table", cabo, 2, "random", 0, nil},
		{"the game's largest table", cabo, 5, "hard", MaxWait, nil},
		{"never", papayoo, 3, "normal", Never, nil},
		{"any negative wait is never", papayoo, 8, "normal", -time.Hour, nil},
		{"unknown game", nil, 0, "easy", DefaultWait, ErrGame},
		{"too few", papayoo, 2, "easy", DefaultWait, ErrPlayers},
		{"too many", cabo, 6, "easy", DefaultWait, ErrPlayers},
		{"negative count", cabo, -1, "easy", DefaultWait, ErrPlayers},
		{"no bot level", cabo, 0, "", DefaultWait, ErrBot},
		{"the cheat is not a level", cabo, 0, "cheat", DefaultWait, ErrBot},
		{"wait too long", cabo, 0, "easy", MaxWait + time.Second, ErrWait},
	} {
		t.Run(c.name, func(t *testing.T) {
			err := Check(c.g, c.players, c.bot, c.wait)
			if !errors.Is(err, c.want) || (c.want == nil) != (err == nil) {
				t.Fatalf("Check = %v, want %v", err, c.want)
			}
		})
	}
}
