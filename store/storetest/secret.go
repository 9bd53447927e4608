package storetest

import (
	"bytes"
	"context"
	"errors"
	"sync"
	"testing"

	"tapis/store"
)

// The server's secret is made once and kept: the same at every call, after
// reopening the database (a restart), and for stores opened on it at once
// asking together (nodes of a cluster starting together); another
// database has its own. A closed store says ErrClosed.
func testSecret(t *testing.T, bk Backend) {
	ctx := context.Background()
	k := fresh(t, bk)
	s := k.open(t)
	first, err := s.Secret(ctx)
	must(t, err)
	if len(first) != store.SecretBytes || bytes.Equal(first, make([]byte, store.SecretBytes)) {
		t.Fatalf("a secret of %d bytes, or all zeros", len(first))
	}
	again, err := s.Secret(ctx)
	must(t, err)
	if !bytes.Equal(first, again) {
		t.Fatal("the secret changed between two calls")
	}
	// What the caller does with its copy changes nothing kept.
	again[0] ^= 0xff
	if kept, err := s.Secret(ctx); err != nil || !bytes.Equal(kept, first) {
		t.Fatalf("the secret after its copy was changed: %v", err)
	}
	o := bk.New(t)(t)
	other, err := o.Secret(ctx)
	must(t, o.Close())
	if err != nil || bytes.Equal(other, first) {
		t.Fatalf("another database's secret is the same (%v)", err)
	}
	if k.durable {
		// Nodes starting together: each store inserts its own
		// secret unless there is one; all read the one kept.
		const nodes = 4
		got := make([][]byte, nodes)
		errs := make([]error, nodes)
		opened := make([]store.Store, nodes)
		for i := range opened {
			opened[i] = k.open(t)
		}
		var wg sync.WaitGroup
		for i, o := range opened {
			wg.Add(1)
			go func() {
				defer wg.Done()
				got[i], errs[i] = o.Secret(ctx)
			}()
		}
		wg.Wait()
		for i, o := range opened {
			must(t, errs[i])
			if !bytes.Equal(got[i], first) {
				t.Errorf("store %d opened at once got another secret", i)
			}
			must(t, o.Close())
		}
		must(t, s.Close())
		s = k.open(t)
		if after, err := s.Secret(ctx); err != nil || !bytes.Equal(after, first) {
			t.Fatalf("the secret after reopening is another (%v)", err)
		}
	}
	must(t, s.Close())
	if b, err := s.Secret(ctx); !errors.Is(err, store.ErrClosed) || b != nil {
		t.Fatalf("Secret after Close: %v, want ErrClosed", err)
	}
}

// Two databases made at once, neither with a secret yet, each asked by
// several stores at once: each database keeps one secret, whichever store
// inserted it first, and every store of it reads that one.
func testSecretRace(t *testing.T, bk Backend) {
	ctx := context.Background()
	k := fresh(t, bk)
	if !k.durable {
		t.Skip("keeps no data shared between the stores it opens")
	}
	for round := 0; round < 3; round++ {
		open := bk.New(t)
		const nodes = 4
		opened := make([]store.Store, nodes)
		for i := range opened {
			opened[i] = open(t)
		}
		got := make([][]byte, nodes)
		errs := make([]error, nodes)
		var wg sync.WaitGroup
		for i, o := range opened {
			wg.Add(1)
			go func() {
				defer wg.Done()
				got[i], errs[i] = o.Secret(ctx)
			}()
		}
		wg.Wait()
		for i, o := range opened {
			must(t, errs[i])
			if !bytes.Equal(got[i], got[0]) {
				t.Fatalf("round %d: stores 0 and %d, asking at once, got different secrets", round, i)
			}
			must(t, o.Close())
		}
	}
}
