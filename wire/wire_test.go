package wire

import (
	"encoding/json"
	"reflect"
	"testing"
)

// An error carries an engine's reason and args beside its words, and
// leaves out what it does not have.
func TestErrorShape(t *testing.T) {
	id := int64(7)
	for _, c := range []struct {
		e    Error
		want string
	}{
		{Error{Type: TypeError, Code: CodeRefused, Reason: "no_card_of_colour", Args: map[string]any{"colour": "red"},
			Message: "limits: hide: you hold no red card"},
			`{"type":"error","code":"refused","reason":"no_card_of_colour","args":{"colour":"red"},"error":"limits: hide: you hold no red card"}`},
		{Error{Type: TypeError, Code: CodeStale, Message: "look again", ID: &id},
			`{"type":"error","code":"stale","error":"look again","id":7}`},
		{Error{Type: TypeError, Code: CodeChatSlow, Message: "wait", RetryAfter: 2},
			`{"type":"error","code":"chat_slow","error":"wait","retry_after":2}`},
	} {
		b, err := json.Marshal(&c.e)
		if err != nil || string(b) != c.want {
			t.Errorf("%s, %v\nwant %s", b, err, c.want)
		}
		var back Error
		if err := json.Unmarshal(b, &back); err != nil || !reflect.DeepEqual(back, c.e) {
			t.Errorf("read back %+v, %v; want %+v", back, err, c.e)
		}
	}
}

// A client reads the server's messages with a game's JSON left raw, and
// the server writes them with the engine's values: the same bytes.
func TestPayloadBothWays(t *testing.T) {
	type view struct {
		Hand []int `json:"hand"`
	}
	sent := State[any]{Type: TypeState, Match: 1, N: 3, Status: "playing", By: 0, View: view{Hand: []int{4, 2}},
		Legal: []json.RawMessage{json.RawMessage(`{"kind":"draw"}`)}, ToMove: []int{1},
		Result: Result{Scores: []int{0, 0}}, Events: []any{map[string]int{"seat": 0}}, TurnLeft: map[int]int64{1: 29500}}
	b, err := json.Marshal(&sent)
	if err != nil {
		t.Fatal(err)
	}
	var got State[json.RawMessage]
	if err := json.Unmarshal(b, &got); err != nil {
		t.Fatal(err)
	}
	if string(got.View) != `{"hand":[4,2]}` || len(got.Events) != 1 || string(got.Events[0]) != `{"seat":0}` ||
		got.TurnLeft[1] != 29500 || !got.Moves(1) || got.Moves(0) || got.Over() {
		t.Fatalf("read %s as %+v", b, got)
	}
	again, _ := json.Marshal(&got)
	if string(again) != string(b) {
		t.Fatalf("written again:\n%s\nwant\n%s", again, b)
	}
	if got.Kind() != TypeState || (&Welcome[any]{}).Kind() != TypeWelcome || (&Error{}).Kind() != TypeError {
		t.Fatal("kinds")
	}
}

// A client message leaves out what it does not have.
func TestClientMessageShape(t *testing.T) {
	n := 12
	b, _ := json.Marshal(ClientMessage{Type: TypeMove, Move: json.RawMessage(`{"kind":"draw"}`), N: &n})
	if want := `{"type":"move","move":{"kind":"draw"},"n":12}`; string(b) != want {
		t.Fatalf("%s, want %s", b, want)
	}
}

// Gone's kind is its type, left or closed, as the server writes it
// (table/leave.go), so that it shares the messages' interface.
func TestGoneKind(t *testing.T) {
	for _, typ := range []string{TypeLeft, TypeClosed} {
		var g Gone
		if err := json.Unmarshal([]byte(`{"type":"`+typ+`"}`), &g); err != nil {
			t.Fatal(err)
		}
		var m interface{ Kind() string } = &g
		if m.Kind() != typ {
			t.Errorf("a %s message's kind is %q", typ, m.Kind())
		}
	}
}
