// Package chat is what the chat at a table is made of. Its players and
// its spectators write plain lines, which the store keeps with the table
// (store.Chats) and every connection of the table is sent. A connection's
// lines are paced by its reader (package table's screenChat), before the
// table's goroutine sees them, so that a flood costs the flooder's reader
// only; the table writes the lines it is handed in the order it takes
// them, which is the order everyone sees. The pace is its writer's and
// its network's at the table (Keys), not the connection's.
//
// A seat writes under its seat's name; a signed-in spectator under their
// player's; another spectator under the name it gives once ("hello").
// The host may mute a spectator: this node refuses that spectator's lines
// for the rest of the table's life in its memory (a restart, or the table
// put to sleep when nobody is there, forgets it). A spectator is known by
// its player id, or, without one, by its connection: one who reconnects
// anonymously is a new spectator.
package chat

import (
	"net/netip"
	"slices"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"golang.org/x/text/unicode/norm"

	"tapis/limit"
	"tapis/store"
	"tapis/table/codec"
	"tapis/wire"
)

const (
	// Max is the longest line, in characters (code points), not bytes,
	// as for names.
	Max = 500
	// History is how many of the last lines a connection is sent when it
	// attaches.
	History = 50
)

// Keys are the keys of the chat budgets (Limits.ChatEvery, ChatNetEvery)
// a connection to table spends, from addr: its writer's, a signed-in
// player, else a seat, else the address of an anonymous spectator, and its
// network's. Both are per table and outlive the connection, so that a
// writer who reconnects finds their budget as they left it (issue 24: a
// pace per socket let one address store 1,651 lines a second by
// reconnecting after every 5).
func Keys(addr netip.Addr, table string, seat int, player string) (who, net string) {
	switch {
	case player != "":
		who = "p:" + player
	case seat >= 0:
		who = "s:" + strconv.Itoa(seat)
	default:
		who = "a:" + limit.Key(addr)
	}
	return table + " " + who, table + " " + limit.Network(addr)
}

// Clean makes a line plain text: valid UTF-8 in NFC, every line
// break and tab a space (a line is one line), no control or format
// characters (a right-to-left override would turn the lines after it
// round; a zero-width space would hide words), trimmed. The joiners of
// emoji sequences and scripts that need them, and the tags of flags, stay.
func Clean(text string) string {
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

// LineOf is a stored line as the protocol shows it.
func LineOf(l store.Line) wire.ChatLine {
	cl := wire.ChatLine{No: l.No, Seat: l.Seat, Name: l.Name, Text: l.Text, At: l.At, Spectator: l.Seat < 0}
	if cl.Spectator {
		cl.From = l.Player
	}
	return cl
}

// Room is what a table's goroutine keeps of its chat.
type Room struct {
	// lines are the last History lines, once read from the store
	// (read); enc is their chat_history message, encoded once for every
	// connection that attaches until the next line.
	lines []wire.ChatLine
	// from is the player who wrote each line ("" for none), for the
	// blocks (History).
	from []string
	read bool
	enc  []byte
	// muted holds the spectators the host muted, by their writer's id.
	muted map[string]bool
	// conns counts the connections attached so far, to number them.
	conns int
}

// Read reports whether the last lines have been read from the store
// (Fill).
func (r *Room) Read() bool { return r.read }

// Fill keeps lines, the last ones the store holds.
func (r *Room) Fill(lines []store.Line) {
	r.lines = make([]wire.ChatLine, 0, len(lines))
	r.from = make([]string, 0, len(lines))
	for _, l := range lines {
		r.lines = append(r.lines, LineOf(l))
		r.from = append(r.from, l.Player)
	}
	r.read, r.enc = true, nil
}

// Add keeps a line just written by player ("" for none), once the last
// ones are read.
func (r *Room) Add(cl wire.ChatLine, player string) {
	if !r.read {
		return
	}
	r.lines = append(r.lines, cl)
	r.from = append(r.from, player)
	if n := len(r.lines); n > History {
		r.lines = append(r.lines[:0], r.lines[n-History:]...)
		r.from = append(r.from[:0], r.from[n-History:]...)
	}
	r.enc = nil
}

// History is the chat_history message of the last lines but those
// written by a player in without (a block between them and the reader),
// or nil if there are none.
func (r *Room) History(without map[string]bool) []byte {
	lines := r.lines
	if len(without) > 0 && slices.ContainsFunc(r.from, func(p string) bool { return without[p] }) {
		lines = nil
		for i, l := range r.lines {
			if !without[r.from[i]] {
				lines = append(lines, l)
			}
		}
		if len(lines) == 0 {
			return nil
		}
		return codec.Encode(wire.ChatHistory{Type: wire.TypeChatHistory, Lines: lines})
	}
	if len(lines) == 0 {
		return nil
	}
	if r.enc == nil {
		r.enc = codec.Encode(wire.ChatHistory{Type: wire.TypeChatHistory, Lines: r.lines})
	}
	return r.enc
}

// Muted reports whether the host muted the writer of id.
func (r *Room) Muted(id string) bool { return r.muted[id] }

// Mute mutes the writer of id for the room's life.
func (r *Room) Mute(id string) {
	if r.muted == nil {
		r.muted = map[string]bool{}
	}
	r.muted[id] = true
}

// Number counts a connection attached to the table, and returns its
// number there (1 for the first).
func (r *Room) Number() int {
	r.conns++
	return r.conns
}
