package codec

import (
	"bytes"
	"encoding/json"
	"slices"
	"strconv"
	"sync"

	"tapis/game"
	"tapis/wire"
)

// The "state" message, built without encoding/json's reflection where it
// can be: it is the message of every move, to every connection. The parts
// every seat shares (match, n, status, by, standin, to_move, result, rounds,
// turn_left_ms) are written once per position, each seat's view once per
// seat, each event once per move, and each legal move's JSON comes from a
// cache shared by the game's tables. The bytes are those json.Marshal
// gives a wire.State (state_test.go compares the two over random games).

// StateParts is what every seat's state message of one position shares.
type StateParts struct {
	Match, N int
	Status   wire.Status
	By       game.Seat
	Standin  bool
	ToMove   game.Seats
	Result   game.Result
	Rounds   [][]int
	TurnLeft map[game.Seat]int64
}

// StateEncoder writes the state messages of one position, one seat at a
// time. It is pooled: get one with NewStateEncoder, give it back with
// Release once its messages are built (they are fresh slices, which the
// encoder no longer touches).
type StateEncoder struct {
	g     game.Game
	codec *Moves
	st    game.State
	evs   []game.Event
	// head is `{"type":"state",...,"by":N,"view":`, mid `,"to_move":...,
	// "events":` and tail `}` or `,"turn_left_ms":{...}}`.
	head, mid, tail []byte
	// evBuf holds the events encoded so far, evAt each event's place in
	// it ({-1, -1}: not encoded yet).
	evBuf []byte
	evAt  [][2]int
	legal []game.Move
	moves []byte // one seat's legal moves, then its events
	view  []byte // one seat's view, when the game writes it
	out   bytes.Buffer
	enc   *json.Encoder // writes to out
	bad   bool          // a part could not be encoded
}

var stateEncoders = sync.Pool{New: func() any {
	e := &StateEncoder{}
	e.enc = json.NewEncoder(&e.out)
	return e
}}

// NewStateEncoder starts the messages of state st (of game g, whose moves
// codec encodes), after the move whose events are evs.
func NewStateEncoder(g game.Game, codec *Moves, st game.State, p *StateParts, evs []game.Event) *StateEncoder {
	e := stateEncoders.Get().(*StateEncoder)
	e.g, e.codec, e.st, e.evs, e.bad = g, codec, st, evs, false
	b := append(e.head[:0], `{"type":"state","match":`...)
	b = strconv.AppendInt(b, int64(p.Match), 10)
	b = append(b, `,"n":`...)
	b = strconv.AppendInt(b, int64(p.N), 10)
	b = append(b, `,"status":`...)
	b = e.appendString(b, string(p.Status))
	b = append(b, `,"by":`...)
	b = strconv.AppendInt(b, int64(p.By), 10)
	if p.Standin {
		b = append(b, `,"standin":true`...)
	}
	e.head = append(b, `,"view":`...)

	b = append(e.mid[:0], `,"to_move":[`...)
	for i := 0; i < p.ToMove.Len(); i++ {
		if i > 0 {
			b = append(b, ',')
		}
		b = strconv.AppendInt(b, int64(p.ToMove.Nth(i)), 10)
	}
	b = append(b, `],"result":{"round":`...)
	b = strconv.AppendInt(b, int64(p.Result.Rounds), 10)
	b = append(b, `,"scores":`...)
	b = appendInts(b, p.Result.Scores)
	b = append(b, `,"round_scores":`...)
	b = appendInts(b, p.Result.RoundScores)
	b = append(b, `,"winners":`...)
	b = appendInts(b, p.Result.Winners)
	b = append(b, `},"rounds":`...)
	if p.Rounds == nil {
		b = append(b, "null"...)
	} else {
		b = append(b, '[')
		for i, r := range p.Rounds {
			if i > 0 {
				b = append(b, ',')
			}
			b = appendInts(b, r)
		}
		b = append(b, ']')
	}
	e.mid = append(b, `,"events":`...)

	b = e.tail[:0]
	if len(p.TurnLeft) > 0 {
		// encoding/json sorts a map's keys as strings.
		keys := make([]string, 0, len(p.TurnLeft))
		for s := range p.TurnLeft {
			keys = append(keys, strconv.Itoa(int(s)))
		}
		slices.Sort(keys)
		b = append(b, `,"turn_left_ms":{`...)
		for i, k := range keys {
			if i > 0 {
				b = append(b, ',')
			}
			s, _ := strconv.Atoi(k)
			b = append(b, '"')
			b = append(b, k...)
			b = append(b, `":`...)
			b = strconv.AppendInt(b, p.TurnLeft[game.Seat(s)], 10)
		}
		b = append(b, '}')
	}
	e.tail = append(b, '}')

	e.evBuf = e.evBuf[:0]
	e.evAt = e.evAt[:0]
	for range evs {
		e.evAt = append(e.evAt, [2]int{-1, -1})
	}
	return e
}

