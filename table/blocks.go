package table

import "context"

// Blocks at a table (issue 29): a player blocked by someone seated at a
// table cannot sit there. The refusal is silent: they are told the table
// is full, as anyone is when it is. And between two players with a block
// either way, no chat line passes, silently: each sees their own.

// seated returns the players seated at t (its goroutine's).
func (t *table) seated() []string {
	var ids []string
	for _, s := range t.seats {
		if s.Player != "" && s.Bot == "" {
			ids = append(ids, s.Player)
		}
	}
	return ids
}

// blockedJoin reports whether someone seated at t blocked player, who is
// not seated there already (a block does not take a seat back). A store
// that fails lets them in: the block is a courtesy, the store's failure
// is logged.
func (s *Host) blockedJoin(ctx context.Context, t *table, player string) bool {
	if player == "" {
		return false
	}
	var ids []string
	back := false
	if t.call(ctx, func() {
		_, back = t.seatOfPlayer(player)
		ids = t.seated()
	}) != nil || back || len(ids) == 0 {
		return false
	}
	by, err := s.cfg.Store.BlockedBy(ctx, player, ids)
	if err != nil {
		s.log.Warn("join: reading blocks", "table", t.id, "err", err)
		return false
	}
	return len(by) > 0
}

// blocksOf reads the players with a block between them and player,
// either way, for a socket about to open; a store that fails leaves the
// socket without (logged).
func (s *Host) blocksOf(ctx context.Context, player string) map[string]bool {
	if player == "" {
		return nil
	}
	ids, err := s.cfg.Store.Blocks(ctx, player)
	if err != nil {
		s.log.Warn("reading blocks", "player", player, "err", err)
	}
	if len(ids) == 0 {
		return nil
	}
	m := make(map[string]bool, len(ids))
	for _, id := range ids {
		m[id] = true
	}
	return m
}

// apart reports whether no chat line passes between a and b: a block
// between their players, either way, read when either socket opened.
func apart(a, b *conn) bool {
	return a.player != "" && b.player != "" && (a.blocks[b.player] || b.blocks[a.player])
}
