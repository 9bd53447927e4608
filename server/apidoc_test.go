package server_test

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"maps"
	"net/http"
	"os"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/coder/websocket"

	"tapis/server"
)

var apidocPrint = flag.Bool("apidoc.print", false, "print the answers of docs/API.md's examples as the server gives them")

// step is one marked part of docs/API.md: a directive of an HTML comment
// (`<!-- example: POST /api/tables -->`) and the JSON block that follows
// it, if any, before the next directive.
type step struct {
	line int    // of the comment, for messages
	kind string // example, answer, send, receive
	arg  string // what follows "kind:"
	body string // the JSON block or the comment's inline JSON; "" if none
}

var directive = regexp.MustCompile(`^<!-- (example|answer|send|receive): (.*?) -->$`)

// apidocSteps reads the marked steps of doc, in order, and fails on a JSON
// block that belongs to none: every block of the page is run.
func apidocSteps(t *testing.T, doc string) []step {
	t.Helper()
	var steps []step
	lines := strings.Split(doc, "\n")
	open := false // the last step may take a block
	for i := 0; i < len(lines); i++ {
		line := strings.TrimSpace(lines[i])
		if m := directive.FindStringSubmatch(line); m != nil {
			s := step{line: i + 1, kind: m[1], arg: m[2]}
			// An example may carry its request inline, when the page says it in words.
			if method, rest, ok := strings.Cut(s.arg, " "); ok && s.kind == "example" {
				if path, body, ok := strings.Cut(rest, " "); ok && strings.HasPrefix(body, "{") {
					s.arg, s.body = method+" "+path, body
					// The page must say it in words: the comment is hidden.
					if !strings.Contains(paragraphBefore(lines, i), "`"+body+"`") {
						t.Errorf("docs/API.md:%d: the request %s is not written, in backquotes, in the paragraph above", i+1, body)
					}
				}
			}
			steps = append(steps, s)
			open = s.body == ""
			continue
		}
		if !strings.HasPrefix(line, "```") {
			continue
		}
		lang := strings.TrimPrefix(line, "```")
		var block []string
		for i++; i < len(lines) && strings.TrimSpace(lines[i]) != "```"; i++ {
			block = append(block, lines[i])
		}
		if lang != "json" {
			continue
		}
		if !open || len(steps) == 0 {
			t.Errorf("docs/API.md:%d: a JSON block no example marks: mark it, so that the test runs it", i-len(block))
			continue
		}
		steps[len(steps)-1].body = strings.Join(block, "\n")
		open = false
	}
	return steps
}

// paragraphBefore returns the lines of the paragraph above line i (from
// 0), joined by spaces.
func paragraphBefore(lines []string, i int) string {
	j := i
	for j > 0 && strings.TrimSpace(lines[j-1]) == "" {
		j--
	}
	k := j
	for k > 0 && strings.TrimSpace(lines[k-1]) != "" {
		k--
	}
	return strings.Join(lines[k:j], " ")
}

// TestAPIExamples runs the examples of docs/API.md as written, in the
// page's order, against a real server (newHarness: a memory store, seeds
// counting from 1, bots moving at once), as a bot would send them: each
// request, then its documented answer compared with the server's (see
// matchJSON for what "the same" means). Placeholders `{name}` in requests
// are filled from earlier answers, where the same placeholder stood.
//
// Every JSON block of the page must follow one of these marks (HTML
// comments, one a line, which Markdown does not show):
//
//	<!-- example: POST /api/tables -->       the block is the request's body
//	<!-- example: GET /api/games -->         no body: the answer follows at once
//	<!-- example: POST /api/tables {…} -->   the body inline, when the paragraph
//	                                         above says it in backquotes
//	<!-- answer: 201 -->                     the status, and the answer's block
//	<!-- example: WS robot /api/tables/{robot_table}/ws?token={robot_token} -->
//	                                         opens the WebSocket named robot
//	                                         (answer: 101), or is refused
//	                                         (answer: 403 and the body)
//	<!-- send: robot -->                     the block is a message sent on it
//	<!-- receive: robot -->                  the next message of the block's
//	                                         type (others are skipped)
//
// `go test ./server -run TestAPIExamples -args -apidoc.print` prints what
// the server answers to each, to write a new example from.
func TestAPIExamples(t *testing.T) {
	b, err := os.ReadFile("../docs/API.md")
	if err != nil {
		t.Fatal(err)
	}
	runAPIExamples(t, apidocSteps(t, string(b)))
}

