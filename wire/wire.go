// Package wire is Tapis's WebSocket protocol: the messages a table's
// socket (GET /api/tables/{id}/ws) carries each way, their fields, and the
// error codes. The table host (package table) writes them and package client
// reads them, so this file and its neighbours are the protocol's reference,
// which docs/API.md summarises for clients in other languages.
//
// Every message is one JSON object with a "type". A client sends
// ClientMessage values; the server sends Welcome once, then TableUpdate, State,
// Watchers, ChatHistory, StandinMoves, Chat, Hello, Muted, Error and Pong.
//
// The messages that carry a game's own JSON (a view, events) take it as a
// type parameter P: the server writes them with the engine's values (any),
// a client reads them as json.RawMessage, to decode with the game's shape.
//
// A client must answer the server's WebSocket pings (browsers and
// WebSocket libraries do it by themselves while the socket is read): a
// connection that neither sends anything nor answers a ping for the
// server's presence time (40 s) is taken as gone, and its seat as away.
// TypePing is still answered, but not needed.
//
// The package depends on nothing else of Tapis, so that a client needs
// only it: seats are plain ints (-1 for a spectator, as game.Spectator).
package wire

import "encoding/json"

// Spectator is the seat of a connection that watches: a welcome's Seat,
// a spectator's chat line.
const Spectator = -1

// The types of the messages a client sends.
const (
	// TypeMove plays a move for the connection's seat.
	TypeMove = "move"
	// TypeAgain deals the next match with the same seats, once the match
	// is over.
	TypeAgain = "again"
	// TypePing asks for a Pong.
	TypePing = "ping"
	// TypeSeatBot is the host's only (Table.Host: the seat of the
	// table's creator): it gives a free seat, or the seat of a guest who
	// has left (no connection for longer than the server's away grace
	// period, 45 s by default, or never came), to a bot of level Bot,
	// which plays the seat from then on; the guest's token no longer
	// seats anyone. A free seat that fills the table starts the match.
	// Refused as CodeNotHost from any other connection, CodePresent for a
	// seat whose player is connected or only just left, CodeRatedSeat
	// for a person's seat at a rated table whatever their presence,
	// CodeBotSeat for a bot's seat, CodeBadBot for a level the server
	// does not seat, CodeBadMessage for a seat the table does not have,
	// and CodeOver once the match is over.
	TypeSeatBot = "seat_bot"
	// TypeLeave gives up the connection's seat for good. At a table
	// still waiting for players the seat is free again; during a match a
	// stand-in bot plays it from then on, and at a rated table its
	// player ranks last. The seat's token and player no longer seat
	// anyone, so the table leaves the player's tables; the seat's
	// connections are told Left, then closed. Refused as CodeNotSeated
	// from a spectator (a seat left already), CodeOver once the match is
	// over, and CodeHostLeaves from the host of a waiting table, who
	// closes it instead (TypeCloseTable).
	TypeLeave = "leave"
	// TypeCloseTable is the host's only: it closes a table still waiting
	// for players. It leaves the lobby and its players' tables; everyone
	// connected is told Closed, then their sockets close. Refused as
	// CodeNotHost from any other connection and CodeStarted once the
	// match has started.
	TypeCloseTable = "close_table"
	// TypeChat writes a line that everyone at the table, players and
	// spectators, is sent as a Chat, in the order the table took them;
	// the store keeps it with the table. The text is plain: trimmed, its
	// line breaks and tabs made spaces, control and format characters
	// removed (the joiners of emoji stay), it must then hold from 1 to
	// 500 characters (code points): CodeChatEmpty, CodeChatLong
	// otherwise. It is never markup. Each writer may write 5 lines at
	// once, then one every 2 s; a line beyond is refused, not queued, as
	// CodeChatSlow with Error.RetryAfter. A seat writes under its seat's
	// name; an anonymous spectator must say Hello first (CodeChatName);
	// a signed-in spectator writes under their player's name.
	TypeChat = "chat"
	// TypeHello names a spectator at the chat, once (cleaned as a seat's
	// name; CodeBadName, CodeNameTaken for a seated player's name,
	// CodeNamed for a second hello; CodeBadMessage from a seat). The
	// server answers with a Hello, which a signed-in spectator's hello
	// gets with their player's name.
	TypeHello = "hello"
	// TypeMute is the host's only (CodeNotHost from anyone else): the
	// spectator whose lines carry that From (their player id, or the
	// connection's "c:<n>" for one without) is refused (CodeMuted) for
	// the rest of the table's life on this server node: a restart
	// forgets it, and an anonymous spectator who reconnects is a new
	// one. Everyone is told with a Muted. A spectator not at the table
	// is CodeBadMessage. Muting anyone for oneself is the client's
	// business: it hides their lines.
	TypeMute = "mute"
	// TypePace says at what pace the connection's person wants to see
	// the bots play (Pace: "slow", "normal" or "fast"; anything else is
	// CodeBadMessage). A table's bots wait the server's bot delay before
	// each move, doubled at "slow" and a quarter of it at "fast"; a table
	// with several seated people follows the slowest pace any of their
	// connections asked for, so that nobody is shown moves faster than
	// they chose (a spectator's pace is theirs only: it changes nothing
	// at the table). A connection that never says is "normal". Nothing
	// is sent back.
	TypePace = "pace"
)

