package game

import (
	"bytes"
	"encoding/json"
	"fmt"
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

// DecodeOptions decodes a game's options object into dst strictly: an
// unknown name, a wrong type or trailing data is an error that names it.
// Empty input leaves dst (the defaults) as it is.
func DecodeOptions(name string, raw json.RawMessage, dst any) error {
	if len(bytes.TrimSpace(raw)) == 0 || bytes.Equal(bytes.TrimSpace(raw), []byte("null")) {
		return nil
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.DisallowUnknownFields()
	if err := dec.Decode(dst); err != nil {
		return fmt.Errorf("%s: options: %v", name, err)
	}
	if dec.More() {
		return fmt.Errorf("%s: options: data after the options object", name)
	}
	return nil
}