// apidocRun is the state of one run of the page's examples.
type apidocRun struct {
	t     *testing.T
	h     *harness
	vars  map[string]string
	conns map[string]*websocket.Conn
	last  *http.Response // of the last example, for its answer
	lastB []byte
	sent  int // the line of the last example, for messages
}

func runAPIExamples(t *testing.T, steps []step) {
	if len(steps) == 0 {
		t.Fatal("docs/API.md marks no example")
	}
	r := &apidocRun{t: t, h: newHarness(t, server.Config{}), vars: map[string]string{}, conns: map[string]*websocket.Conn{}}
	for i, s := range steps {
		switch s.kind {
		case "example":
			r.example(s)
			if i+1 == len(steps) || steps[i+1].kind != "answer" {
				t.Fatalf("docs/API.md:%d: an example without its answer", s.line)
			}
		case "answer":
			if r.last == nil {
				t.Fatalf("docs/API.md:%d: an answer without its example", s.line)
			}
			r.answer(s)
			r.last = nil
		case "send":
			r.send(s)
		case "receive":
			r.receive(s)
		}
	}
}

// fill replaces the placeholders of s by their values.
func (r *apidocRun) fill(line int, s string) string {
	return placeholder.ReplaceAllStringFunc(s, func(p string) string {
		v, ok := r.vars[p[1:len(p)-1]]
		if !ok {
			r.t.Fatalf("docs/API.md:%d: %s is used before an answer gives it", line, p)
		}
		return v
	})
}

var (
	placeholder       = regexp.MustCompile(`\{[a-z_]+\}`)
	quotedPlaceholder = regexp.MustCompile(`\\\{[a-z_]+\\\}`)
)

// example sends an HTTP request, or opens a WebSocket: "WS name path".
func (r *apidocRun) example(s step) {
	r.t.Helper()
	method, path, _ := strings.Cut(s.arg, " ")
	if method == "WS" {
		name, path, _ := strings.Cut(path, " ")
		r.dialWS(s, name, r.fill(s.line, path))
		return
	}
	var body io.Reader
	if s.body != "" {
		body = strings.NewReader(r.fill(s.line, s.body))
	}
	req, err := http.NewRequest(method, r.h.hs.URL+r.fill(s.line, path), body)
	if err != nil {
		r.t.Fatalf("docs/API.md:%d: %v", s.line, err)
	}
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	r.do(s, req)
}

func (r *apidocRun) do(s step, req *http.Request) {
	r.t.Helper()
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		r.t.Fatalf("docs/API.md:%d: %v", s.line, err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		r.t.Fatalf("docs/API.md:%d: %v", s.line, err)
	}
	r.last, r.lastB, r.sent = resp, b, s.line
}

// dialWS opens the connection named name. A connection refused is the
// example's answer, as for an HTTP request.
func (r *apidocRun) dialWS(s step, name, path string) {
	r.t.Helper()
	url := "ws" + strings.TrimPrefix(r.h.hs.URL, "http") + path
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	ws, resp, err := websocket.Dial(ctx, url, nil)
	if err != nil {
		if resp == nil {
			r.t.Fatalf("docs/API.md:%d: %v", s.line, err)
		}
		// The library keeps a little of the refusal's body; ask again
		// without upgrading, as the refusal comes before the upgrade.
		req, _ := http.NewRequest("GET", r.h.hs.URL+path, nil)
		r.do(s, req)
		return
	}
	ws.SetReadLimit(1 << 22)
	r.t.Cleanup(func() { ws.CloseNow() })
	r.conns[name] = ws
	// The answer of an open connection is what it receives.
	r.last, r.lastB, r.sent = &http.Response{StatusCode: http.StatusSwitchingProtocols}, nil, s.line
}

