package games_test

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os"
	"regexp"
	"slices"
	"sort"
	"strings"
	"testing"

	"tapis/game"
	"tapis/games"
	"tapis/games/limits"
)

// docsViews is the document a bot author in another language reads for
// each game's view, events and legal moves.
const docsViews = "../docs/views.md"

// TestViewsDocumented keeps docs/views.md true: the shape of every JSON
// example it marks (a ```json block right after an HTML comment such as
// <!-- view: cabo seat -->) is compared with the shape of what the engines
// send in seeded random games, both ways. A field, an array element or a
// type (null included) that an engine sends and no example of that game
// and kind shows fails, and so does one that an example shows and no
// sampled state sent (a field removed from an engine, or never sent at
// all). Several examples of one kind add up: a mid-game view and the
// final one, the drawer's draw and the others'. The tables of fields and
// of events are checked too (checkTables).
func TestViewsDocumented(t *testing.T) {
	doc := readDocShapes(t, docsViews)
	seen := map[string]*shape{}
	for _, g := range games.All() {
		for _, p := range plays(g) {
			samplePlay(t, g, p, func(key string, data []byte, _ game.State) { add(t, seen, key, data) })
		}
		for _, kind := range []string{"view " + g.Name() + " seat", "view " + g.Name() + " spectator"} {
			if doc[kind] == nil {
				t.Errorf("%s: no example marked <!-- %s --> in %s", g.Name(), strings.Replace(kind, " ", ": ", 1), docsViews)
			}
		}
	}
	for key, e := range unreached {
		add(t, seen, key, mustJSON(t, e))
	}
	checkTables(t, doc, seen)
	for _, key := range unionKeys(doc, seen) {
		d, s := doc[key], seen[key]
		switch {
		case d == nil:
			t.Errorf("%s: sent by the engine (e.g. %s), but %s has no example for it", key, s.example, docsViews)
		case s == nil:
			t.Errorf("%s: documented in %s, but no sampled game sent it", key, docsViews)
		default:
			for _, p := range s.missingFrom(d, "") {
				t.Errorf("%s: the engine sends %s, which %s does not show (e.g. in %s)", key, p, docsViews, s.example)
			}
			for _, p := range d.missingFrom(s, "") {
				t.Errorf("%s: %s shows %s, which no sampled game sent", key, docsViews, p)
			}
		}
	}
}

// unreached are events that random games do not reach, as the engine
// builds them: Limits' pass needs a seat with no card while only it has
// placed (games/limits/apply.go, endTurn).
var unreached = map[string]any{
	"event limits pass all": limits.Event{Type: "pass", Seat: 1},
}

// play is one seeded random game to sample. A move whose JSON holds a
// string of prefer is chosen whenever there is one, one that holds a
// string of avoid only when nothing else is legal: that is how the rarer
// events are reached (a Cabo reshuffle needs long rounds, a Da Capo! win
// by an emptied personal pile needs builds from it). A play with stop
// ends after that many moves, over or not.
type play struct {
	players       int
	options       string
	seed          uint64
	prefer, avoid []string
	stop          int
}

// plays are the games sampled for g: each table size, with the default
// options and with options that change what is sent (Cabo's max_resets
// shows as a number either way; Papayoo's rounds and Da Capo!'s
// match_target end a match sooner, so that its end is sampled too).
func plays(g game.Game) []play {
	lo, hi := g.Players()
	var out []play
	for n := lo; n <= hi; n++ {
		out = append(out, play{players: n, seed: uint64(100 + n)})
	}
	switch g.Name() {
	case "cabo":
		out = append(out,
			play{players: 3, options: `{"hand_size":6,"swap_opponents":true,"max_resets":1}`, seed: 7},
			play{players: 2, seed: 8, prefer: []string{`"peek"`, `"spy"`}, avoid: []string{`"cabo"`}, stop: 2000})
	case "papayoo":
		out = append(out, play{players: 4, options: `{"rounds":2}`, seed: 7})
	case "dacapo":
		out = append(out,
			play{players: 2, options: `{"pile_size":5,"match_target":1}`, seed: 7},
			play{players: 5, seed: 5, prefer: []string{`"end"`}},
			play{players: 3, seed: 6, options: `{"pile_size":10,"match_target":15}`, prefer: []string{`"from":"stock"`}})
	}
	return out
}

// maxMoves bounds a random game; every sampled game ends well before.
const maxMoves = 20000

