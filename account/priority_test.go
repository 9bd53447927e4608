package account

import (
	"encoding/base64"
	"fmt"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"sync"
	"testing"

	"tapis/limit"
)

// Finding 1 of issue 24: claims and sign-ins from 8 /24 networks at once
// (a fresh guest on a fresh address each round) pushed another network's
// sign-ins to p50 1.0 s, p99 3.49 s (44 ms at rest): with N networks
// flooding, a newcomer waits about N/slots hashes, and networks are cheap.
// Now a sign-in from a browser carrying a valid device cookie for the
// account, its returning owner, is the next hash served however many
// networks wait; a sign-in with a forged device cookie waits its turn
// after one hash of each network that was waiting before it.
func TestOwnersSignInWithDeviceCookieGoesBeforeAFloodOfManyNetworks(t *testing.T) {
	h := newHarness(t, nil)
	h.svc.hasher.slots = limit.NewFair(1, DefaultQueue) // one slot: the turns are the order of the hashes
	owner := h.client("127.0.1.5")
	owner.guest("Owner")
	owner.post("/api/account/claim", creds("owner", secret), http.StatusOK)
	const ownerNet, strangerNet = "127.0.1.0/24", "127.0.2.0/24"
	u, _ := url.Parse(h.srv.URL + "/api/account/")
	device := ""
	for _, k := range owner.jar.Cookies(u) {
		if k.Name == DeviceCookie {
			device = k.Value
		}
	}
	if device == "" {
		t.Fatal("the claim gave the owner's browser no device cookie")
	}

	var mu sync.Mutex
	var order []string // the network of each hash, in the order they ran
	gate := make(chan struct{})
	var open sync.Once
	release := func() { open.Do(func() { close(gate) }) }
	t.Cleanup(release) // before the server's Close, which waits for the held requests
	h.hold = func(network string) {
		mu.Lock()
		order = append(order, network)
		mu.Unlock()
		<-gate
	}
	ran := func() []string {
		mu.Lock()
		defer mu.Unlock()
		return slices.Clone(order)
	}
	queued := func(nets ...string) int {
		n := 0
		for _, net := range nets {
			n += h.svc.hasher.slots.Queued(net)
		}
		return n
	}

	// The flood: guests claiming from several networks, the first of
	// them holding the only slot, the others queued in turn.
	const floodNets, perNet = 4, 2
	var nets []string
	var wg sync.WaitGroup
	statuses := make(chan int, floodNets*perNet+2)
	claim := func(n, g int) {
		c := h.client(fmt.Sprintf("127.0.%d.%d", 10+n, g+1))
		c.guest(fmt.Sprint("Flood ", n, " ", g))
		wg.Add(1)
		go func() {
			defer wg.Done()
			statuses <- c.send("/api/account/claim", creds(fmt.Sprintf("flood%d_%d", n, g), secret))
		}()
	}
	for n := range floodNets {
		nets = append(nets, fmt.Sprintf("127.0.%d.0/24", 10+n))
	}
	claim(0, 0)
	waitUntil(t, "the flood's first hash to hold the slot", func() bool { return len(ran()) == 1 })
	for n := range floodNets {
		for g := range perNet {
			if n == 0 && g == 0 {
				continue
			}
			claim(n, g)
		}
	}
	waitUntil(t, "the flood to queue", func() bool { return queued(nets...) == floodNets*perNet-1 })

	// A stranger signing in to the owner's account with a forged device
	// cookie (the owner's device id, a made-up signature), then the owner
	// from their own browser.
	stranger := h.client("127.0.2.9")
	id, _, _ := strings.Cut(device, ".")
	stranger.jar.SetCookies(u, []*http.Cookie{{Name: DeviceCookie, Value: id + "." + base64.RawURLEncoding.EncodeToString(make([]byte, deviceMACBytes)), Path: "/api/account/"}})
	wg.Add(2)
	go func() {
		defer wg.Done()
		statuses <- stranger.send("/api/account/signin", creds("owner", "wrong password"))
	}()
	waitUntil(t, "the stranger's sign-in to queue", func() bool { return queued(strangerNet) == 1 })
	in := make(chan int, 1)
	go func() {
		defer wg.Done()
		in <- owner.send("/api/account/signin", creds("owner", secret))
	}()
	waitUntil(t, "the owner's sign-in to queue", func() bool { return queued(ownerNet) == 1 })

	release()
	if st := <-in; st != http.StatusOK {
		t.Fatalf("the owner's sign-in during the flood: %d", st)
	}
	wg.Wait()
	close(statuses)
	for st := range statuses {
		if st != http.StatusOK && st != http.StatusUnauthorized {
			t.Fatalf("a flood claim or the stranger's sign-in answered %d", st)
		}
	}
	got := ran()
	t.Logf("hashes in order: %v", got)
	if at := slices.Index(got, ownerNet); at != 1 {
		t.Fatalf("the owner's sign-in was hashed %dth, want 2nd: the next after the one holding the slot", at+1)
	}
	if at := slices.Index(got, strangerNet); at != 2+floodNets {
		t.Fatalf("the stranger's sign-in (forged device cookie) was hashed %dth, want %dth: after one hash of each of the %d networks that waited before it", at+1, 3+floodNets, floodNets)
	}
}
