package game

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
)

// Option describes one field of a game's options object, for validation
// messages and for the table-creation form.
type Option struct {
	// Name is the JSON field.
	Name string `json:"name"`
	// Kind is "int" or "bool".
	Kind string `json:"kind"`
	// Default is the value RULES.md gives; nil means unset (unlimited).
	Default any `json:"default"`
	// Min and Max bound an int option.
	Min int `json:"min,omitempty"`
	Max int `json:"max,omitempty"`
}

// DecodeOptions decodes a game's options object into dst strictly (see
// DecodeStrict). Empty input or null leaves dst (the defaults) as it is.
func DecodeOptions(name string, raw json.RawMessage, dst any) error {
	if t := bytes.TrimSpace(raw); len(t) == 0 || bytes.Equal(t, []byte("null")) {
		return nil
	}
	if err := DecodeStrict(raw, dst); err != nil {
		return Refuse(name, "options", ReasonBadOptions, nil, "%v", err)
	}
	return nil
}

// DecodeStrict decodes one JSON value from outside (a move, a stack, a
// script, a message) into dst: an unknown field, a wrong type or data after
// the value is an error that names it, so that a typo is never silently
// ignored.
func DecodeStrict(data []byte, dst any) error {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(dst); err != nil {
		return err
	}
	// More misses a stray closing bracket; only the end of the input
	// proves nothing follows.
	if _, err := dec.Token(); err != io.EOF {
		return fmt.Errorf("data after the JSON value")
	}
	return nil
}
