// Package api holds what every handler of Tapis's HTTP API does alike
// (docs/API.md): requests are one small JSON object, read strictly;
// answers are JSON; a refusal is a Refusal, {"code": "…", "error": "words"},
// the code stable for clients to translate (one of the Code constants), the
// words for people, and for a refusal by a game's rules or by the server's
// checks a stable "reason" with its "args", which clients translate too.
package api

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strings"

	"tapis/game"
)

// MaxBody is the largest request body read.
const MaxBody = 16 << 10

// Read decodes r's body into dst strictly (one JSON object, no unknown
// field, nothing after it), answering the request itself and returning
// false when it cannot.
func Read(w http.ResponseWriter, r *http.Request, dst any) bool {
	// JSON only: another site's plain form cannot post here, since a JSON
	// request from another origin needs a CORS preflight never granted.
	if ct := r.Header.Get("Content-Type"); !strings.HasPrefix(ct, "application/json") {
		Error(w, http.StatusUnsupportedMediaType, CodeBadRequest, "api: send JSON (Content-Type: application/json)")
		return false
	}
	body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, MaxBody))
	var tooLarge *http.MaxBytesError
	switch {
	case errors.As(err, &tooLarge):
		Error(w, http.StatusRequestEntityTooLarge, CodeTooLarge, fmt.Sprintf("api: a request body may hold %d bytes", MaxBody))
		return false
	case err != nil:
		Error(w, http.StatusBadRequest, CodeBadRequest, "api: the request body could not be read (too slow?)")
		return false
	}
	if err := game.DecodeStrict(body, dst); err != nil {
		Error(w, http.StatusBadRequest, CodeBadRequest, fmt.Sprintf("api: bad request: %v", err))
		return false
	}
	return true
}

// Write answers with status code and v as JSON. Answers are for the one
// who asked (who is signed in, their seat's token): no cache keeps them.
func Write(w http.ResponseWriter, code int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Cache-Control", "no-store")
	w.WriteHeader(code)
	json.NewEncoder(w).Encode(v)
}

// Refusal is the body of every refused request.
type Refusal struct {
	// Code is one of the Code constants.
	Code string `json:"code"`
	// Reason is, when the rules of a game refused (game.Refusal) or the
	// server gave one of its Reason constants, a stable snake_case word,
	// and Args the values its sentence needs: clients translate these
	// rather than Error.
	Reason string         `json:"reason,omitempty"`
	Args   map[string]any `json:"args,omitempty"`
	// Error is English words for people and logs.
	Error string `json:"error"`
}

// Error answers with status code and the refusal {"code": short,
// "error": text}.
func Error(w http.ResponseWriter, code int, short, text string) {
	Write(w, code, Refusal{Code: short, Error: text})
}

// Refuse answers with status code and the refusal short of err: its
// words, and if err holds a game.Refusal, its reason and args.
func Refuse(w http.ResponseWriter, code int, short string, err error) {
	Write(w, code, RefusalOf(short, err))
}

// RefusalOf is the refusal short of err: its words, and if err holds a
// game.Refusal, its reason and args.
func RefusalOf(short string, err error) Refusal {
	r := Refusal{Code: short, Error: err.Error()}
	if g, ok := game.AsRefusal(err); ok {
		r.Reason, r.Args = g.Reason, g.Args
	}
	return r
}
