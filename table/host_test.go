package table

import (
	"context"
	"io"
	"log/slog"
	"net/http"
	"testing"
	"time"

	"tapis/limit"
)

// openGuard spends no limit: the guard of a host under test, as package
// server's is with every limit off.
type openGuard struct{}

func (openGuard) Client(r *http.Request) string                       { return limit.Key(limit.Proxies{}.Client(r)) }
func (openGuard) AllowCreate(http.ResponseWriter, *http.Request) bool { return true }
func (openGuard) AllowJoin(http.ResponseWriter, *http.Request) bool   { return true }
func (openGuard) HoldTable(http.ResponseWriter, string) (func(), bool) {
	return nothing, true
}
func (openGuard) HoldWaiting(string) (func(), string)                         { return nothing, "" }
func (openGuard) RefuseWaiting(http.ResponseWriter, string)                   {}
func (openGuard) HoldConn(http.ResponseWriter, *http.Request) (func(), bool)  { return nothing, true }
func (openGuard) PaceConnect(http.ResponseWriter, *http.Request, string) bool { return true }
func (openGuard) PaceChat(string, string) (time.Duration, bool)               { return 0, true }

// testHost starts a host on cfg, with no limits and no log unless cfg
// says, and returns it with its routes; it stops with the test.
func testHost(t testing.TB, cfg Config) (*Host, http.Handler) {
	ctx, cancel := context.WithCancel(context.Background())
	if cfg.Guard == nil {
		cfg.Guard = openGuard{}
	}
	if cfg.Logger == nil {
		cfg.Logger = slog.New(slog.NewTextHandler(io.Discard, nil))
	}
	s, err := New(ctx, cfg)
	if err != nil {
		cancel()
		t.Fatal(err)
	}
	m := http.NewServeMux()
	s.Routes(m)
	if err := s.Start(nil, m); err != nil {
		cancel()
		t.Fatal(err)
	}
	t.Cleanup(func() { cancel(); s.Wait() })
	return s, m
}
