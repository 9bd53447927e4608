package codec

import (
	"reflect"
	"testing"

	"tapis/game"
	"tapis/wire"
)

// decodeSeeds are client messages of every shape, taken fast or not.
var decodeSeeds = []string{
	`{"type":"move","move":{"type":"draw"},"n":12}`, ` { "n" : 0 , "move" : { "type" : "swap", "a":{"seat":0,"slot":1},"b":{"seat":1,"slot":[2]} } , "type":"move" } `,
	`{"type":"move","n":3,"seat":1,"id":9,"move":{}}`, `{"type":"ping"}`, `{}`, `{"type":"again"}}`, `[]`, `{"type":"move"}`,
	"\xff", `{"type":"move","move":null}`, `{"type":"move","move":"x"}`, `{"TYPE":"ping"}`, `{"type":"ping","type":"again"}`,
	`{"type":"chat","text":"bien jou\u00e9"}`, `{"type":"chat","text":"bien joué"}`, `{"type":"hello","name":"Zo\"e"}`,
	`{"type":"move","n":-0,"move":{}}`, `{"type":"move","n":01,"move":{}}`, `{"type":"move","n":1.0,"move":{}}`,
	`{"type":"move","n":1e2,"move":{}}`, `{"type":"move","n":99999999999999999999,"move":{}}`, `{"type":"move","id":-123456789012345678,"move":{}}`,
	`{"type":"seat_bot","seat":2,"bot":"normal"}`, `{"type":"mute","spectator":"c:7"}`, `{"type":"move","move":{"a":"}"}}`,
	`{"type":"move","move":{"a":"\"}"},"n":1}`, `{"type":"move","move":{"a":[}}`, `{"type":"ping",}`, `{"type":"ping"} x`,
	`{"type":"ping","x":1}`, `{"type":"move","seat":null,"move":{}}`, "{\"type\":\"ping\"}\n", `{"type":"pi\tng"}`,
}

// DecodeFast decodes only what DecodeStrict decodes, to the same message.
func FuzzDecodeFast(f *testing.F) {
	for _, s := range decodeSeeds {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, data string) { checkFast(t, data) })
}

func TestDecodeFastSeeds(t *testing.T) {
	fast := 0
	for _, s := range decodeSeeds {
		if checkFast(t, s) {
			fast++
		}
	}
	if fast < 8 {
		t.Fatalf("only %d of the seeds were decoded fast", fast)
	}
}

func checkFast(t *testing.T, data string) bool {
	t.Helper()
	var got wire.ClientMessage
	if !DecodeFast([]byte(data), &got) {
		return false
	}
	var want wire.ClientMessage
	if err := game.DecodeStrict([]byte(data), &want); err != nil {
		t.Fatalf("%q decoded fast as %+v, but DecodeStrict says %v", data, got, err)
	}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("%q decoded fast as %+v, DecodeStrict %+v", data, got, want)
	}
	return true
}

// Every WebSocket message a client may send is decoded without a panic;
// what decodes is a message with a type.
func FuzzDecodeClient(f *testing.F) {
	for _, s := range []string{`{"type":"move","move":{"type":"draw"}}`, `{"type":"ping"}`, `{"type":"move","n":3,"seat":1,"id":9,"move":{}}`,
		`{"type":"again"}}`, `[]`, `{"type":"move"}`, "\xff", `{"type":"move","move":null}`} {
		f.Add(s, true)
	}
	f.Fuzz(func(t *testing.T, data string, text bool) {
		m, err := Decode(text, []byte(data))
		if err == nil && (!text || (m.Type == "move" && len(m.Move) == 0)) {
			t.Fatalf("%q decoded as %+v", data, m)
		}
	})
}
