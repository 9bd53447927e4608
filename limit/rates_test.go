package limit

import (
	"fmt"
	"math"
	"strconv"
	"sync"
	"testing"
	"time"

	"golang.org/x/time/rate"

	"tapis/clocktest"
)

// testRates returns a Rates on a clock the test moves.
func testRates(r rate.Limit, burst, maxKeys int) (*Rates, *clocktest.Clock) {
	c := clocktest.New(time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC))
	rs := NewRates(r, burst, maxKeys)
	rs.now = c.Now
	return rs, c
}

// held lists the keys rs holds, least recently used first, checking that
// the ring and the map agree.
func held(t *testing.T, rs *Rates) []string {
	t.Helper()
	rs.mu.Lock()
	defer rs.mu.Unlock()
	var keys []string
	for b := rs.lru.next; b != &rs.lru; b = b.next {
		if rs.keys[b.key] != b {
			t.Fatalf("key %q is in the ring but not the map", b.key)
		}
		keys = append(keys, b.key)
	}
	if len(keys) != len(rs.keys) {
		t.Fatalf("the ring holds %d keys, the map %d", len(keys), len(rs.keys))
	}
	return keys
}

func TestRatesAllow(t *testing.T) {
	// step: advance the clock, then call Allow(key) and expect ok, retry.
	type step struct {
		advance time.Duration
		key     string
		ok      bool
		retry   time.Duration
	}
	for _, tc := range []struct {
		name  string
		rate  rate.Limit
		burst int
		steps []step
	}{
		{"a burst, then one a second", 1, 3, []step{
			{0, "a", true, 0},
			{0, "a", true, 0},
			{0, "a", true, 0},
			{0, "a", false, time.Second + time.Millisecond},
			{500 * time.Millisecond, "a", false, 500*time.Millisecond + time.Millisecond},
			{500 * time.Millisecond, "a", true, 0},
			{0, "a", false, time.Second + time.Millisecond},
			// Three seconds idle refill the whole burst and no more.
			{10 * time.Second, "a", true, 0},
			{0, "a", true, 0},
			{0, "a", true, 0},
			{0, "a", false, time.Second + time.Millisecond},
		}},
		{"a refusal spends nothing", 1, 1, []step{
			{0, "a", true, 0},
			{100 * time.Millisecond, "a", false, 900*time.Millisecond + time.Millisecond},
			{100 * time.Millisecond, "a", false, 800*time.Millisecond + time.Millisecond},
			{800 * time.Millisecond, "a", true, 0},
		}},
		{"one key's flood leaves the others alone", 1, 2, []step{
			{0, "flood", true, 0},
			{0, "flood", true, 0},
			{0, "flood", false, time.Second + time.Millisecond},
			{0, "flood", false, time.Second + time.Millisecond},
			{0, "b", true, 0},
			{0, "flood", false, time.Second + time.Millisecond},
			{0, "c", true, 0},
			{0, "c", true, 0},
			{0, "b", true, 0},
			{0, "b", false, time.Second + time.Millisecond},
		}},
		{"slow rate: one a minute", rate.Every(time.Minute), 1, []step{
			{0, "a", true, 0},
			{0, "a", false, time.Minute + time.Millisecond},
			{59 * time.Second, "a", false, time.Second + time.Millisecond},
			{time.Second, "a", true, 0},
		}},
		{"unlimited", rate.Inf, 1, []step{
			{0, "a", true, 0},
			{0, "a", true, 0},
			{0, "a", true, 0},
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			rs, c := testRates(tc.rate, tc.burst, 100)
			for i, s := range tc.steps {
				c.Advance(s.advance)
				retry, ok := rs.Allow(s.key)
				if ok != s.ok || retry != s.retry {
					t.Fatalf("step %d: Allow(%q) = %v, %v; want %v, %v", i, s.key, retry, ok, s.retry, s.ok)
				}
			}
		})
	}
}

func TestRatesRetryIsEnough(t *testing.T) {
	// Whatever the rate, retrying after the delay given succeeds, and
	// not much earlier.
	for _, r := range []rate.Limit{0.01, 0.3, 1, 3, 7, 1000} {
		rs, c := testRates(r, 1, 10)
		rs.Allow("a")
		c.Advance(time.Duration(float64(time.Second) / float64(r) / 3))
		retry, ok := rs.Allow("a")
		if ok {
			t.Fatalf("rate %v: allowed too early", r)
		}
		c.Advance(retry - 2*time.Millisecond)
		if _, ok := rs.Allow("a"); ok {
			t.Errorf("rate %v: allowed 2ms before the retry given, %v", r, retry)
		}
		c.Advance(2 * time.Millisecond)
		if _, ok := rs.Allow("a"); !ok {
			t.Errorf("rate %v: refused after the retry given, %v", r, retry)
		}
	}
}

