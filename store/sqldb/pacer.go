package sqldb

import "time"

// How a batching writer lingers for more writes before a commit (see
// Pacer): SQLite's writer, PostgreSQL's batcher of moves.
const (
	// LingerFor is how long: about what a few more writes take to
	// arrive from a thousand tables each moving twice a second.
	LingerFor = 2 * time.Millisecond
	// lingerBelow is the batch size at which it need not: the writes
	// already pile up while a commit runs.
	lingerBelow = 16
	// lingerProbe is how often it tries again once lingering stopped
	// paying: a lone caller's sequential writes lose LingerFor once
	// per lingerProbe, about 2%.
	lingerProbe = 100 * time.Millisecond
)

// Pacer decides whether a writer waits a little for more writes before
// committing a batch. A commit's cost is mostly per transaction (WAL
// frames, locks, begin and commit), so at a steady 2,000 moves/s a batch
// of one move costs several times what it costs in a batch of five. But
// waiting only pays when writes come from callers that do not wait for
// this batch: a caller that writes again once answered (a lone table
// playing fast) would only be slowed. The pacer cannot tell callers
// apart; it learns from what lingering gained: it lingers while that was
// on average at least half a write, and once it was not, tries again only
// every lingerProbe.
type Pacer struct {
	gain  float64   // moving average of the writes a linger gained
	probe time.Time // when to try lingering again, while gain is low
}

// Linger reports whether a batch of n writes, taken at now, should wait
// for more.
func (p *Pacer) Linger(n int, now time.Time) bool {
	return n < lingerBelow && (p.gain >= 0.5 || !now.Before(p.probe))
}

// Gained records that a linger ending at now gained n writes.
func (p *Pacer) Gained(n int, now time.Time) {
	p.gain = (p.gain + float64(n)) / 2
	if p.gain < 0.5 {
		p.probe = now.Add(lingerProbe)
	}
}
