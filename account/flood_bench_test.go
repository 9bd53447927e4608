package account

import (
	"fmt"
	"net/http"
	"net/http/cookiejar"
	"slices"
	"sync"
	"testing"
	"time"

	"golang.org/x/time/rate"

	"tapis/limit"
	"tapis/store"
)

// BenchmarkSignInDuringClaimFlood measures issue 24's finding 1 as it was
// reported: 20 guests of one network (127.0.0.1–20) each send 30 claims at
// once, round after round, a new guest each round, while people from
// other networks (127.1.x.1) sign in one after another. It reports the
// sign-ins' p50 and p99 in milliseconds; "at rest" is without the flood,
// "queue only" with every budget off, so that only the fair queue and the
// one hash at a time per player stand between the flood and the others.
// "8 networks" is the flood the red team sent next: the 20 guests spread
// over 8 /24s (127.0.0–7.x), each round's guest on a fresh address; with
// "device cookie" each sign-in comes from a browser that signed in to
// that account before, a returning owner whose hash goes first.
//
//	go test ./account -run '^$' -bench SignInDuringClaimFlood -benchtime 200x
func BenchmarkSignInDuringClaimFlood(b *testing.B) {
	inf := limit.NewRates(rate.Inf, 1, 1)
	for _, mode := range []struct {
		name   string
		flood  bool
		nets   int
		device bool
		edit   func(*Config)
	}{
		{"at rest", false, 1, false, nil},
		{"defaults", true, 1, false, nil},
		{"queue only", true, 1, false, func(c *Config) {
			c.Guests, c.Addresses, c.Networks, c.PerPlayer, c.Accounts = inf, inf, inf, inf, inf
		}},
		{"8 networks", true, 8, false, nil},
		{"8 networks, device cookie", true, 8, true, nil},
	} {
		b.Run(mode.name, func(b *testing.B) { benchSignInDuringFlood(b, mode.flood, mode.nets, mode.device, mode.edit) })
	}
}

func benchSignInDuringFlood(b *testing.B, flood bool, nets int, device bool, edit func(*Config)) {
	h := newHarness(b, edit)
	const accounts = 50
	phc, err := Hash(secret)
	if err != nil {
		b.Fatal(err)
	}
	for i := range accounts {
		name := fmt.Sprint("user", i)
		if err := h.store.CreatePlayer(b.Context(), store.Player{ID: name, Name: name, Username: name, UsernameKey: name, Password: phc, Created: h.clock.Now()}); err != nil {
			b.Fatal(err)
		}
	}
	tr := &http.Transport{MaxIdleConnsPerHost: 1000}
	b.Cleanup(tr.CloseIdleConnections)
	browser := func(addr string) *client {
		jar, _ := cookiejar.New(nil)
		return &client{h: h, http: &http.Client{Jar: jar, Transport: tr}, jar: jar, addr: addr}
	}

	// The owners' browsers, each signed in once before the flood: their
	// device cookies.
	owners := make([]*client, accounts)
	if device {
		for i := range owners {
			owners[i] = browser(fmt.Sprintf("127.2.%d.1", i))
			if st := owners[i].send("/api/account/signin", creds(fmt.Sprint("user", i), secret)); st != http.StatusOK {
				b.Fatalf("owner %d's first sign-in: %d", i, st)
			}
		}
	}

	stop := make(chan struct{})
	var wg sync.WaitGroup
	if flood {
		const guests, claims = 20, 30
		for g := range guests {
			wg.Add(1)
			go func() {
				defer wg.Done()
				for round := 0; ; round++ {
					select {
					case <-stop:
						return
					default:
					}
					addr := fmt.Sprintf("127.0.0.%d", g+1)
					if nets > 1 {
						addr = fmt.Sprintf("127.0.%d.%d", g%nets, 1+(g/nets+3*round)%250)
					}
					c := browser(addr)
					c.send("/api/me", map[string]string{"name": "Flood"})
					var each sync.WaitGroup
					for i := range claims {
						each.Add(1)
						go func() {
							defer each.Done()
							c.send("/api/account/claim", creds(fmt.Sprintf("f%d_%d_%d", g, round, i), secret))
						}()
					}
					each.Wait()
				}
			}()
		}
		// The flood under way before the first sign-in.
		waitUntil(b, "the flood to start hashing", func() bool { return h.hashes.Load() > 20 })
	}

	took := make([]time.Duration, 0, b.N)
	b.ResetTimer()
	for i := range b.N {
		addr := fmt.Sprintf("127.1.%d.%d", i%250, 1+i/250)
		c := browser(addr)
		if device {
			c = owners[i%accounts]
			c.addr = addr
		}
		start := time.Now()
		st := c.send("/api/account/signin", creds(fmt.Sprint("user", i%accounts), secret))
		took = append(took, time.Since(start))
		if st != http.StatusOK {
			b.Fatalf("sign-in %d: %d", i, st)
		}
	}
	b.StopTimer()
	close(stop)
	wg.Wait()
	slices.Sort(took)
	q := func(p float64) float64 {
		return float64(took[min(len(took)-1, int(p*float64(len(took))))].Microseconds()) / 1000
	}
	b.ReportMetric(q(0.5), "p50-ms")
	b.ReportMetric(q(0.99), "p99-ms")
	b.ReportMetric(float64(took[len(took)-1].Microseconds())/1000, "max-ms")
	b.ReportMetric(float64(h.hashes.Load()), "hashes")
}