// Release gives the encoder back to the pool, forgetting the game's
// values it was shown.
func (e *StateEncoder) Release() {
	e.g, e.codec, e.st, e.evs = nil, nil, nil, nil
	if e.out.Cap() > 64<<10 {
		e.out = bytes.Buffer{} // a rare huge message is not kept
	}
	e.out.Reset()
	stateEncoders.Put(e)
}

// Seat builds seat s's message (game.Spectator: a spectator's), a fresh
// slice.
func (e *StateEncoder) Seat(s game.Seat) []byte { return e.AppendSeat(nil, s) }

// AppendSeat appends seat s's message to dst, which may be a buffer the
// caller reuses (the table's broadcast: one pooled buffer a move).
func (e *StateEncoder) AppendSeat(dst []byte, s game.Seat) []byte {
	if e.bad {
		return append(dst, BadEncoding...)
	}
	b := append(e.moves[:0], '[')
	if s != game.Spectator {
		e.legal = e.st.Legal(s, e.legal[:0])
		b = e.codec.AppendLegal(b, e.legal)
	}
	b = append(b, ']')
	nLegal := len(b)
	b = append(b, '[')
	first := true
	for i, ev := range e.evs {
		if !ev.To.Has(s) {
			continue
		}
		js, ok := e.event(i)
		if !ok {
			e.bad = true
			return append(dst, BadEncoding...)
		}
		if !first {
			b = append(b, ',')
		}
		first = false
		b = append(b, js...)
	}
	b = append(b, ']')
	e.moves = b

	// The view last, as event shares out: written by the game if it
	// can (game.ViewAppender), else the only part left to reflection,
	// being each game's own type.
	var view []byte
	if va, ok := e.st.(game.ViewAppender); ok {
		e.view = va.AppendView(e.view[:0], s)
		view = e.view
	} else {
		e.out.Reset()
		if err := e.enc.Encode(e.st.View(s)); err != nil {
			e.bad = true
			return append(dst, BadEncoding...)
		}
		view = bytes.TrimSuffix(e.out.Bytes(), []byte{'\n'})
	}

	const legalKey = `,"legal":`
	msg := slices.Grow(dst, len(e.head)+len(view)+len(legalKey)+len(b)+len(e.mid)+len(e.tail))
	msg = append(msg, e.head...)
	msg = append(msg, view...)
	msg = append(msg, legalKey...)
	msg = append(msg, b[:nLegal]...)
	msg = append(msg, e.mid...)
	msg = append(msg, b[nLegal:]...)
	return append(msg, e.tail...)
}

// event returns event i's JSON, encoding it the first time.
func (e *StateEncoder) event(i int) ([]byte, bool) {
	if at := e.evAt[i]; at[0] >= 0 {
		return e.evBuf[at[0]:at[1]], true
	}
	e.out.Reset()
	if err := e.enc.Encode(e.evs[i].Data); err != nil {
		return nil, false
	}
	start := len(e.evBuf)
	e.evBuf = append(e.evBuf, bytes.TrimSuffix(e.out.Bytes(), []byte{'\n'})...)
	e.evAt[i] = [2]int{start, len(e.evBuf)}
	return e.evBuf[start:], true
}

// appendString appends s as encoding/json writes it: directly when it
// holds nothing to escape, through encoding/json otherwise.
func (e *StateEncoder) appendString(b []byte, s string) []byte {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c < 0x20 || c >= 0x7f || c == '"' || c == '\\' || c == '<' || c == '>' || c == '&' {
			js, _ := json.Marshal(s)
			return append(b, js...)
		}
	}
	b = append(b, '"')
	b = append(b, s...)
	return append(b, '"')
}

// appendInts appends a list of integers (a seat is one) as encoding/json
// does: null for a nil slice.
func appendInts[T ~int](b []byte, xs []T) []byte {
	if xs == nil {
		return append(b, "null"...)
	}
	b = append(b, '[')
	for i, x := range xs {
		if i > 0 {
			b = append(b, ',')
		}
		b = strconv.AppendInt(b, int64(x), 10)
	}
	return append(b, ']')
}
