package servertest

import "tapis/wire"

// Chat is any of the chat's messages (and errors), decoded loosely.
type Chat struct {
	Type       string          `json:"type"`
	Line       wire.ChatLine   `json:"line"`
	Lines      []wire.ChatLine `json:"lines"`
	Code       string          `json:"code"`
	Error      string          `json:"error"`
	ID         int64           `json:"id"`
	RetryAfter int             `json:"retry_after"`
	Name       string          `json:"name"`
	From       string          `json:"from"`
	Spectator  any             `json:"spectator"` // "muted": who
}

// NextChat returns the next message of one of the types (any type if
// none), skipping others; it fails the test after 20 s.
func (c *Client) NextChat(types ...string) Chat {
	c.t.Helper()
	m, err := c.NextChatE(types...)
	if err != nil {
		c.t.Fatal(err)
	}
	return m
}

// NextChatE is NextChat for other goroutines than the test's.
func (c *Client) NextChatE(types ...string) (Chat, error) {
	return nextOf(c, func(m Chat) string { return m.Type }, types)
}
