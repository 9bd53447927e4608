package clocktest

import (
	"sync"
	"testing"
	"time"
)

func TestAdvance(t *testing.T) {
	start := time.Date(2026, 11, 27, 12, 0, 0, 0, time.UTC)
	c := New(start)
	if !c.Now().Equal(start) {
		t.Fatalf("a new clock reads %v, want %v", c.Now(), start)
	}
	var wg sync.WaitGroup
	for range 10 {
		wg.Add(1)
		go func() { defer wg.Done(); c.Advance(time.Second); _ = c.Now() }()
	}
	wg.Wait()
	if want := start.Add(10 * time.Second); !c.Now().Equal(want) {
		t.Fatalf("after ten seconds moved at once the clock reads %v, want %v", c.Now(), want)
	}
}
