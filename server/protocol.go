package server

import (
	"encoding/json"
	"time"

	"tapis/game"
)

// The WebSocket protocol. A client sends:
//
//	{"type":"move","move":{...REPLAY.md move...}}   act for the connection's seat
//	{"type":"again"}                                 play again, same seats
//	{"type":"ping"}                                  answered by {"type":"pong"}
//	{"type":"seat_bot","seat":2,"bot":"normal"}      the host gives a seat to a bot
//	{"type":"hello","name":"Zoé"}                    a spectator's name at the chat
//	{"type":"chat","text":"bien joué !"}             a line of the table's chat
//	{"type":"mute","spectator":"c:7"}                the host mutes a spectator
//
// "seat_bot" is the host's only (tableInfo's "host": the seat of the
// table's creator): it gives a free seat, or the seat of a guest who has
// left (no connection for longer than the server's away grace period,
// 45 s by default, or never came), to a bot of that level ("random",
// "easy", "normal", "hard"), which plays the seat from then on; the
// guest's token no longer seats anyone. A free seat that fills the table
// starts the match. It is refused ("not_host") from any other connection,
// ("seat_present") for a seat whose player is connected or only just
// left, ("rated_seat") for a person's seat at a rated table, whatever
// their presence, ("seat_bot_taken") for a bot's seat, ("bad_bot") for a level the
// server does not seat, ("bad_message") for a seat the table does not
// have, and ("over") once the match is over.
//
// "move" may carry "seat" (refused unless it is the connection's own) and
// "n", the move count of the state it answers (a "state" message's "n"):
// a move whose n is behind the table's is refused as "stale", so that a
// move meant for one position is never played in another. Any message may
// carry a numeric "id", echoed in an error it causes.
//
// "chat" writes a line that everyone at the table, players and
// spectators, is sent as a "chat" message, in the order the table took
// them; the store keeps it with the table. The text is plain: it is
// trimmed, its line breaks and tabs become spaces, control and format
// characters are removed (the joiners of emoji stay), and it must then
// hold from 1 to 500 characters (code points): "chat_empty", "chat_long"
// otherwise; it is never markup, and a client shows it as text. Each
// connection may write 5 lines at once, then one every 2 s (the server's
// Limits.ChatEvery and ChatBurst); a line beyond is refused, not queued,
// as "chat_slow" with "retry_after", the seconds to wait. A seat writes
// under its seat's name. A spectator first says its name once, with
// "hello" (cleaned as a seat's name; "bad_name", "name_taken" for a
// seated player's name, "named" for a second hello; refused from a seat),
// which the server answers with {"type":"hello","name":...,"from":...};
// until then its lines are refused as "chat_name". A signed-in spectator
// writes under their player's name without hello; a hello of theirs is
// answered with that name.
//
// "mute" is the host's only ("not_host" from anyone else): the spectator
// whose lines carry that "from" (their player id, or for a spectator
// without one their connection's "c:<n>") is refused ("muted") for the
// rest of the table's life on this server node: a restart forgets it, and
// an anonymous spectator who reconnects is a new one. Everyone is told
// with {"type":"muted","spectator":...,"name":...}. A spectator not at
// the table is "bad_message". Muting anyone for oneself is the client's
// business: it hides their lines.
//
// A client must answer the server's WebSocket pings (browsers do it by
// themselves, even in a background tab): a connection that neither sends
// anything nor answers a ping for Config.Presence (40 s) is taken as gone,
// and its seat as away. {"type":"ping"} is still answered with a "pong",
// but is not needed.
//
// The server sends "welcome" once, then "table", "state", "watchers",
// "chat_history" (the last 50 lines of the chat, right after the welcome
// and the state, when there are any), "standin_moves" (to a player back
// at a seat a stand-in played for), "chat", "hello", "muted", "error" and
// "pong" messages; see the types below.

// clientMsg is a message from a browser or a bot client.
type clientMsg struct {
	Type string          `json:"type"`
	Move json.RawMessage `json:"move,omitempty"`
	Seat *int            `json:"seat,omitempty"`
	N    *int            `json:"n,omitempty"`
	ID   *int64          `json:"id,omitempty"`
	Bot  string          `json:"bot,omitempty"` // seat_bot: the level
	// Text is a chat line; Name a spectator's name (hello); Spectator
	// the id of the spectator the host mutes (a chat line's "from").
	Text      string `json:"text,omitempty"`
	Name      string `json:"name,omitempty"`
	Spectator string `json:"spectator,omitempty"`
	// read is when the server read the message, for the metrics (zero
	// without them); not part of the protocol.
	read time.Time
}