// samplePlay plays p to its end with random legal moves, giving visit
// every view (each seat's and a spectator's, at every position), every
// event by type and audience, and every legal move by type, each as the
// server writes it, with its key and the position it was sent in.
func samplePlay(t *testing.T, g game.Game, p play, visit func(key string, data []byte, st game.State)) {
	t.Helper()
	var log game.Log
	st, err := g.New(game.Config{Players: p.players, Options: json.RawMessage(p.options), Seed: p.seed, Log: &log})
	if err != nil {
		t.Fatalf("%s %+v: %v", g.Name(), p, err)
	}
	name := g.Name()
	r := game.NewRNG(p.seed)
	var buf []game.Move
	for i := 0; ; i++ {
		for _, e := range log.Events {
			visit(eventKey(t, name, e), mustJSON(t, e.Data), st)
		}
		log.Reset()
		seats := append([]game.Seat{game.Spectator}, seatsOf(p.players)...)
		for _, s := range seats {
			for _, v := range viewJSON(t, st, s) {
				visit(viewKey(name, s), v, st)
			}
		}
		if st.Over() || i == p.stop && p.stop > 0 {
			return
		}
		if i == maxMoves {
			t.Fatalf("%s %+v: not over after %d random moves", name, p, maxMoves)
		}
		for _, s := range st.ToMove().List() {
			buf = st.Legal(s, buf[:0])
			for _, m := range buf {
				data, err := g.MarshalMove(m)
				if err != nil {
					t.Fatalf("%s: a legal move does not encode: %v", name, err)
				}
				visit("legal "+name+" "+typeOf(t, data), data, st)
			}
		}
		to := st.ToMove()
		s := to.Nth(r.IntN(to.Len()))
		buf = p.choices(t, g, st.Legal(s, buf[:0]))
		if err := st.Apply(s, buf[r.IntN(len(buf))], &log); err != nil {
			t.Fatalf("%s %+v: a legal move refused: %v", name, p, err)
		}
	}
}

// choices keeps, of the legal moves, those p would choose among.
func (p play) choices(t *testing.T, g game.Game, legal []game.Move) []game.Move {
	if len(p.prefer) == 0 && len(p.avoid) == 0 {
		return legal
	}
	var preferred, rest []game.Move
	for _, m := range legal {
		data, err := g.MarshalMove(m)
		if err != nil {
			t.Fatal(err)
		}
		has := func(s string) bool { return strings.Contains(string(data), s) }
		switch {
		case slices.ContainsFunc(p.prefer, has):
			preferred = append(preferred, m)
		case !slices.ContainsFunc(p.avoid, has):
			rest = append(rest, m)
		}
	}
	switch {
	case len(preferred) > 0:
		return preferred
	case len(rest) > 0:
		return rest
	}
	return legal
}

func seatsOf(n int) []game.Seat {
	out := make([]game.Seat, n)
	for i := range out {
		out[i] = game.Seat(i)
	}
	return out
}

// viewJSON is seat s's view as json.Marshal writes it and, for a game
// that writes its own (game.ViewAppender, what the server sends), as it
// writes it.
func viewJSON(t *testing.T, st game.State, s game.Seat) [][]byte {
	out := [][]byte{mustJSON(t, st.View(s))}
	if va, ok := st.(game.ViewAppender); ok {
		out = append(out, va.AppendView(nil, s))
	}
	return out
}

func viewKey(name string, s game.Seat) string {
	if s == game.Spectator {
		return "view " + name + " spectator"
	}
	return "view " + name + " seat"
}

// eventKey names an event by its game, type and audience: "all" (every
// seat and spectators), "seat" (the seat in its seat field alone) or
// "others" (everyone but that seat, spectators included). It also checks
// what docs/views.md says of every event: a seat field, and no field sent
// as null.
func eventKey(t *testing.T, name string, e game.Event) string {
	data := mustJSON(t, e.Data)
	var fields map[string]any
	if err := json.Unmarshal(data, &fields); err != nil {
		t.Fatalf("%s: an event that is not an object: %s", name, data)
	}
	seat, ok := fields["seat"].(float64)
	if !ok {
		t.Fatalf("%s: an event without a seat: %s", name, data)
	}
	for f, v := range fields {
		if v == nil {
			t.Errorf("%s: an event with %q null: %s", name, f, data)
		}
	}
	s := game.Seat(seat)
	var to string
	switch {
	case e.To == game.Public:
		to = "all"
	case e.To == game.Only(s):
		to = "seat"
	case e.To == game.Public&^game.Only(s):
		to = "others"
	default:
		t.Fatalf("%s: %s to %v, an audience docs/views.md has no word for", name, data, e.To.List())
	}
	return "event " + name + " " + typeOf(t, data) + " " + to
}

