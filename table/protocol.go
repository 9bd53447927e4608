package table

import (
	"time"

	"tapis/api"
	"tapis/table/codec"
	"tapis/wire"
)

// The WebSocket protocol is package wire's: its messages, their fields and
// the error codes. This file holds what the server adds to it.

// clientMsg is a message from a browser or a bot client, with when it was
// read.
type clientMsg struct {
	wire.ClientMessage
	// read is when the server read the message, for the metrics (zero
	// without them); not part of the protocol.
	read time.Time
}

// errorFor is the error message code answers to the message of id: its
// words are err's, and when err holds an engine's refusal, its reason and
// args too, which clients translate.
func errorFor(code string, err error, id *int64) wire.Error {
	r := api.RefusalOf(code, err)
	return wire.Error{Type: wire.TypeError, Code: code, Reason: r.Reason, Args: r.Args, Message: r.Error, ID: id}
}

// sendRefusal tells c that err refused its message of id, as code.
func (t *table) sendRefusal(c *conn, code string, err error, id *int64) {
	t.srv.cfg.Metrics.Refused(code, answered(t.answering))
	e := errorFor(code, err, id)
	t.send(c, codec.Encode(&e))
}