// seatInfo is one seat as everyone sees it: never its token.
type seatInfo struct {
	Name      string `json:"name"`
	Bot       string `json:"bot,omitempty"`
	Free      bool   `json:"free"`
	Connected bool   `json:"connected"`
	// Standin is true while a bot plays for this human seat, whose player
	// has been away longer than the server's grace period.
	Standin bool `json:"standin"`
}

// tableInfo is the public description of a table.
type tableInfo struct {
	ID      string          `json:"id"`
	Game    string          `json:"game"`
	Players int             `json:"players"`
	Options json.RawMessage `json:"options"`
	// Status is "waiting" (free seats), "playing" or "over".
	Status string     `json:"status"`
	Match  int        `json:"match"`
	Seats  []seatInfo `json:"seats"`
	// TurnSeconds is the time per move, 0 for none: a human seat that has
	// had to act for that long gets a stand-in for that one move (shown
	// by its seat's Standin until the move is made).
	TurnSeconds int `json:"turn_seconds"`
	// Watchers is how many spectators' connections the table has; a
	// "watchers" message tells of changes.
	Watchers int `json:"watchers"`
	// Host is the seat of the table's creator (-1: none), who may give
	// free and abandoned seats to bots ("seat_bot").
	Host game.Seat `json:"host"`
	// MemoryAid is the table's option under which a seat's history
	// keeps the cards it looked at privately (Cabo); off, the history
	// leaves them out, as memory is part of the game (memory.go).
	MemoryAid bool `json:"memory_aid"`
	// Rated tables rate their matches (rated.go); once a rated match is
	// over, Ratings has each seat's rating before and after it.
	Rated   bool         `json:"rated,omitempty"`
	Ratings []seatRating `json:"ratings,omitempty"`
}

// watchersMsg tells how many watch the table. Spectators coming and going
// change only this count, sent at most once a second, rather than the
// whole table to every connection each time: with a thousand spectators
// that was a million messages.
type watchersMsg struct {
	Type  string `json:"type"` // "watchers"
	Count int    `json:"count"`
}

// welcomeMsg answers a new connection: who it is, the table, and the
// events of the current match it may see, so a returning player's log is
// whole again. Unless the table has the memory aid, those events are
// without the card values the seat saw privately (a Cabo peek's or draw's
// "seen"): "state" messages carry them once, as they happen, and a
// reconnection must not be a way to look again (memory.go).
type welcomeMsg struct {
	Type    string    `json:"type"` // "welcome"
	Seat    game.Seat `json:"seat"` // -1: a spectator
	Table   tableInfo `json:"table"`
	History []any     `json:"history"`
}

// missedMsg tells a player who comes back what the stand-in played for
// their seat while they were away: sent once, after the welcome and the
// state, to the seat's first connection since.
type missedMsg struct {
	Type string    `json:"type"` // "standin_moves"
	Seat game.Seat `json:"seat"`
	// Moves is how many moves the stand-in made; Events are their events
	// as the seat may see them (the last 100 at most), as in the
	// welcome's history.
	Moves  int   `json:"moves"`
	Events []any `json:"events"`
}

// tableMsg tells of a change of seats or connections.
type tableMsg struct {
	Type  string    `json:"type"` // "table"
	Table tableInfo `json:"table"`
}

// stateMsg is what one seat sees after a move: its view, its legal moves,
// and the move's events it may see. It is the message's shape, which
// encode.go writes by hand (the same bytes, encode_test.go checks).
type stateMsg struct {
	Type   string `json:"type"` // "state"
	Match  int    `json:"match"`
	N      int    `json:"n"` // moves applied in this match so far
	Status string `json:"status"`
	// By is the seat whose move this state follows, -1 for a new deal or
	// a reconnection.
	By game.Seat `json:"by"`
	// Standin is true when the move was made for seat By by its
	// stand-in (its player away, or out of time), not by its player:
	// every log says so.
	Standin bool              `json:"standin,omitempty"`
	View    any               `json:"view"`
	Legal   []json.RawMessage `json:"legal"`
	ToMove  []game.Seat       `json:"to_move"`
	Result  game.Result       `json:"result"`
	// Rounds holds the round scores (Result.RoundScores) of every round
	// of this match completed so far, in order, one per seat: the
	// client's score sheet, whole for a page that joins mid-match. Round
	// scores are public; a game's totals may differ from their sum
	// where its rules say so (Cabo's reset at exactly 100).
	Rounds [][]int `json:"rounds"`
	Events []any   `json:"events"`
	// TurnLeft is, at a table with a time per move, the milliseconds each
	// human seat that must act has left when the message is sent (0 once
	// a stand-in is choosing for it), keyed by seat: {"0": 29500}. A
	// duration, not a time, so that the client's clock does not matter.
	// Absent when no seat is on the clock.
	TurnLeft map[game.Seat]int64 `json:"turn_left_ms,omitempty"`
}

