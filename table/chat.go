package table

import (
	"context"
	"fmt"
	"math"
	"net/http"
	"strconv"
	"time"
	"unicode/utf8"

	"tapis/account"
	"tapis/game"
	"tapis/store"
	"tapis/table/chat"
	"tapis/table/codec"
	"tapis/wire"
)

// The chat at a table (package chat says what it is): a connection's
// lines are checked and paced by its reader (screenChat), then written by
// the table's goroutine (chat), which also names spectators (hello) and
// mutes them for the host (mute).

// chatPruneEvery is how often the sweep deletes the chat of the tables
// done with for Config.ChatRetention: the delete reads every table that
// has chat, and lines a few minutes past their time harm nobody.
const chatPruneEvery = time.Hour

// pruneChat deletes, at most once every chatPruneEvery (or retention,
// if shorter), the chat of the
// tables closed or over where nobody has been seen for
// Config.ChatRetention (store.Chats.PruneChat). Every node of a cluster
// may do it: it is the same delete.
func (s *Host) pruneChat(now time.Time) {
	if s.cfg.ChatRetention < 0 || now.Sub(s.chatPruned) < min(chatPruneEvery, s.cfg.ChatRetention) {
		return
	}
	s.chatPruned = now
	ctx, cancel := s.persist()
	defer cancel()
	n, err := s.cfg.Store.PruneChat(ctx, now.Add(-s.cfg.ChatRetention))
	if err != nil {
		s.log.Error("prune the chat", "err", err)
		return
	}
	if n > 0 {
		s.log.Info("pruned the chat of tables done with", "lines", n, "retention", s.cfg.ChatRetention)
	}
}

// chatKeys are the keys of the chat budgets (Limits.ChatEvery,
// ChatNetEvery) a connection to table spends: its writer's, a signed-in
// player, else a seat, else the address of an anonymous spectator, and its
// network's. Both are per table and outlive the connection, so that a
// writer who reconnects finds their budget as they left it (issue 24: a
// pace per socket let one address store 1,651 lines a second by
// reconnecting after every 5).
func (s *Host) chatKeys(r *http.Request, table string, seat game.Seat, player string) (who, net string) {
	return chat.Keys(s.cfg.Proxies.Client(r), table, int(seat), player)
}

// chatID is what names a connection's writer for a mute: its player id,
// or its number at the table when it has none.
func chatID(c *conn) string {
	if c.player != "" {
		return c.player
	}
	return "c:" + strconv.Itoa(c.no)
}

// screenChat checks and paces a chat line in the connection's reader: it
// cleans m.Text in place and says whether to hand the line to the table,
// having told the client why not otherwise. A line refused for its pace
// is not counted against the next ones: only lines taken use the burst.
func (s *Host) screenChat(ctx context.Context, t *table, c *conn, m *clientMsg) bool {
	text := chat.Clean(m.Text)
	e := wire.Error{Type: wire.TypeError, ID: m.ID}
	switch n := utf8.RuneCountInString(text); {
	case n == 0:
		e.Code, e.Message = wire.CodeChatEmpty, "server: a chat line needs some text"
	case n > chat.Max:
		e.Code, e.Message = wire.CodeChatLong, fmt.Sprintf("server: a chat line may hold %d characters, not %d", chat.Max, n)
	default:
		d, ok := s.guard.PaceChat(c.chatWho, c.chatNet)
		if ok {
			m.Text = text
			return true
		}
		e.Code, e.RetryAfter = wire.CodeChatSlow, int(math.Ceil(d.Seconds()))
		e.Message = fmt.Sprintf("server: too many chat lines: wait %d s", e.RetryAfter)
	}
	s.cfg.Metrics.Refused(e.Code, "chat")
	b := codec.Encode(e)
	t.post(ctx, func() { t.send(c, b) })
	return false
}

