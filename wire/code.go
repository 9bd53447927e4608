package wire

// The codes of an Error: stable words that clients translate. The server
// sends no other.
const (
	// CodeBadMessage: not JSON, not an object with a known "type", an
	// unknown field, a field of the wrong type, or a value the message
	// cannot have (a seat the table does not have, an "n" ahead of the
	// table, a spectator not at the table, a seat's hello).
	CodeBadMessage = "bad_message"
	// CodeTooLarge: a message over the server's size limit.
	CodeTooLarge = "too_large"
	// CodeTooFast: more messages than the connection may send (20 a
	// second by default); the server slows the connection down.
	CodeTooFast = "too_fast"
	// CodeNotSeated: a spectator tried to act ("move", "again").
	CodeNotSeated = "not_seated"
	// CodeWrongSeat: a move for another seat than the connection's.
	CodeWrongSeat = "wrong_seat"
	// CodeNotStarted: a move while seats are still free, or "again"
	// before the match is over.
	CodeNotStarted = "not_started"
	// CodeOver: a move or "seat_bot" once the match is over.
	CodeOver = "over"
	// CodeStale: a move answering an earlier position (its "n" is behind
	// the table's); the newer state is already on its way.
	CodeStale = "stale"
	// CodeBadMove: not a move of this game (Reason and Args say why when
	// the engine gives one).
	CodeBadMove = "bad_move"
	// CodeRefused: the rules refuse the move; Reason and Args say why
	// (game.Refusal), Message in English.
	CodeRefused = "refused"
	// CodeStore: the move, the next match or the seat could not be
	// saved; nothing changed, try again.
	CodeStore = "store"
	// CodeInternal: a message could not be encoded (a bug in a game).
	CodeInternal = "internal"
	// CodeNotHost: "seat_bot", "mute" or "close_table" from another
	// seat than the host's.
	CodeNotHost = "not_host"
	// CodeBadBot: "seat_bot" with a level the server does not seat.
	CodeBadBot = "bad_bot"
	// CodePresent: "seat_bot" for a seat whose player is connected or
	// left only moments ago.
	CodePresent = "seat_present"
	// CodeBotSeat: "seat_bot" for a seat a bot already plays.
	CodeBotSeat = "seat_bot_taken"
	// CodeRatedSeat: "seat_bot" for a person's seat at a rated table.
	CodeRatedSeat = "rated_seat"
	// CodeChatEmpty: a chat line with nothing left once cleaned.
	CodeChatEmpty = "chat_empty"
	// CodeChatLong: a chat line over 500 characters.
	CodeChatLong = "chat_long"
	// CodeChatSlow: a chat line over the writer's or the network's pace;
	// Error.RetryAfter says when to write again.
	CodeChatSlow = "chat_slow"
	// CodeChatName: a chat line from an anonymous spectator who has not
	// said hello.
	CodeChatName = "chat_name"
	// CodeChatFailed: the chat line could not be saved.
	CodeChatFailed = "chat_failed"
	// CodeMuted: a chat line from a spectator the host muted.
	CodeMuted = "muted"
	// CodeBadName: a hello with no name left once cleaned.
	CodeBadName = "bad_name"
	// CodeNameTaken: a hello with a seated player's name.
	CodeNameTaken = "name_taken"
	// CodeNamed: a second hello from the same connection.
	CodeNamed = "named"
	// CodeHostLeaves: "leave" from the host of a table still waiting
	// for players: they close it instead ("close_table").
	CodeHostLeaves = "host_leaves"
	// CodeStarted: "close_table" once the match has started: a running
	// table is left, not closed.
	CodeStarted = "started"
)