func typeOf(t *testing.T, data []byte) string {
	var v struct {
		Type string `json:"type"`
	}
	if err := json.Unmarshal(data, &v); err != nil || v.Type == "" {
		t.Fatalf("no type in %s", data)
	}
	return v.Type
}

func mustJSON(t *testing.T, v any) []byte {
	data, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return data
}

func add(t *testing.T, m map[string]*shape, key string, data []byte) {
	var v any
	if err := json.Unmarshal(data, &v); err != nil {
		t.Fatalf("%s: %v in %s", key, err, data)
	}
	if m[key] == nil {
		ex := string(data)
		if len(ex) > 160 {
			ex = ex[:160] + "…"
		}
		m[key] = &shape{example: ex}
	}
	m[key].add(v)
}

// checkTables checks the document's tables against its examples and the
// engines: a view's table (after <!-- fields: GAME -->) names, in its first
// column, every top-level field of that game's views, seat's and
// spectator's, and nothing else; an events table (after <!-- events:
// GAME -->) has a row per type and audience ("`draw` | seat"), one for
// each the engines send.
func checkTables(t *testing.T, doc, seen map[string]*shape) {
	tables := readDocTables(t, docsViews)
	for _, g := range games.All() {
		name := g.Name()
		fields := tables["fields "+name]
		want := map[string]bool{}
		for _, kind := range []string{"seat", "spectator"} {
			if sh := doc["view "+name+" "+kind]; sh != nil {
				for f := range sh.fields {
					want[f] = true
				}
			}
		}
		sameSet(t, name+"'s view", want, name+"'s table of view fields in "+docsViews, fields)
		rows := tables["events "+name]
		sent := map[string]bool{}
		for key := range seen {
			if rest, ok := strings.CutPrefix(key, "event "+name+" "); ok {
				sent[rest] = true
			}
		}
		sameSet(t, name+"'s events (type and audience)", sent, name+"'s table of events in "+docsViews, rows)
	}
}

// sameSet reports each name that one of two sets holds and the other not.
func sameSet(t *testing.T, what string, a map[string]bool, whatB string, b map[string]bool) {
	t.Helper()
	for _, k := range sortedKeys(a) {
		if !b[k] {
			t.Errorf("%s has %q, which %s lacks", what, k, whatB)
		}
	}
	for _, k := range sortedKeys(b) {
		if !a[k] {
			t.Errorf("%s has %q, which %s lacks", whatB, k, what)
		}
	}
}

// tableMarker is the HTML comment before a table of fields or events.
var tableMarker = regexp.MustCompile("^<!-- (fields|events): ([a-z]+) -->$")

// readDocTables reads the marked tables: by "fields GAME", the names in
// the first column; by "events GAME", "TYPE AUDIENCE" from the first two.
func readDocTables(t *testing.T, path string) map[string]map[string]bool {
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]map[string]bool{}
	var key string
	for i, text := range strings.Split(string(data), "\n") {
		if m := tableMarker.FindStringSubmatch(text); m != nil {
			key = m[1] + " " + m[2]
			if out[key] != nil {
				t.Fatalf("%s:%d: a second table %q", path, i+1, key)
			}
			out[key] = map[string]bool{}
			continue
		}
		if key == "" {
			continue
		}
		if !strings.HasPrefix(text, "|") {
			key = ""
			continue
		}
		cells := strings.Split(text, "|")
		first := strings.TrimSpace(cells[1])
		if !strings.HasPrefix(first, "`") {
			continue // the header and the line under it
		}
		row := strings.Trim(first, "`")
		if strings.HasPrefix(key, "events ") {
			row += " " + strings.TrimSpace(cells[2])
		}
		out[key][row] = true
	}
	return out
}

// marker is the HTML comment that names the JSON block after it.
var marker = regexp.MustCompile(`^<!-- (view|event|legal): ([a-z_ ]+?) -->$`)

