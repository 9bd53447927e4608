package notify_test

import (
	"bufio"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"tapis/clocktest"
	"tapis/notify"
	"tapis/store"
	"tapis/store/sqlite"
)

// childEnv makes the test binary a sender that is killed mid-send
// (TestKilledSender); its value is the SQLite file and where to stop,
// "claimed" (before the send) or "sent" (after it, before marking it),
// or "digest" (inside a digest's send, TestKilledDigest).
const childEnv = "TAPIS_NOTIFY_CHILD"

// childClock is the child's time: the parent's starts there too, and
// moves past the child's claims.
var childClock = time.Unix(2_000_000, 0)

func TestMain(m *testing.M) {
	if v := os.Getenv(childEnv); v != "" {
		path, stop, _ := strings.Cut(v, ",")
		os.Exit(child(path, stop))
	}
	os.Exit(m.Run())
}

// stopper is the child's sender: it says what it got on stdout, and then
// hangs until the parent kills it, before its send ("claimed") or after
// it ("sent": it says so first).
type stopper struct{ stop string }

func (s stopper) Send(_ context.Context, d store.Delivery) error {
	if s.stop == "sent" {
		fmt.Printf("sent %s\n", d.ID)
	}
	fmt.Printf("claimed %s\n", d.ID)
	select {}
}

// child runs one step of a sender on path, which never returns: the
// parent kills the process with SIGKILL while it is inside its send.
func child(path, stop string) int {
	st, err := sqlite.Open(path)
	if err != nil {
		fmt.Println("error", err)
		return 1
	}
	if stop == "digest" {
		svc := notify.New(notify.Config{Store: st, Senders: map[string]notify.Sender{store.ChannelEmail: hangingDigest{}},
			Now: func() time.Time { return childClock }, Claim: time.Minute})
		svc.StepDigest(context.Background())
		fmt.Println("error: no digest to send")
		return 1
	}
	svc := notify.New(notify.Config{Store: st, Senders: map[string]notify.Sender{store.ChannelEmail: stopper{stop}},
		Now: func() time.Time { return childClock }, Claim: time.Minute})
	svc.Step(context.Background())
	fmt.Println("error: nothing to send")
	return 1
}

// killChild runs the child on path, stopping at stop, reads its output
// until a line starting with prefix, kills it (SIGKILL) and returns the
// rest of that line.
func killChild(t *testing.T, path, stop, prefix string) string {
	t.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), childEnv+"="+path+","+stop)
	out, err := cmd.StdoutPipe()
	must(t, err)
	cmd.Stderr = os.Stderr
	must(t, cmd.Start())
	lines := bufio.NewScanner(out)
	var got string
	for lines.Scan() {
		if l := lines.Text(); strings.HasPrefix(l, prefix) {
			got = strings.TrimPrefix(l, prefix)
			break
		} else if strings.HasPrefix(l, "error") {
			t.Fatal(l)
		}
	}
	must(t, cmd.Process.Kill())
	cmd.Wait()
	if got == "" {
		t.Fatalf("the child said no %q", prefix)
	}
	return got
}

// A process killed (SIGKILL) between claiming a delivery and sending it,
// or between sending it and marking it sent, leaves it to be sent after
// a restart once its claim ends: exactly once in the first case; in the
// second, again under the same idempotency key, which the other end
// recognises, so that the player gets it once.
func TestKilledSender(t *testing.T) {
	for _, stop := range []string{"claimed", "sent"} {
		t.Run(stop, func(t *testing.T) {
			ctx := context.Background()
			path := filepath.Join(t.TempDir(), "tapis.db")
			st, err := sqlite.Open(path)
			must(t, err)
			must(t, st.SetNotifyPref(ctx, "ann", store.Pref{Kind: store.KindFriendRequest, Channel: store.ChannelEmail, On: true}))
			writer := notify.New(notify.Config{Store: st, Senders: map[string]notify.Sender{store.ChannelEmail: newSink()},
				Now: func() time.Time { return childClock }})
			must(t, writer.Notify(ctx, "ann", store.KindFriendRequest, map[string]string{"player": "bob"}))
			must(t, st.Close())

			id := killChild(t, path, stop, "claimed ")
			other := newSink()
			if stop == "sent" {
				// The other end got it before the kill.
				other.keys[id] = 1
			}

			// The restart: the claim holds until it ends.
			st, err = sqlite.Open(path)
			must(t, err)
			defer st.Close()
			clk := clocktest.New(childClock)
			svc := notify.New(notify.Config{Store: st, Senders: map[string]notify.Sender{store.ChannelEmail: other}, Now: clk.Now})
			if n := svc.Step(ctx); n != 0 {
				t.Fatalf("claimed %d while the dead process's claim lasts", n)
			}
			clk.Advance(time.Minute)
			if n := svc.Step(ctx); n != 1 {
				t.Fatalf("claimed %d once the claim ended, want 1", n)
			}
			clk.Advance(time.Hour)
			if n := svc.Step(ctx); n != 0 {
				t.Fatalf("claimed %d after it was sent", n)
			}
			sends, _ := other.count()
			if sends != 1 || other.sends[0].ID != id || other.sends[0].Attempts != 2 {
				t.Fatalf("%d sends after the restart (%+v), want 1 of %s", sends, other.sends, id)
			}
			if got := other.keys[id]; stop == "claimed" && got != 1 || stop == "sent" && got != 2 {
				t.Fatalf("key %s seen %d times", id, got)
			}
		})
	}
}
