package api

import (
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"tapis/game"
)

// Read takes one JSON object of known fields, and refuses the rest with a
// code and words.
func TestRead(t *testing.T) {
	for _, c := range []struct {
		name, ctype, body string
		status            int
		code              string
	}{
		{"one object", "application/json", `{"name":"Ann"}`, 0, ""},
		{"a form", "application/x-www-form-urlencoded", `name=Ann`, 415, "bad_request"},
		{"an unknown field", "application/json", `{"name":"Ann","admin":true}`, 400, "bad_request"},
		{"two values", "application/json", `{"name":"Ann"}{}`, 400, "bad_request"},
		{"too large", "application/json", `{"name":"` + strings.Repeat("x", MaxBody) + `"}`, 413, "too_large"},
	} {
		t.Run(c.name, func(t *testing.T) {
			r := httptest.NewRequest("POST", "/", strings.NewReader(c.body))
			r.Header.Set("Content-Type", c.ctype)
			w := httptest.NewRecorder()
			var dst struct{ Name string }
			ok := Read(w, r, &dst)
			if ok != (c.status == 0) {
				t.Fatalf("Read = %v, answer %d %s", ok, w.Code, w.Body)
			}
			if ok {
				if dst.Name != "Ann" {
					t.Fatalf("decoded %+v", dst)
				}
				return
			}
			var e struct{ Code, Error string }
			json.Unmarshal(w.Body.Bytes(), &e)
			if w.Code != c.status || e.Code != c.code || e.Error == "" || w.Header().Get("Content-Type") != "application/json" {
				t.Fatalf("answer %d %+v, want %d %s with words", w.Code, e, c.status, c.code)
			}
		})
	}
}

// An answer is JSON that no cache keeps.
func TestWrite(t *testing.T) {
	w := httptest.NewRecorder()
	Write(w, http.StatusCreated, map[string]int{"seat": 0})
	if w.Code != 201 || w.Header().Get("Cache-Control") != "no-store" || strings.TrimSpace(w.Body.String()) != `{"seat":0}` {
		t.Fatalf("%d %v %q", w.Code, w.Header(), w.Body)
	}
}

// A refusal carries a game's reason and args when its error holds one, and
// only words otherwise.
func TestRefuse(t *testing.T) {
	for _, c := range []struct {
		err  error
		want string
	}{
		{fmt.Errorf("wrapped: %w", game.Refuse("cabo", "options", game.ReasonBadOption, map[string]any{"option": "hand_size", "min": 4, "max": 6}, "hand_size must be 4 to 6")),
			`{"code":"bad_options","reason":"bad_option","args":{"max":6,"min":4,"option":"hand_size"},"error":"wrapped: cabo: options: hand_size must be 4 to 6"}`},
		{errors.New("cabo: no"), `{"code":"bad_options","error":"cabo: no"}`},
	} {
		w := httptest.NewRecorder()
		Refuse(w, http.StatusBadRequest, CodeBadOptions, c.err)
		if w.Code != 400 || strings.TrimSpace(w.Body.String()) != c.want {
			t.Errorf("%d %s, want %s", w.Code, w.Body, c.want)
		}
	}
}