func TestRatesReserve(t *testing.T) {
	rs, c := testRates(2, 2, 10)
	// The burst goes at once; then each message waits its turn, half a
	// second apart, borrowing from the future.
	for i, want := range []time.Duration{0, 0, 500 * time.Millisecond, time.Second, 1500 * time.Millisecond} {
		if got := rs.Reserve("a"); got != want {
			t.Errorf("Reserve #%d = %v, want %v", i, got, want)
		}
	}
	// Another key is not slowed.
	if got := rs.Reserve("b"); got != 0 {
		t.Errorf("Reserve(b) = %v, want 0", got)
	}
	// Allow sees the debt: nothing until it is paid.
	if retry, ok := rs.Allow("a"); ok || retry != 2*time.Second+time.Millisecond {
		t.Errorf("Allow(a) in debt = %v, %v; want 2.001s, false", retry, ok)
	}
	// The debt keeps the key held even past the time a burst takes to
	// refill from empty (1s): forgetting it would forgive it.
	c.Advance(1500 * time.Millisecond)
	rs.Allow("b")
	if keys := held(t, rs); len(keys) != 2 {
		t.Errorf("held %q after 1.5s, want a and b", keys)
	}
	c.Advance(time.Second)
	if got := rs.Reserve("a"); got != 0 {
		t.Errorf("Reserve(a) once paid = %v, want 0", got)
	}
	if got := NewRates(rate.Inf, 1, 1).Reserve("a"); got != 0 {
		t.Errorf("unlimited Reserve = %v, want 0", got)
	}
}

func TestRatesForgetsFullBuckets(t *testing.T) {
	// One token a second, bursts of 4: an empty bucket is full after 4s.
	rs, c := testRates(1, 4, 100)
	for range 3 {
		rs.Allow("a") // 1 token left: full at 3s
	}
	c.Advance(time.Second)
	rs.Allow("b") // full at 2s
	c.Advance(time.Second)
	rs.Allow("c") // full at 3s
	// At 2s b is full, but a, used before it, is not yet: b is forgotten
	// in its turn, after a.
	if got := held(t, rs); fmt.Sprint(got) != "[a b c]" {
		t.Fatalf("at 2s held %q, want [a b c]", got)
	}
	c.Advance(time.Second)
	rs.Allow("c")
	if got := held(t, rs); fmt.Sprint(got) != "[c]" {
		t.Errorf("at 3s held %q, want [c]", got)
	}
	// A forgotten key comes back with a full bucket, as it would have had.
	for i := range 4 {
		if _, ok := rs.Allow("a"); !ok {
			t.Fatalf("a refused at its token %d after being forgotten", i+1)
		}
	}
	if _, ok := rs.Allow("a"); ok {
		t.Error("a allowed a fifth token")
	}
	// Idle long enough, everything goes.
	c.Advance(time.Hour)
	rs.Allow("z")
	if got := held(t, rs); fmt.Sprint(got) != "[z]" {
		t.Errorf("after an hour held %q, want [z]", got)
	}
}

func TestRatesCap(t *testing.T) {
	rs, c := testRates(rate.Every(time.Hour), 1, 3)
	for _, k := range []string{"a", "b", "c"} {
		rs.Allow(k)
		c.Advance(time.Second)
	}
	// Using a makes b the least recently used, so d pushes out b.
	rs.Allow("a")
	rs.Allow("d")
	if got := held(t, rs); fmt.Sprint(got) != "[c a d]" {
		t.Fatalf("held %q, want [c a d]", got)
	}
	// A flood of new keys never holds more than the cap...
	for i := range 1000 {
		rs.Allow("flood" + strconv.Itoa(i))
		if n := len(held(t, rs)); n > 3 {
			t.Fatalf("held %d keys, cap 3", n)
		}
	}
	// ...and what it costs the keys pushed out is a fresh burst, never a
	// refusal.
	if _, ok := rs.Allow("a"); !ok {
		t.Error("a, pushed out by the flood, refused")
	}
}

