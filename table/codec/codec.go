// Package codec writes and reads a table's WebSocket messages (package
// wire's) fast, for they are the messages of every move: the "state"
// message built without encoding/json's reflection where it can be
// (state.go), each game's moves' JSON cached both ways (moves.go), and a
// client's message decoded by hand when its shape is plain (decode.go).
// Each agrees byte for byte, or value for value, with encoding/json and
// the game's own codec: its tests compare them over random games and a
// fuzzer.
package codec

import (
	"encoding/json"
	"fmt"

	"tapis/game"
	"tapis/wire"
)

// BadEncoding is sent for a message that could not be encoded: views and
// events are plain data, so this is a bug in a game.
const BadEncoding = `{"type":"error","code":"internal","error":"server: a message could not be encoded"}`

// Encode is v's JSON, or BadEncoding.
func Encode(v any) []byte {
	b, err := json.Marshal(v)
	if err != nil {
		return []byte(BadEncoding)
	}
	return b
}

// Decode parses a client message strictly; text says it came as a text
// message, as every message must. A move without its move is refused,
// with the message's id kept for the answer.
func Decode(text bool, data []byte) (wire.ClientMessage, error) {
	var m wire.ClientMessage
	if !text {
		return m, fmt.Errorf("server: messages are JSON text")
	}
	if !DecodeFast(data, &m) {
		m = wire.ClientMessage{}
		if err := game.DecodeStrict(data, &m); err != nil {
			return wire.ClientMessage{}, fmt.Errorf("server: a message is a JSON object with a \"type\": %v", err)
		}
	}
	if m.Type == "move" && len(m.Move) == 0 {
		return m, fmt.Errorf("server: a move message needs a \"move\"")
	}
	return m, nil
}
