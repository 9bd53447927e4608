package table

import (
	"context"
	"fmt"
	"math"
	"net/http"
	"strconv"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"golang.org/x/text/unicode/norm"

	"tapis/account"
	"tapis/game"
	"tapis/limit"
	"tapis/store"
	"tapis/table/codec"
	"tapis/wire"
)

// The chat at a table: its players and its spectators write plain lines,
// which the store keeps with the table (store.Chats) and every connection
// of the table is sent. A connection's lines are paced by its reader
// (screenChat), before the table's goroutine sees them, so that a flood
// costs the flooder's reader only; the table writes the lines it is handed
// in the order it takes them, which is the order everyone sees. The pace
// is its writer's and its network's at the table (chatKeys), not the
// connection's.
//
// A seat writes under its seat's name; a signed-in spectator under their
// player's; another spectator under the name it gives once ("hello").
// The host may mute a spectator: this node refuses that spectator's lines
// for the rest of the table's life in its memory (a restart, or the table
// put to sleep when nobody is there, forgets it). A spectator is known by
// its player id, or, without one, by its connection: one who reconnects
// anonymously is a new spectator.

const (
	// chatMax is the longest line, in characters (code points), not
	// bytes, as for names.
	chatMax = 500
	// chatHistory is how many of the last lines a connection is sent when
	// it attaches.
	chatHistory = 50
)

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

// chatRoom is what a table's goroutine keeps of its chat.
type chatRoom struct {
	// lines are the last chatHistory lines, once read from the store
	// (read); enc is their chat_history message, encoded once for every
	// connection that attaches until the next line.
	lines []wire.ChatLine
	read  bool
	enc   []byte
	// muted holds the spectators the host muted, by chatID.
	muted map[string]bool
	// conns counts the connections attached so far, to number them.
	conns int
}

// chatKeys are the keys of the chat budgets (Limits.ChatEvery,
// ChatNetEvery) a connection to table spends: its writer's, a signed-in
// player, else a seat, else the address of an anonymous spectator, and its
// network's. Both are per table and outlive the connection, so that a
// writer who reconnects finds their budget as they left it (issue 24: a
// pace per socket let one address store 1,651 lines a second by
// reconnecting after every 5).
func (s *Host) chatKeys(r *http.Request, table string, seat game.Seat, player string) (who, net string) {
	addr := s.cfg.Proxies.Client(r)
	switch {
	case player != "":
		who = "p:" + player
	case seat >= 0:
		who = "s:" + strconv.Itoa(int(seat))
	default:
		who = "a:" + limit.Key(addr)
	}
	return table + " " + who, table + " " + limit.Network(addr)
}

// chatID is what names a connection's writer for a mute: its player id,
// or its number at the table when it has none.
func chatID(c *conn) string {
	if c.player != "" {
		return c.player
	}
	return "c:" + strconv.Itoa(c.no)
}

// cleanChat makes a line plain text: valid UTF-8 in NFC, every line
// break and tab a space (a line is one line), no control or format
// characters (a right-to-left override would turn the lines after it
// round; a zero-width space would hide words), trimmed. The joiners of
// emoji sequences and scripts that need them, and the tags of flags, stay.
func cleanChat(text string) string {
	text = strings.Map(func(r rune) rune {
		switch {
		case r == '\u200c' || r == '\u200d' || (r >= 0xE0020 && r <= 0xE007F):
			return r
		case unicode.IsSpace(r):
			return ' '
		case unicode.In(r, unicode.Cc, unicode.Cf, unicode.Cs) || r == utf8.RuneError:
			return -1
		}
		return r
	}, strings.ToValidUTF8(text, ""))
	return strings.TrimSpace(norm.NFC.String(text))
}

// screenChat checks and paces a chat line in the connection's reader: it
// cleans m.Text in place and says whether to hand the line to the table,
// having told the client why not otherwise. A line refused for its pace
// is not counted against the next ones: only lines taken use the burst.
func (s *Host) screenChat(ctx context.Context, t *table, c *conn, m *clientMsg) bool {
	text := cleanChat(m.Text)
	e := wire.Error{Type: wire.TypeError, ID: m.ID}
	switch n := utf8.RuneCountInString(text); {
	case n == 0:
		e.Code, e.Message = wire.CodeChatEmpty, "server: a chat line needs some text"
	case n > chatMax:
		e.Code, e.Message = wire.CodeChatLong, fmt.Sprintf("server: a chat line may hold %d characters, not %d", chatMax, n)
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
	case c.seat < 0 && t.talk.muted[chatID(c)]:
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
	cl := lineOf(l)
	if cl.Spectator {
		cl.From = chatID(c)
	}
	if t.talk.read {
		t.talk.lines = append(t.talk.lines, cl)
		if n := len(t.talk.lines); n > chatHistory {
			t.talk.lines = append(t.talk.lines[:0], t.talk.lines[n-chatHistory:]...)
		}
		t.talk.enc = nil
	}
	b := codec.Encode(wire.Chat{Type: wire.TypeChat, Line: cl})
	for o := range t.conns {
		t.send(o, b)
	}
}

// lineOf is a stored line as the protocol shows it.
func lineOf(l store.Line) wire.ChatLine {
	cl := wire.ChatLine{No: l.No, Seat: l.Seat, Name: l.Name, Text: l.Text, At: l.At, Spectator: l.Seat < 0}
	if cl.Spectator {
		cl.From = l.Player
	}
	return cl
}

// loadChat reads the last lines from the store the first time they are
// needed; a failed read is tried again the next time.
func (t *table) loadChat() {
	if t.talk.read {
		return
	}
	ctx, cancel := t.srv.persist()
	defer cancel()
	lines, err := t.srv.cfg.Store.Chat(ctx, t.id, chatHistory)
	if err != nil {
		t.srv.log.Error("read the chat", "table", t.id, "err", err)
		return
	}
	t.talk.lines = make([]wire.ChatLine, 0, len(lines))
	for _, l := range lines {
		t.talk.lines = append(t.talk.lines, lineOf(l))
	}
	t.talk.read, t.talk.enc = true, nil
}

// chatHistory sends a connection that attaches the last lines, if any.
func (t *table) chatHistory(c *conn) {
	t.loadChat()
	if len(t.talk.lines) == 0 {
		return
	}
	if t.talk.enc == nil {
		t.talk.enc = codec.Encode(wire.ChatHistory{Type: wire.TypeChatHistory, Lines: t.talk.lines})
	}
	t.send(c, t.talk.enc)
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
	name, found := "", t.talk.muted[m.Spectator]
	for o := range t.conns {
		if o.seat < 0 && chatID(o) == m.Spectator {
			name, found = o.name, true
		}
	}
	if !found {
		t.sendError(c, wire.CodeBadMessage, fmt.Sprintf("server: no spectator %q is at the table", m.Spectator), m.ID)
		return
	}
	if t.talk.muted == nil {
		t.talk.muted = map[string]bool{}
	}
	t.talk.muted[m.Spectator] = true
	b := codec.Encode(wire.Muted{Type: wire.TypeMuted, Spectator: m.Spectator, Name: name})
	for o := range t.conns {
		t.send(o, b)
	}
}
