package table

// Post-game analysis (package analysis) runs in this host's bot pool, in
// a place no bot waits for (Spare). A match is analysed when someone asks
// for its analysis, not as it ends: an analysis costs seconds of CPU
// (every decision searched again), which, for every match played, more
// than doubled a move's cost under load (peer-server: 463 µs a move
// against 195 µs).

// Spare runs search in the host's bot pool if a place is free at once,
// and reports false otherwise (think.Pool's Spare).
func (s *Host) Spare(search func()) bool { return s.thinkers.Spare(search) }
