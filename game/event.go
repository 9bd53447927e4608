package game

// Event is something that happened, with the seats that may be told of it.
// A draw, for example, is two events: "seat 1 drew" for everyone and "you
// drew a 7" for seat 1 alone.
type Event struct {
	// To is the event's audience; Public includes spectators.
	To Seats
	// Data is the game's own event value, ready for encoding/json, with a
	// "type" field.
	Data any
}

// Log collects events as moves are applied. A nil *Log collects nothing,
// and games check for nil before they build an event, so that playouts,
// which nobody watches, pay nothing for them.
type Log struct {
	Events []Event
}

// Add records an event for the seats in to.
func (l *Log) Add(to Seats, data any) {
	l.Events = append(l.Events, Event{To: to, Data: data})
}

// For returns the events seat s may see, in order (Spectator: the public
// ones).
func (l *Log) For(s Seat) []Event {
	var out []Event
	for _, e := range l.Events {
		if e.To.Has(s) {
			out = append(out, e)
		}
	}
	return out
}

// Reset empties the log, keeping its memory.
func (l *Log) Reset() { l.Events = l.Events[:0] }