// readDocShapes reads every marked JSON block of the document, by key
// ("view cabo seat", "event cabo draw seat", "legal cabo draw"). A legal
// block is a list of moves, each counted under its type. A ```json block
// without a marker is an error: every example is checked.
func readDocShapes(t *testing.T, path string) map[string]*shape {
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	out := map[string]*shape{}
	sc := bufio.NewScanner(f)
	var pending string // the key of the last marker, until its block
	var block []string
	in := false
	line := 0
	for sc.Scan() {
		line++
		text := sc.Text()
		switch {
		case in && strings.TrimSpace(text) == "```":
			in = false
			data := []byte(strings.Join(block, "\n"))
			if strings.HasPrefix(pending, "legal ") {
				var moves []json.RawMessage
				if err := json.Unmarshal(data, &moves); err != nil {
					t.Fatalf("%s:%d: %s: not a list of moves: %v", path, line, pending, err)
				}
				for _, m := range moves {
					add(t, out, pending+" "+typeOf(t, m), m)
				}
			} else {
				add(t, out, pending, data)
			}
			pending, block = "", nil
		case in:
			block = append(block, text)
		case strings.TrimSpace(text) == "```json":
			if pending == "" {
				t.Fatalf("%s:%d: a JSON block without a <!-- view|event|legal: … --> marker", path, line)
			}
			in = true
		case marker.MatchString(strings.TrimSpace(text)):
			m := marker.FindStringSubmatch(strings.TrimSpace(text))
			words := strings.Fields(m[2])
			want := map[string]int{"view": 2, "event": 3, "legal": 1}[m[1]]
			if len(words) != want {
				t.Fatalf("%s:%d: %q: a %s marker names %d words", path, line, text, m[1], want)
			}
			if m[1] == "view" && words[1] != "seat" && words[1] != "spectator" {
				t.Fatalf("%s:%d: %q: a view is a seat's or a spectator's", path, line, text)
			}
			if m[1] == "event" && words[2] != "all" && words[2] != "seat" && words[2] != "others" {
				t.Fatalf("%s:%d: %q: an event goes to all, a seat or the others", path, line, text)
			}
			pending = m[1] + " " + strings.Join(words, " ")
		case regexp.MustCompile(`^<!-- *(view|event|legal)\b`).MatchString(text):
			t.Fatalf("%s:%d: %q: a marker is <!-- view: GAME seat|spectator -->, <!-- event: GAME TYPE all|seat|others --> or <!-- legal: GAME -->", path, line, text)
		case pending != "" && strings.TrimSpace(text) != "":
			t.Fatalf("%s:%d: the marker %q is not followed by a ```json block", path, line, pending)
		}
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	if in || pending != "" {
		t.Fatalf("%s: a marked block is not closed", path)
	}
	return out
}

// shape is the JSON types seen at one place of a value: for objects, the
// shape of each field; for arrays, the shape of their elements.
type shape struct {
	kinds   map[string]bool // "null", "bool", "number", "string", "object", "array"
	fields  map[string]*shape
	elems   *shape
	example string // one whole value, for the messages
}

func (sh *shape) add(v any) {
	if sh.kinds == nil {
		sh.kinds = map[string]bool{}
	}
	switch v := v.(type) {
	case nil:
		sh.kinds["null"] = true
	case bool:
		sh.kinds["bool"] = true
	case float64:
		sh.kinds["number"] = true
	case string:
		sh.kinds["string"] = true
	case map[string]any:
		sh.kinds["object"] = true
		if sh.fields == nil {
			sh.fields = map[string]*shape{}
		}
		for k, fv := range v {
			if sh.fields[k] == nil {
				sh.fields[k] = &shape{}
			}
			sh.fields[k].add(fv)
		}
	case []any:
		sh.kinds["array"] = true
		for _, e := range v {
			if sh.elems == nil {
				sh.elems = &shape{}
			}
			sh.elems.add(e)
		}
	default:
		panic(fmt.Sprintf("JSON value of type %T", v))
	}
}

// missingFrom lists what sh holds and other does not, each as a path and
// a type: ".last_round.hands[][] as number".
func (sh *shape) missingFrom(other *shape, path string) []string {
	var out []string
	for _, k := range sortedKeys(sh.kinds) {
		if other == nil || !other.kinds[k] {
			where := path
			if where == "" {
				where = "the value"
			}
			out = append(out, fmt.Sprintf("%s as %s", where, k))
		}
	}
	if other == nil {
		return out
	}
	for _, f := range sortedKeys(sh.fields) {
		var o *shape
		if other.fields != nil {
			o = other.fields[f]
		}
		out = append(out, sh.fields[f].missingFrom(o, path+"."+f)...)
	}
	if sh.elems != nil {
		out = append(out, sh.elems.missingFrom(other.elems, path+"[]")...)
	}
	return out
}

func sortedKeys[V any](m map[string]V) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

func unionKeys(a, b map[string]*shape) []string {
	all := map[string]bool{}
	for k := range a {
		all[k] = true
	}
	for k := range b {
		all[k] = true
	}
	return sortedKeys(all)
}