func TestNewRatesPanics(t *testing.T) {
	for _, tc := range []struct {
		r            rate.Limit
		burst, limit int
	}{{0, 1, 1}, {-1, 1, 1}, {1, 0, 1}, {1, 1, 0}} {
		func() {
			defer func() {
				if recover() == nil {
					t.Errorf("NewRates(%v, %d, %d) did not panic", tc.r, tc.burst, tc.limit)
				}
			}()
			NewRates(tc.r, tc.burst, tc.limit)
		}()
	}
}

func TestRetryAfter(t *testing.T) {
	for _, tc := range []struct {
		d    time.Duration
		want string
	}{
		{-time.Second, "1"},
		{0, "1"},
		{time.Millisecond, "1"},
		{time.Second, "1"},
		{time.Second + time.Millisecond, "2"},
		{59*time.Second + 999*time.Millisecond, "60"},
		{time.Hour, "3600"},
	} {
		if got := RetryAfter(tc.d); got != tc.want {
			t.Errorf("RetryAfter(%v) = %q, want %q", tc.d, got, tc.want)
		}
	}
}

func TestDuration(t *testing.T) {
	for _, tc := range []struct {
		s    float64
		want time.Duration
	}{
		{0, 0}, {-1, 0}, {1.5, 1500 * time.Millisecond},
	} {
		if got := duration(tc.s); got != tc.want {
			t.Errorf("duration(%v) = %v, want %v", tc.s, got, tc.want)
		}
	}
	// Centuries saturate rather than overflow to a negative Duration.
	for _, s := range []float64{1e10, 1e300, math.Inf(1)} {
		if got := duration(s); got < 100*365*24*time.Hour {
			t.Errorf("duration(%v) = %v, want a century or more", s, got)
		}
	}
	if got := duration(math.NaN()); got != 0 {
		t.Errorf("duration(NaN) = %v, want 0", got)
	}
}

func TestRatesConcurrent(t *testing.T) {
	// Real clock, many goroutines, a small cap: run under -race.
	rs := NewRates(1000, 5, 50)
	var wg sync.WaitGroup
	for g := range 8 {
		wg.Go(func() {
			for i := range 2000 {
				key := strconv.Itoa((g*7 + i) % 120)
				if i%3 == 0 {
					rs.Reserve(key)
				} else {
					rs.Allow(key)
				}
			}
		})
	}
	wg.Wait()
	if n := len(held(t, rs)); n > 50 {
		t.Errorf("held %d keys, cap 50", n)
	}
}

func BenchmarkRatesAllow(b *testing.B) {
	for _, n := range []int{1, 100_000} {
		b.Run(fmt.Sprintf("keys=%d", n), func(b *testing.B) {
			// A burst so large that every call is allowed, and a rate so
			// slow that no bucket fills up again (and is forgotten)
			// during the run: this measures the path of a known key.
			rs := NewRates(1, 1<<30, n)
			keys := make([]string, n)
			for i := range keys {
				keys[i] = "2001:db8:" + strconv.Itoa(i) + "::/64"
				rs.Allow(keys[i])
			}
			b.ReportAllocs()
			for i := 0; b.Loop(); i++ {
				if _, ok := rs.Allow(keys[i%n]); !ok {
					b.Fatal("refused")
				}
			}
		})
	}
}

func TestRatesAllowDoesNotAllocate(t *testing.T) {
	rs := NewRates(1, 1<<30, 10)
	rs.Allow("203.0.113.7")
	if n := testing.AllocsPerRun(1000, func() { rs.Allow("203.0.113.7") }); n != 0 {
		t.Errorf("Allow for a known key allocates %v times", n)
	}
	// Nor does a refusal.
	slow := NewRates(rate.Every(time.Hour), 1, 10)
	slow.Allow("a")
	if n := testing.AllocsPerRun(1000, func() { slow.Allow("a") }); n != 0 {
		t.Errorf("a refusal allocates %v times", n)
	}
}

func BenchmarkRatesAllowNewKeys(b *testing.B) {
	// A flood of addresses never seen, at the cap: each call makes a
	// bucket and pushes out the least recently used.
	const n = 100_000
	rs := NewRates(1, 1<<30, n)
	keys := make([]string, 4*n)
	for i := range keys {
		keys[i] = "198.51." + strconv.Itoa(i>>8) + "." + strconv.Itoa(i&255)
	}
	for i := range n {
		rs.Allow(keys[i])
	}
	b.ReportAllocs()
	for i := n; b.Loop(); i++ {
		rs.Allow(keys[i%len(keys)])
	}
}
