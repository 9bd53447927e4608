package main

import (
	"bytes"
	"context"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/cookiejar"
	"path/filepath"
	"regexp"
	"strings"
	"syscall"
	"testing"
	"time"

	"tapis/cluster/natstest"
	"tapis/server"
	"tapis/store/sqlite"
)

// Issue 24, finding 12: a browser that signed in holds a device cookie
// that takes it past the lock strangers' wrong guesses (10, the default)
// put on the account. tapis serve gave its server no secret, so the key
// of those cookies was random per process: a restart voided every one,
// and a node of a cluster honoured none made by another, locking the
// owner out with the strangers there. The key is the store's now.

// signIn posts ann's sign-in to base from c and returns the status.
func signIn(t *testing.T, c *http.Client, base, pw string) int {
	t.Helper()
	return postStatus(t, c, base+"/api/account/signin", map[string]string{"username": "ann", "password": pw})
}

// postStatus posts body as JSON from c and returns the status.
func postStatus(t *testing.T, c *http.Client, url string, body any) int {
	t.Helper()
	b, _ := json.Marshal(body)
	resp, err := c.Post(url, "application/json", bytes.NewReader(b))
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	return resp.StatusCode
}

// claimAnn claims ann's account on base from a new browser, signs it out,
// and returns it, holding the device cookie of the claim.
func claimAnn(t *testing.T, base, pw string) *http.Client {
	t.Helper()
	jar, _ := cookiejar.New(nil)
	c := &http.Client{Jar: jar, Timeout: time.Minute}
	for _, step := range []struct {
		path string
		body any
	}{{"/api/me", map[string]string{"name": "Ann"}}, {"/api/account/claim", map[string]string{"username": "ann", "password": pw}},
		{"/api/account/signout", map[string]bool{}}} {
		if code := postStatus(t, c, base+step.path, step.body); code != http.StatusOK {
			t.Fatalf("POST %s: status %d", step.path, code)
		}
	}
	return c
}

// ownerGetsIn has strangers guess ann's password wrong 10 times on base,
// then checks that the owner's browser signs in there.
func ownerGetsIn(t *testing.T, base string, owner *http.Client, pw string) {
	t.Helper()
	stranger := &http.Client{Timeout: time.Minute}
	for i := range 10 {
		if code := signIn(t, stranger, base, fmt.Sprint("guess ", i)); code != http.StatusUnauthorized {
			t.Fatalf("wrong guess %d: status %d", i, code)
		}
	}
	if code := signIn(t, owner, base, pw); code != http.StatusOK {
		t.Fatalf("the owner's browser, after 10 strangers' guesses: status %d, want 200", code)
	}
}

// tapis serve stopped and started again on the same SQLite file.
func TestServeKeepsDeviceCookiesOverARestart(t *testing.T) {
	if testing.Short() {
		t.Skip("starts processes")
	}
	const pw = "lovelace-1815"
	db := filepath.Join(t.TempDir(), "tapis.db")
	first, base := startServe(t, db)
	owner := claimAnn(t, base, pw)
	first.Process.Signal(syscall.SIGTERM)
	first.Wait()
	_, base = startServe(t, db)
	ownerGetsIn(t, base, owner, pw)
}

// Two nodes of a cluster on one PostgreSQL: a device cookie from one is
// honoured by the other.
func TestClusterNodesShareDeviceCookies(t *testing.T) {
	if testing.Short() {
		t.Skip("starts processes")
	}
	const pw = "lovelace-1815"
	db := postgresDB(t)
	nodes := startCluster(t, db, natstest.Start(t), 2)
	ownerGetsIn(t, nodes[1].url, claimAnn(t, nodes[0].url, pw), pw)
}

// The secret is in none of what tapis serve and tapis check say: their
// output, the server's log, /metrics.
func TestSecretIsNeverShown(t *testing.T) {
	db := filepath.Join(t.TempDir(), "tapis.db")
	ctx, cancel := context.WithCancel(context.Background())
	var out, errOut syncBuffer
	done := make(chan error, 1)
	go func() {
		done <- serve(ctx, "127.0.0.1:0", "127.0.0.1:0", db, server.Config{BotDelay: -1}, &out, &errOut)
	}()
	private := regexp.MustCompile(`Metrics on http://(127\.0\.0\.1:\d+)/metrics`)
	var met string
	for i := 0; i < 500 && met == ""; i++ {
		if m := private.FindStringSubmatch(out.String()); m != nil {
			met = m[1]
		}
		time.Sleep(10 * time.Millisecond)
	}
	if met == "" {
		cancel()
		t.Fatalf("serve said %q %q", out.String(), errOut.String())
	}
	resp, err := http.Get("http://" + met + "/metrics")
	if err != nil {
		t.Fatal(err)
	}
	var metrics bytes.Buffer
	metrics.ReadFrom(resp.Body)
	resp.Body.Close()
	cancel()
	if err := <-done; err != nil {
		t.Fatalf("serve stopped with %v", err)
	}
	var checked bytes.Buffer
	if n := check(context.Background(), db, &checked); n != 0 {
		t.Fatalf("tapis check: %s", checked.String())
	}
	st, err := sqlite.Open(db)
	if err != nil {
		t.Fatal(err)
	}
	secret, err := st.Secret(context.Background())
	st.Close()
	if err != nil {
		t.Fatal(err)
	}
	said := out.String() + errOut.String() + metrics.String() + checked.String()
	for _, form := range []string{string(secret), hex.EncodeToString(secret), strings.ToUpper(hex.EncodeToString(secret)),
		base64.StdEncoding.EncodeToString(secret), base64.RawURLEncoding.EncodeToString(secret), fmt.Sprint(secret)} {
		if strings.Contains(said, form) {
			t.Fatalf("the secret is shown, as %q", form)
		}
	}
}
