package limit

import (
	"strconv"
	"sync"
	"testing"
)

func TestCounts(t *testing.T) {
	// op: acquire key (want ok) or, with release >= 0, call the release
	// of the op at that index.
	type op struct {
		key     string
		ok      bool
		release int
	}
	acq := func(key string, ok bool) op { return op{key, ok, -1} }
	rel := func(i int) op { return op{release: i} }
	for _, tc := range []struct {
		name          string
		perKey, total int
		ops           []op
		want          map[string]int
	}{
		{"per key", 2, 0, []op{acq("a", true), acq("a", true), acq("a", false), acq("b", true)}, map[string]int{"a": 2, "b": 1}},
		{"release makes room", 1, 0, []op{acq("a", true), acq("a", false), rel(0), acq("a", true)}, map[string]int{"a": 1}},
		{"release is idempotent", 2, 0, []op{acq("a", true), acq("a", true), rel(0), rel(0), rel(0)}, map[string]int{"a": 1}},
		{"a refusal's release does nothing", 1, 0, []op{acq("a", true), acq("a", false), rel(1), rel(1)}, map[string]int{"a": 1}},
		{"total", 2, 3, []op{acq("a", true), acq("a", true), acq("b", true), acq("c", false), rel(0), acq("c", true), acq("a", false)}, map[string]int{"a": 1, "b": 1, "c": 1}},
		{"unbounded", 0, 0, []op{acq("a", true), acq("a", true), acq("a", true)}, map[string]int{"a": 3}},
		{"all released", 3, 3, []op{acq("a", true), acq("b", true), rel(1), rel(0)}, map[string]int{}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c := NewCounts(tc.perKey, tc.total)
			var releases []func()
			for i, o := range tc.ops {
				if o.release >= 0 {
					releases[o.release]()
					releases = append(releases, nil)
					continue
				}
				release, ok := c.Acquire(o.key)
				if ok != o.ok {
					t.Fatalf("op %d: Acquire(%q) = %v, want %v", i, o.key, ok, o.ok)
				}
				if release == nil {
					t.Fatalf("op %d: Acquire(%q) returned a nil release", i, o.key)
				}
				releases = append(releases, release)
			}
			for key, n := range tc.want {
				if got := c.Count(key); got != n {
					t.Errorf("Count(%q) = %d, want %d", key, got, n)
				}
			}
			// Keys at zero are forgotten, and the total is the sum.
			sum := 0
			for key, n := range c.n {
				if n <= 0 || tc.want[key] != n {
					t.Errorf("holds %q: %d, want %d", key, n, tc.want[key])
				}
				sum += n
			}
			if sum != c.sum {
				t.Errorf("total %d, keys add up to %d", c.sum, sum)
			}
		})
	}
}

func TestCountsConcurrent(t *testing.T) {
	// Run under -race: everything acquired is released, twice over, from
	// other goroutines; nothing is left and no bound was ever passed.
	c := NewCounts(3, 20)
	var wg sync.WaitGroup
	for g := range 8 {
		wg.Go(func() {
			for i := range 1000 {
				key := strconv.Itoa((g + i) % 10)
				release, ok := c.Acquire(key)
				if n := c.Count(key); n > 3 {
					t.Errorf("key %s holds %d, bound 3", key, n)
				}
				if ok {
					var both sync.WaitGroup
					both.Go(release)
					both.Go(release)
					both.Wait()
				}
			}
		})
	}
	wg.Wait()
	if len(c.n) != 0 || c.sum != 0 {
		t.Errorf("left %v, total %d", c.n, c.sum)
	}
}
