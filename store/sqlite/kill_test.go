package sqlite

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"

	"tapis/store"
)

// killChildEnv makes the test binary a process that appends moves to the
// SQLite file its value names until it is killed (TestKilledKeepsMoves).
const killChildEnv = "TAPIS_SQLITE_KILL_CHILD"

// Tables and moves of the killed child: several tables at once, so that
// its writes are committed in groups, as a busy server's are.
const killTables, killMoves = 8, 1 << 20

// openChildEnv makes the test binary a process that opens the SQLite file
// its value names and says how it went (TestLockedWhileOpen).
const openChildEnv = "TAPIS_SQLITE_OPEN_CHILD"

func TestMain(m *testing.M) {
	if path := os.Getenv(killChildEnv); path != "" {
		os.Exit(appendUntilKilled(path))
	}
	if path := os.Getenv(openChildEnv); path != "" {
		s, err := Open(path)
		if err != nil {
			fmt.Println(err)
			os.Exit(1)
		}
		s.Close()
		fmt.Println("opened")
		os.Exit(0)
	}
	os.Exit(m.Run())
}

// While a store has its file open, another process cannot open it (the
// unix-excl VFS: its WAL index is in this process's memory), and is told
// why, after SQLite's busy timeout; once the store is closed it can.
func TestLockedWhileOpen(t *testing.T) {
	if testing.Short() {
		t.Skip("starts processes, waits for SQLite's busy timeout")
	}
	path := filepath.Join(t.TempDir(), "l.db")
	other := func() (string, error) {
		cmd := exec.Command(os.Args[0], "-test.run=^$")
		cmd.Env = append(os.Environ(), openChildEnv+"="+path)
		out, err := cmd.Output()
		return strings.TrimSpace(string(out)), err
	}
	s, err := Open(path)
	must(t, err)
	if out, err := other(); err == nil || !strings.Contains(out, "open in another process") {
		s.Close()
		t.Fatalf("another process opened the store's file: %q (%v)", out, err)
	}
	must(t, s.Close())
	if out, err := other(); err != nil || out != "opened" {
		t.Fatalf("the file closed, another process: %q (%v)", out, err)
	}
}

// appendUntilKilled appends moves to killTables tables of path, and says
// on stdout "ack TABLE INDEX" once each is acknowledged: the parent kills
// the process with SIGKILL in the middle.
func appendUntilKilled(path string) int {
	s, err := Open(path)
	if err != nil {
		fmt.Println("error", err)
		return 1
	}
	ctx := context.Background()
	var out sync.Mutex
	var wg sync.WaitGroup
	for t := range killTables {
		id := fmt.Sprintf("k%d", t)
		if err := s.CreateTable(ctx, store.Table{ID: id, Game: "cabo", Players: 2, Seats: []store.Seat{{}, {Bot: "random"}}},
			&store.Start{No: 1, Seed: 1}); err != nil {
			fmt.Println("error", err)
			return 1
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range killMoves {
				m := store.Move{Seat: i % 2, Move: json.RawMessage(fmt.Sprintf(`{"type":"swap","slot":%d}`, i))}
				if err := s.AppendMove(ctx, id, 1, i, m); err != nil {
					out.Lock()
					fmt.Println("error", err)
					out.Unlock()
					return
				}
				out.Lock()
				fmt.Println("ack", id, i)
				out.Unlock()
			}
		}()
	}
	wg.Wait()
	return 0
}

// Every move a store acknowledged is in the file after its process is
// killed (SIGKILL: no Close, nothing flushed by the process): the
// durability the server's moves rely on, with the WAL in
// synchronous=NORMAL and its index in the process's memory (unix-excl).
// The killed process's lock goes with it: the file opens again at once.
func TestKilledKeepsMoves(t *testing.T) {
	if testing.Short() {
		t.Skip("starts a process")
	}
	path := filepath.Join(t.TempDir(), "k.db")
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), killChildEnv+"="+path)
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	acked := map[string]int{} // the last index acknowledged, by table
	lines := bufio.NewScanner(stdout)
	n := 0
	for lines.Scan() {
		f := strings.Fields(lines.Text())
		if len(f) != 3 || f[0] != "ack" {
			cmd.Process.Kill()
			cmd.Wait()
			t.Fatalf("child said %q", lines.Text())
		}
		i, _ := strconv.Atoi(f[2])
		acked[f[1]] = i
		if n++; n == 3000 {
			// Killed while its writers are busy; what it had said
			// already stays to be read from the pipe.
			cmd.Process.Kill()
		}
	}
	cmd.Wait()
	if n < 3000 {
		t.Fatalf("child stopped after %d moves", n)
	}

	s, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	for id, last := range acked {
		saved, err := s.Load(context.Background(), id)
		if err != nil {
			t.Fatal(err)
		}
		moves := saved.Match.Moves
		if len(moves) <= last {
			t.Fatalf("table %s: %d moves after the kill, move %d was acknowledged", id, len(moves), last)
		}
		for i, m := range moves {
			if want := fmt.Sprintf(`{"type":"swap","slot":%d}`, i); m.Seat != i%2 || string(m.Move) != want {
				t.Fatalf("table %s: move %d is %d %s, want %d %s", id, i, m.Seat, m.Move, i%2, want)
			}
		}
	}
	if len(acked) != killTables {
		t.Fatalf("%d tables acknowledged moves, want %d", len(acked), killTables)
	}
}
