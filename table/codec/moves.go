package codec

import (
	"bytes"
	"encoding/json"
	"sync"

	"tapis/game"
)

// Moves caches a game's moves' JSON, both ways, for all its tables: a
// state message lists every legal move, and a client sends one of them
// back, so that each move of a game went through encoding/json's
// reflection in MarshalMove and DecodeStrict again and again. A game's
// codec is pure (the same move always gives the same JSON), so a cache
// never goes stale; it stops growing at codecMax moves, beyond which the
// game's own codec is called.
type Moves struct {
	g  game.Game
	mu sync.RWMutex
	// js is a move's JSON as MarshalMove gives it (what the store keeps);
	// wire is the same as encoding/json writes a json.RawMessage (what
	// the legal moves list): compact, HTML-escaped; usually the same
	// bytes. back maps a move's JSON to the move, for the JSON that
	// UnmarshalMove was seen to read as that move.
	js   map[game.Move][]byte
	wire map[game.Move][]byte
	back map[string]game.Move
}

// codecMax bounds each game's cache: a few hundred distinct moves are
// played in practice.
const codecMax = 4096

var codecs sync.Map // game name → *Moves

// For returns game g's codec.
func For(g game.Game) *Moves {
	if c, ok := codecs.Load(g.Name()); ok {
		return c.(*Moves)
	}
	c, _ := codecs.LoadOrStore(g.Name(), &Moves{g: g,
		js: map[game.Move][]byte{}, wire: map[game.Move][]byte{}, back: map[string]game.Move{}})
	return c.(*Moves)
}

// Marshal is g.MarshalMove(m). The slice is shared: its capacity is its
// length, so that an append copies, and it must never be written.
func (c *Moves) Marshal(m game.Move) ([]byte, error) {
	c.mu.RLock()
	js, ok := c.js[m]
	c.mu.RUnlock()
	if ok {
		return js, nil
	}
	js, _, err := c.learn(m)
	return js, err
}

// AppendLegal appends the wire JSON of moves, comma-separated, leaving
// out any the game cannot encode (as the state messages always did).
func (c *Moves) AppendLegal(b []byte, moves []game.Move) []byte {
	first := true
	c.mu.RLock()
	for _, m := range moves {
		w, ok := c.wire[m]
		if !ok {
			c.mu.RUnlock()
			var err error
			if _, w, err = c.learn(m); err != nil {
				c.mu.RLock()
				continue
			}
			c.mu.RLock()
		}
		if !first {
			b = append(b, ',')
		}
		first = false
		b = append(b, w...)
	}
	c.mu.RUnlock()
	return b
}

// Unmarshal is g.UnmarshalMove(data), without decoding the JSON of a move
// the server has listed before.
func (c *Moves) Unmarshal(data []byte) (game.Move, error) {
	c.mu.RLock()
	m, ok := c.back[string(data)]
	c.mu.RUnlock()
	if ok {
		return m, nil
	}
	return c.g.UnmarshalMove(data)
}

// learn encodes m with the game's codec and keeps the result while the
// cache has room. The reverse entry is kept only if the game decodes the
// JSON back to m, so that Unmarshal answers exactly as UnmarshalMove.
func (c *Moves) learn(m game.Move) (js, wire []byte, err error) {
	js, err = c.g.MarshalMove(m)
	if err != nil {
		return nil, nil, err
	}
	js = js[:len(js):len(js)]
	wire = js
	var buf bytes.Buffer
	if json.Compact(&buf, js) == nil {
		var esc bytes.Buffer
		json.HTMLEscape(&esc, buf.Bytes())
		if !bytes.Equal(esc.Bytes(), js) {
			wire = esc.Bytes()
		}
	}
	back, berr := c.g.UnmarshalMove(js)
	c.mu.Lock()
	defer c.mu.Unlock()
	if len(c.js) < codecMax {
		c.js[m], c.wire[m] = js, wire
		if berr == nil && back == m {
			c.back[string(js)] = m
		}
	}
	return js, wire, nil
}
