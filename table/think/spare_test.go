package think

import (
	"context"
	"testing"
)

// Spare never waits for a place: with every place taken by a search it
// runs nothing and says so; with one free it runs its work there.
func TestSpare(t *testing.T) {
	p := NewPool(1, nil, nil)
	holding, release, done := make(chan struct{}), make(chan struct{}), make(chan struct{})
	go func() {
		p.Think(context.Background(), func() { close(holding); <-release })
		close(done)
	}()
	<-holding
	ran := false
	if p.Spare(func() { ran = true }) || ran {
		t.Fatal("Spare ran in a full pool")
	}
	close(release)
	<-done
	if !p.Spare(func() { ran = true }) || !ran {
		t.Fatal("Spare did not run in a free pool")
	}
}
