package think

// Spare runs work in a place of the pool only if one is free at once, and
// reports false without running it otherwise: for low-priority work (the
// post-game analysis, package analysis) that must never keep a bot's
// search waiting in line. A search asking while the work runs waits for
// it at most: the work is kept short (one decision of a match) and it
// yields often.
func (p *Pool) Spare(work func()) bool {
	select {
	case p.slots <- struct{}{}:
	default:
		return false
	}
	defer func() { <-p.slots }()
	p.run(work)
	return true
}