// chatLine is one line of a table's chat.
type chatLine struct {
	// No numbers the table's lines from 1, in order.
	No int `json:"no"`
	// Seat is the writer's seat, -1 for a spectator (Spectator).
	Seat int       `json:"seat"`
	Name string    `json:"name"`
	Text string    `json:"text"`
	At   time.Time `json:"at"`
	// Spectator marks a spectator's line; From is then who they are for
	// "mute" (empty on a line of an anonymous spectator read back from
	// the store).
	Spectator bool   `json:"spectator"`
	From      string `json:"from,omitempty"`
}

// chatMsg is a new line of the chat, sent to every connection.
type chatMsg struct {
	Type string   `json:"type"` // "chat"
	Line chatLine `json:"line"`
}

// chatHistoryMsg is the last lines of the chat, in order, for a
// connection that attaches.
type chatHistoryMsg struct {
	Type  string     `json:"type"` // "chat_history"
	Lines []chatLine `json:"lines"`
}

// helloMsg answers a spectator's hello: its name as cleaned, and the
// "from" its lines carry.
type helloMsg struct {
	Type string `json:"type"` // "hello"
	Name string `json:"name"`
	From string `json:"from"`
}

// mutedMsg tells everyone that the host muted a spectator.
type mutedMsg struct {
	Type      string `json:"type"` // "muted"
	Spectator string `json:"spectator"`
	Name      string `json:"name"`
}

// errorMsg explains a refused or malformed message. It never names a card
// the receiving seat may not know: its text is the engine's (which checks
// turn and seat before anything else) or the server's own.
type errorMsg struct {
	Type  string `json:"type"` // "error"
	Code  string `json:"code"`
	Error string `json:"error"`
	ID    *int64 `json:"id,omitempty"`
	// RetryAfter is, for "chat_slow", in how many seconds the next line
	// will be taken.
	RetryAfter int `json:"retry_after,omitempty"`
}

// Error codes, which the client translates.
const (
	codeBadMessage = "bad_message" // not JSON, unknown type, unknown fields
	codeTooLarge   = "too_large"
	codeTooFast    = "too_fast"
	codeNotSeated  = "not_seated" // a spectator tried to act
	codeWrongSeat  = "wrong_seat" // a move for someone else's seat
	codeNotStarted = "not_started"
	codeOver       = "over"
	codeStale      = "stale"    // a move answering an earlier position
	codeBadMove    = "bad_move" // not a move of this game
	codeRefused    = "refused"  // the rules refuse it; Error says why
	codeStore      = "store"    // the move could not be saved
	codeNotHost    = "not_host" // seat_bot from another seat than the host's
	codeBadBot     = "bad_bot"  // seat_bot: no such level
	codePresent    = "seat_present"
	codeBotSeat    = "seat_bot_taken"
	codeRatedSeat  = "rated_seat" // seat_bot: a person's seat at a rated table
	// The chat's (chat.go).
	codeChatEmpty  = "chat_empty"  // nothing left once cleaned
	codeChatLong   = "chat_long"   // more than chatMax characters
	codeChatSlow   = "chat_slow"   // over the connection's pace; see RetryAfter
	codeChatName   = "chat_name"   // a spectator who has not said who they are
	codeChatFailed = "chat_failed" // the line could not be saved
	codeMuted      = "muted"       // the host muted this spectator
	codeBadName    = "bad_name"    // hello: no name left once cleaned
	codeNameTaken  = "name_taken"  // hello: a seated player's name
	codeNamed      = "named"       // hello: the connection has a name already
)

func encode(v any) []byte {
	b, err := json.Marshal(v)
	if err != nil {
		// Views and events are plain data; this is a bug in a game.
		return []byte(`{"type":"error","code":"internal","error":"server: a message could not be encoded"}`)
	}
	return b
}
