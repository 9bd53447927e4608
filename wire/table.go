package wire

import "encoding/json"

// Table is the public description of a table: the "table" of a Welcome
// and a TableUpdate, and GET /api/tables/{id} (with "you" added).
type Table struct {
	ID      string          `json:"id"`
	Game    string          `json:"game"`
	Players int             `json:"players"`
	Options json.RawMessage `json:"options"`
	// Status is "waiting" (free seats), "playing" or "over".
	Status Status `json:"status"`
	// Match numbers the table's matches from 1 ("again" deals the next).
	Match int        `json:"match"`
	Seats []SeatInfo `json:"seats"`
	// TurnSeconds is the time per move, 0 for none: a human seat that has
	// had to act for that long gets a stand-in for that one move (shown
	// by its seat's Standin until the move is made).
	TurnSeconds int `json:"turn_seconds"`
	// Watchers is how many spectators' connections the table has; a
	// Watchers message tells of changes.
	Watchers int `json:"watchers"`
	// Host is the seat of the table's creator (-1: none), who may give
	// free and abandoned seats to bots ("seat_bot").
	Host int `json:"host"`
	// MemoryAid is the table's option under which a seat's history
	// keeps the cards it looked at privately (Cabo); off, the history
	// leaves them out, as memory is part of the game.
	MemoryAid bool `json:"memory_aid"`
	// Rated tables rate their matches; once a rated match is over,
	// Ratings has each seat's rating before and after it.
	Rated   bool     `json:"rated,omitempty"`
	Ratings []Rating `json:"ratings,omitempty"`
	// TurnBased tables are played over days (issue 29): TurnSeconds is
	// then an hour to a week, nothing plays for an absent player before
	// their time runs out, and three timeouts in a row give their seat
	// to a bot.
	TurnBased bool `json:"turn_based,omitempty"`
	// Coach: the players may ask for hints (POST /api/tables/{id}/hint);
	// Hints is how many each seat used in this match, by seat, once any
	// was (issue 27).
	Coach bool  `json:"coach,omitempty"`
	Hints []int `json:"hints,omitempty"`
}

// SeatInfo is one seat as everyone sees it: never its token.
type SeatInfo struct {
	Name string `json:"name"`
	// Bot is the level of a bot's seat, "" (left out) for a person's.
	Bot string `json:"bot,omitempty"`
	// Free is true while nobody has taken the seat.
	Free bool `json:"free"`
	// Connected is true while the seat's player has a connection (always
	// for a bot).
	Connected bool `json:"connected"`
	// Standin is true while a bot plays for this human seat, whose player
	// has been away longer than the server's grace period.
	Standin bool `json:"standin"`
}

// Rating is one seat's rating change in a rated match, shown on the end
// panel: the displayed numbers before and after.
type Rating struct {
	Before      int  `json:"before"`
	After       int  `json:"after"`
	Provisional bool `json:"provisional"`
}

// Status is where a table's game is: waiting for players (free seats),
// playing, or over (until "again" deals the next match). It goes on the
// wire as its string.
type Status string

// The statuses of a table's game.
const (
	StatusWaiting Status = "waiting"
	StatusPlaying Status = "playing"
	StatusOver    Status = "over"
)

// String returns the status as it goes on the wire.
func (s Status) String() string { return string(s) }