// answer checks the last example's answer: "answer: 201", then its body.
func (r *apidocRun) answer(s step) {
	r.t.Helper()
	want, err := strconv.Atoi(s.arg)
	if err != nil {
		r.t.Fatalf("docs/API.md:%d: answer %q is no status", s.line, s.arg)
	}
	if *apidocPrint {
		fmt.Printf("docs/API.md:%d: %d %s\n", s.line, r.last.StatusCode, r.lastB)
	}
	if r.last.StatusCode != want {
		r.t.Fatalf("docs/API.md:%d: the example of line %d answers %d %s, not %d", s.line, r.sent, r.last.StatusCode, r.lastB, want)
	}
	if s.body == "" {
		return
	}
	r.check(s, r.lastB)
}

// check compares a documented JSON block with what the server sent.
func (r *apidocRun) check(s step, got []byte) {
	r.t.Helper()
	var doc, have any
	if err := json.Unmarshal([]byte(s.body), &doc); err != nil {
		r.t.Fatalf("docs/API.md:%d: the documented answer is not JSON: %v", s.line, err)
	}
	if err := json.Unmarshal(got, &have); err != nil {
		r.t.Fatalf("docs/API.md:%d: the server's answer is not JSON: %v: %s", s.line, err, got)
	}
	if err := matchJSON(doc, have, "", r.vars); err != nil {
		report := r.t.Fatalf
		if *apidocPrint {
			report = r.t.Errorf // print every answer, to write the page from
		}
		report("docs/API.md:%d: %v\nthe server sent %s", s.line, err, got)
	}
}

// send writes a message on a connection: "send: name".
func (r *apidocRun) send(s step) {
	r.t.Helper()
	ws := r.conns[s.arg]
	if ws == nil {
		r.t.Fatalf("docs/API.md:%d: no connection %q", s.line, s.arg)
	}
	if err := ws.Write(context.Background(), websocket.MessageText, []byte(r.fill(s.line, s.body))); err != nil {
		r.t.Fatalf("docs/API.md:%d: %v", s.line, err)
	}
}