// chat writes connection c's line, already cleaned and paced, to the
// store and then to everyone at the table.
func (t *table) chat(c *conn, m clientMsg) {
	name := c.name
	if c.seat >= 0 {
		name = t.seats[c.seat].Name
	}
	switch {
	case name == "":
		t.sendError(c, wire.CodeChatName, `server: say who you are first: {"type":"hello","name":"..."}`, m.ID)
		return
	case c.seat < 0 && t.talk.Muted(chatID(c)):
		t.sendError(c, wire.CodeMuted, "server: the table's host has muted you", m.ID)
		return
	}
	t.loadChat()
	l := store.Line{Table: t.id, Seat: int(c.seat), Player: c.player, Name: name, Text: m.Text,
		At: time.Now().UTC().Truncate(time.Millisecond)}
	ctx, cancel := t.srv.persist()
	defer cancel()
	no, err := t.srv.cfg.Store.AppendChat(ctx, l)
	if err != nil {
		t.srv.log.Error("chat", "table", t.id, "err", err)
		t.sendError(c, wire.CodeChatFailed, "server: the line could not be saved; try again", m.ID)
		return
	}
	l.No = no
	cl := chat.LineOf(l)
	if cl.Spectator {
		cl.From = chatID(c)
	}
	t.talk.Add(cl, c.player)
	b := codec.Encode(wire.Chat{Type: wire.TypeChat, Line: cl})
	for o := range t.conns {
		// A block between the two: the line does not pass (blocks.go).
		if !apart(c, o) {
			t.send(o, b)
		}
	}
}

// loadChat reads the last lines from the store the first time they are
// needed; a failed read is tried again the next time.
func (t *table) loadChat() {
	if t.talk.Read() {
		return
	}
	ctx, cancel := t.srv.persist()
	defer cancel()
	lines, err := t.srv.cfg.Store.Chat(ctx, t.id, chat.History)
	if err != nil {
		t.srv.log.Error("read the chat", "table", t.id, "err", err)
		return
	}
	t.talk.Fill(lines)
}

// chatHistory sends a connection that attaches the last lines, if any.
func (t *table) chatHistory(c *conn) {
	t.loadChat()
	if b := t.talk.History(c.blocks); b != nil {
		t.send(c, b)
	}
}

// hello names a spectator's connection for the chat, once.
func (t *table) hello(c *conn, m clientMsg) {
	name := account.CleanName(m.Name)
	switch {
	case c.seat >= 0:
		t.sendError(c, wire.CodeBadMessage, "server: a seat's chat lines carry its seat's name", m.ID)
	case c.player != "":
		// A signed-in spectator writes under their player's name, not
		// the one their page offers.
		t.send(c, codec.Encode(wire.Hello{Type: wire.TypeHello, Name: c.name, From: chatID(c)}))
	case c.name != "":
		t.sendError(c, wire.CodeNamed, "server: this connection has a name already", m.ID)
	case name == "":
		t.sendError(c, wire.CodeBadName, "server: a name needs a letter or a sign", m.ID)
	case t.nameTaken(name):
		// A spectator may not pass for a player (their lines are marked,
		// but a glance reads the name).
		t.sendError(c, wire.CodeNameTaken, errNameTaken.Error(), m.ID)
	default:
		c.name = name
		t.send(c, codec.Encode(wire.Hello{Type: wire.TypeHello, Name: name, From: chatID(c)}))
	}
}

// mute refuses, for the host, the lines of a spectator at the table.
func (t *table) mute(c *conn, m clientMsg) {
	if c.seat < 0 || c.seat != t.host {
		t.sendError(c, wire.CodeNotHost, "server: only the table's host may mute a spectator", m.ID)
		return
	}
	name, found := "", t.talk.Muted(m.Spectator)
	for o := range t.conns {
		if o.seat < 0 && chatID(o) == m.Spectator {
			name, found = o.name, true
		}
	}
	if !found {
		t.sendError(c, wire.CodeBadMessage, fmt.Sprintf("server: no spectator %q is at the table", m.Spectator), m.ID)
		return
	}
	t.talk.Mute(m.Spectator)
	b := codec.Encode(wire.Muted{Type: wire.TypeMuted, Spectator: m.Spectator, Name: name})
	for o := range t.conns {
		t.send(o, b)
	}
}
