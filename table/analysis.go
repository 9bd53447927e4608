package table

// Post-game analysis (package analysis) runs in this host's bot pool, in
// a place no bot waits for (Spare), and hears of each match a person
// played to its end (matchOver).

// Spare runs search in the host's bot pool if a place is free at once,
// and reports false otherwise (think.Pool's Spare).
func (s *Host) Spare(search func()) bool { return s.thinkers.Spare(search) }

// matchOver tells Config.MatchOver of the match just ended, if a person
// sat at the table: bots' matches are nobody's to study.
func (t *table) matchOver() {
	if t.srv.cfg.MatchOver == nil || t.tut != nil {
		return
	}
	for _, s := range t.seats {
		if s.Bot == "" {
			t.srv.cfg.MatchOver(t.id, t.match)
			return
		}
	}
}