// receive reads a connection's messages until one of the documented
// block's type, which it checks: "receive: name". Messages of other types
// (a table's, watchers', chat's) come when they will, and are skipped.
func (r *apidocRun) receive(s step) {
	r.t.Helper()
	ws := r.conns[s.arg]
	if ws == nil {
		r.t.Fatalf("docs/API.md:%d: no connection %q", s.line, s.arg)
	}
	var want struct{ Type string }
	if err := json.Unmarshal([]byte(s.body), &want); err != nil || want.Type == "" {
		r.t.Fatalf("docs/API.md:%d: a received message without a type", s.line)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	for {
		_, b, err := ws.Read(ctx)
		if err != nil {
			r.t.Fatalf("docs/API.md:%d: waiting for a %q: %v", s.line, want.Type, err)
		}
		var got struct{ Type string }
		json.Unmarshal(b, &got)
		if got.Type != want.Type {
			continue
		}
		if *apidocPrint {
			fmt.Printf("docs/API.md:%d: %s\n", s.line, b)
		}
		r.check(s, b)
		return
	}
}

// matchJSON reports how have differs from the documented doc: the same
// fields, the same JSON types and the same values, recursively, arrays of
// the same length, except for strings that cannot be known in advance:
// a documented string with placeholders (`"{table}"`, `"/t/{table}"`)
// matches any string of that form, and the placeholders take the values
// found, or must equal those taken before; a documented time (RFC 3339)
// matches any time.
func matchJSON(doc, have any, at string, vars map[string]string) error {
	if at == "" {
		at = "the answer"
	}
	switch d := doc.(type) {
	case map[string]any:
		h, ok := have.(map[string]any)
		if !ok {
			return fmt.Errorf("%s: documented an object, got %s", at, jsonType(have))
		}
		for _, k := range slices.Sorted(maps.Keys(d)) {
			if _, ok := h[k]; !ok {
				return fmt.Errorf("%s: documented field %q is not sent", at, k)
			}
			if err := matchJSON(d[k], h[k], at+"."+k, vars); err != nil {
				return err
			}
		}
		for _, k := range slices.Sorted(maps.Keys(h)) {
			if _, ok := d[k]; !ok {
				return fmt.Errorf("%s: field %q is sent but not documented", at, k)
			}
		}
	case []any:
		h, ok := have.([]any)
		if !ok {
			return fmt.Errorf("%s: documented an array, got %s", at, jsonType(have))
		}
		if len(h) != len(d) {
			return fmt.Errorf("%s: documented %d elements, got %d", at, len(d), len(h))
		}
		for i := range d {
			if err := matchJSON(d[i], h[i], fmt.Sprintf("%s[%d]", at, i), vars); err != nil {
				return err
			}
		}
	case string:
		h, ok := have.(string)
		if !ok {
			return fmt.Errorf("%s: documented a string, got %s", at, jsonType(have))
		}
		return matchString(d, h, at, vars)
	default:
		if jsonType(doc) != jsonType(have) {
			return fmt.Errorf("%s: documented %s, got %s", at, jsonType(doc), jsonType(have))
		}
		if doc != have {
			return fmt.Errorf("%s: documented %v, got %v", at, doc, have)
		}
	}
	return nil
}

func matchString(doc, have, at string, vars map[string]string) error {
	if _, err := time.Parse(time.RFC3339, doc); err == nil {
		if _, err := time.Parse(time.RFC3339, have); err != nil {
			return fmt.Errorf("%s: documented a time, got %q", at, have)
		}
		return nil
	}
	names := placeholder.FindAllString(doc, -1)
	if len(names) == 0 {
		if doc != have {
			return fmt.Errorf("%s: documented %q, got %q", at, doc, have)
		}
		return nil
	}
	// QuoteMeta escapes the braces: the placeholders are found in their quoted form.
	pattern := "^" + quotedPlaceholder.ReplaceAllString(regexp.QuoteMeta(doc), "(.+?)") + "$"
	m := regexp.MustCompile(pattern).FindStringSubmatch(have)
	if m == nil {
		return fmt.Errorf("%s: documented %q, got %q", at, doc, have)
	}
	for i, p := range names {
		name := p[1 : len(p)-1]
		if v, ok := vars[name]; ok && v != m[i+1] {
			return fmt.Errorf("%s: %s was %q, got %q", at, p, v, m[i+1])
		}
		vars[name] = m[i+1]
	}
	return nil
}

func jsonType(v any) string {
	switch v.(type) {
	case nil:
		return "null"
	case bool:
		return "a boolean"
	case float64:
		return "a number"
	case string:
		return "a string"
	case []any:
		return "an array"
	default:
		return "an object"
	}
}

// The comparison refuses what a wrong example would show.
func TestMatchJSON(t *testing.T) {
	doc := func(s string) any {
		var v any
		if err := json.Unmarshal([]byte(s), &v); err != nil {
			t.Fatal(err)
		}
		return v
	}
	for _, c := range []struct {
		doc, have string
		ok        bool
	}{
		{`{"code":"bad_bots","n":2}`, `{"code":"bad_bots","n":2}`, true},
		{`{"code":"bad_bots"}`, `{"code":"bad_name"}`, false},
		{`{"code":"bad_bots"}`, `{"code":"bad_bots","n":2}`, false},
		{`{"code":"bad_bots","n":2}`, `{"code":"bad_bots"}`, false},
		{`{"n":2}`, `{"n":"2"}`, false},
		{`{"n":2}`, `{"n":3}`, false},
		{`{"a":[1,2]}`, `{"a":[1]}`, false},
		{`{"a":null}`, `{"a":[]}`, false},
		{`{"t":"{table}","u":"/t/{table}"}`, `{"t":"k3","u":"/t/k3"}`, true},
		{`{"t":"{table}","u":"/t/{table}"}`, `{"t":"k3","u":"/t/k4"}`, false},
		{`{"at":"2026-11-27T09:00:00Z"}`, `{"at":"2027-01-01T10:00:00.5Z"}`, true},
		{`{"at":"2026-11-27T09:00:00Z"}`, `{"at":"soon"}`, false},
	} {
		err := matchJSON(doc(c.doc), doc(c.have), "", map[string]string{})
		if (err == nil) != c.ok {
			t.Errorf("matchJSON(%s, %s) = %v, want ok %v", c.doc, c.have, err, c.ok)
		}
	}
}
