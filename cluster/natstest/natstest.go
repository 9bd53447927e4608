// Package natstest runs a NATS server inside a test's process, for the
// tests of a cluster: no external service to install.
package natstest

import (
	"testing"
	"time"

	"github.com/nats-io/nats-server/v2/server"
)

// Start runs a NATS server with JetStream on a free port of 127.0.0.1 until
// the test ends, and returns its client URL.
func Start(tb testing.TB) string {
	tb.Helper()
	ns, err := server.NewServer(&server.Options{Host: "127.0.0.1", Port: -1, NoLog: true, NoSigs: true,
		JetStream: true, StoreDir: tb.TempDir()})
	if err != nil {
		tb.Fatal(err)
	}
	go ns.Start()
	if !ns.ReadyForConnections(10 * time.Second) {
		ns.Shutdown()
		tb.Fatal("natstest: the server did not start")
	}
	tb.Cleanup(func() {
		ns.Shutdown()
		ns.WaitForShutdown()
	})
	return ns.ClientURL()
}
