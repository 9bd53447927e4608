package codec

import (
	"encoding/json"
	"strconv"

	"tapis/wire"
)

// A client message decoded without encoding/json where that is safe: the
// messages of every move have a plain shape ({"type":"move","move":{...},
// "n":12}), and json.Decoder with DisallowUnknownFields cost a few
// allocations and microseconds each. DecodeFast takes only what
// game.DecodeStrict would decode to the same wire.ClientMessage without an error;
// anything else (escapes, non-ASCII text, keys in another case, repeated
// keys, null, a number that is not a plain integer, a move that is not an
// object...) goes to DecodeStrict, which decides, with its own errors.
// FuzzDecodeFast checks the two agree.

// DecodeFast decodes data into m, or says it cannot (ok false, m
// undefined).
func DecodeFast(data []byte, m *wire.ClientMessage) (ok bool) {
	p := fastParser{b: data}
	p.space()
	if !p.eat('{') {
		return false
	}
	var seen uint16
	p.space()
	if p.eat('}') {
		return p.end()
	}
	for {
		p.space()
		key, ok := p.plainString()
		if !ok {
			return false
		}
		p.space()
		if !p.eat(':') {
			return false
		}
		p.space()
		bit := uint16(0)
		switch string(key) {
		case "type":
			bit = 1
			v, ok := p.plainString()
			if !ok {
				return false
			}
			m.Type = internType(v)
		case "move":
			bit = 2
			v, ok := p.object()
			if !ok {
				return false
			}
			m.Move = json.RawMessage(append([]byte(nil), v...))
		case "seat", "n":
			bit = 4
			if key[0] == 'n' {
				bit = 8
			}
			v, ok := p.integer()
			if !ok || int64(int(v)) != v {
				return false
			}
			x := int(v)
			if bit == 4 {
				m.Seat = &x
			} else {
				m.N = &x
			}
		case "id":
			bit = 16
			v, ok := p.integer()
			if !ok {
				return false
			}
			m.ID = &v
		case "bot", "text", "name", "spectator":
			v, ok := p.plainString()
			if !ok {
				return false
			}
			switch key[0] {
			case 'b':
				bit, m.Bot = 32, string(v)
			case 't':
				bit, m.Text = 64, string(v)
			case 'n':
				bit, m.Name = 128, string(v)
			default:
				bit, m.Spectator = 256, string(v)
			}
		default:
			return false
		}
		if seen&bit != 0 {
			return false
		}
		seen |= bit
		p.space()
		if p.eat('}') {
			return p.end()
		}
		if !p.eat(',') {
			return false
		}
	}
}

// internType returns the known message types without allocating.
func internType(v []byte) string {
	for _, t := range [...]string{wire.TypeMove, wire.TypePing, wire.TypeAgain, wire.TypeSeatBot, wire.TypeChat, wire.TypeHello, wire.TypeMute} {
		if string(v) == t {
			return t
		}
	}
	return string(v)
}

type fastParser struct {
	b []byte
	i int
}

func (p *fastParser) space() {
	for p.i < len(p.b) {
		switch p.b[p.i] {
		case ' ', '\t', '\n', '\r':
			p.i++
		default:
			return
		}
	}
}

func (p *fastParser) eat(c byte) bool {
	if p.i < len(p.b) && p.b[p.i] == c {
		p.i++
		return true
	}
	return false
}

// end reports whether only white space follows.
func (p *fastParser) end() bool {
	p.space()
	return p.i == len(p.b)
}

// plainString reads a string of printable ASCII without escapes, whose
// bytes are then its value.
func (p *fastParser) plainString() ([]byte, bool) {
	if !p.eat('"') {
		return nil, false
	}
	start := p.i
	for ; p.i < len(p.b); p.i++ {
		switch c := p.b[p.i]; {
		case c == '"':
			p.i++
			return p.b[start : p.i-1], true
		case c < 0x20 || c >= 0x7f || c == '\\':
			return nil, false
		}
	}
	return nil, false
}

// integer reads -?(0|[1-9][0-9]*) of at most 18 digits, which an int64
// holds.
func (p *fastParser) integer() (int64, bool) {
	start := p.i
	p.eat('-')
	digits := p.i
	for p.i < len(p.b) && p.b[p.i] >= '0' && p.b[p.i] <= '9' {
		p.i++
	}
	n := p.i - digits
	if n == 0 || n > 18 || n > 1 && p.b[digits] == '0' {
		return 0, false
	}
	if p.i < len(p.b) {
		if c := p.b[p.i]; c == '.' || c == 'e' || c == 'E' {
			return 0, false
		}
	}
	v, err := strconv.ParseInt(string(p.b[start:p.i]), 10, 64)
	return v, err == nil
}

// object reads a JSON object, returning its bytes: its end found by
// counting brackets outside strings, its validity checked by json.Valid.
func (p *fastParser) object() ([]byte, bool) {
	if p.i >= len(p.b) || p.b[p.i] != '{' {
		return nil, false
	}
	start, depth, in := p.i, 0, false
	for ; p.i < len(p.b); p.i++ {
		c := p.b[p.i]
		switch {
		case in:
			switch c {
			case '\\':
				p.i++
			case '"':
				in = false
			}
		case c == '"':
			in = true
		case c == '{' || c == '[':
			depth++
		case c == '}' || c == ']':
			if depth--; depth == 0 {
				p.i++
				v := p.b[start:p.i]
				return v, json.Valid(v)
			}
		}
	}
	return nil, false
}