// The types of the messages the server sends (TypeChat and TypeHello
// too).
const (
	// TypeWelcome is a connection's first message (Welcome).
	TypeWelcome = "welcome"
	// TypeTable tells of a change of seats or connections (TableUpdate).
	TypeTable = "table"
	// TypeState is what a seat sees after a move (State).
	TypeState = "state"
	// TypeWatchers counts the spectators (Watchers).
	TypeWatchers = "watchers"
	// TypeChatHistory is the chat's last lines, on arrival (ChatHistory).
	TypeChatHistory = "chat_history"
	// TypeStandinMoves tells a returning player what their stand-in
	// played (StandinMoves).
	TypeStandinMoves = "standin_moves"
	// TypeMuted tells that the host muted a spectator (Muted).
	TypeMuted = "muted"
	// TypeLeft tells the connections of a seat that its player left it
	// (Gone); their sockets then close.
	TypeLeft = "left"
	// TypeClosed tells everyone at a table that its host closed it
	// (Gone); their sockets then close.
	TypeClosed = "closed"
	// TypeError refuses a message (Error).
	TypeError = "error"
	// TypePong answers a ping (Pong).
	TypePong = "pong"
)

// ClientMessage is a message from a browser or a bot: Type says which,
// and only that type's fields are set. Any message may carry an ID,
// echoed in an Error it causes. The server reads it strictly: an unknown
// field is "bad_message".
//
//	{"type":"move","move":{...},"n":12}     act for the connection's seat
//	{"type":"again"}                         play again, same seats
//	{"type":"ping"}                          answered by {"type":"pong"}
//	{"type":"seat_bot","seat":2,"bot":"normal"}
//	{"type":"hello","name":"Zoé"}            a spectator's name at the chat
//	{"type":"chat","text":"bien joué !"}     a line of the table's chat
//	{"type":"mute","spectator":"c:7"}        the host mutes a spectator
//	{"type":"leave"}                         give up one's seat
//	{"type":"close_table"}                   the host closes a waiting table
type ClientMessage struct {
	Type string `json:"type"`
	// Move is a "move"'s move, in the game's replay form (docs/replay.md).
	Move json.RawMessage `json:"move,omitempty"`
	// Seat is, for "seat_bot", the seat given; for "move", optional, the
	// connection's own seat (another one is "wrong_seat").
	Seat *int `json:"seat,omitempty"`
	// N is, for "move", the move count of the state the move answers (a
	// State's N): a move whose N is behind the table's is refused as
	// "stale", so that a move meant for one position is never played in
	// another. Without N, the move is applied to the current position.
	N *int `json:"n,omitempty"`
	// ID, on any message, is echoed in an Error the message causes.
	ID *int64 `json:"id,omitempty"`
	// Bot is, for "seat_bot", the level: "random", "easy", "normal",
	// "hard".
	Bot string `json:"bot,omitempty"`
	// Text is a "chat" line.
	Text string `json:"text,omitempty"`
	// Name is a spectator's name ("hello").
	Name string `json:"name,omitempty"`
	// Spectator is, for "mute", whom the host mutes: a chat line's From.
	Spectator string `json:"spectator,omitempty"`
	// Pace is a "pace"'s pace: "slow", "normal" or "fast".
	Pace string `json:"pace,omitempty"`
}
