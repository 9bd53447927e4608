// Package api holds what every handler of Tapis's HTTP API does alike
// (docs/API.md): requests are one small JSON object, read strictly;
// answers are JSON; a refusal is {"code": "…", "error": "words"}, the code
// stable for clients to translate, the words for people.
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
		Error(w, http.StatusUnsupportedMediaType, "bad_request", "api: send JSON (Content-Type: application/json)")
		return false
	}
	body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, MaxBody))
	var tooLarge *http.MaxBytesError
	switch {
	case errors.As(err, &tooLarge):
		Error(w, http.StatusRequestEntityTooLarge, "too_large", fmt.Sprintf("api: a request body may hold %d bytes", MaxBody))
		return false
	case err != nil:
		Error(w, http.StatusBadRequest, "bad_request", "api: the request body could not be read (too slow?)")
		return false
	}
	if err := game.DecodeStrict(body, dst); err != nil {
		Error(w, http.StatusBadRequest, "bad_request", fmt.Sprintf("api: bad request: %v", err))
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

// Error answers with status code and the refusal {"code": short,
// "error": text}.
func Error(w http.ResponseWriter, code int, short, text string) {
	Write(w, code, map[string]string{"code": short, "error": text})
}
