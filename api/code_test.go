package api

import (
	"go/ast"
	"go/parser"
	"go/token"
	"maps"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"tapis/games"
)

// constants returns the string constants of file whose names start with
// prefix, by value.
func constants(t *testing.T, file, prefix string) []string {
	t.Helper()
	f, err := parser.ParseFile(token.NewFileSet(), file, nil, 0)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	ast.Inspect(f, func(n ast.Node) bool {
		vs, ok := n.(*ast.ValueSpec)
		if !ok || len(vs.Values) != 1 || !strings.HasPrefix(vs.Names[0].Name, prefix) {
			return true
		}
		if lit, ok := vs.Values[0].(*ast.BasicLit); ok && lit.Kind == token.STRING {
			v, _ := strconv.Unquote(lit.Value)
			out = append(out, v)
		}
		return true
	})
	slices.Sort(out)
	return out
}

// documented returns the codes in the first column of the table under
// docs/API.md's heading.
func documented(t *testing.T, doc, heading string) []string {
	t.Helper()
	_, after, ok := strings.Cut(doc, "\n"+heading+"\n")
	if !ok {
		t.Fatalf("docs/API.md has no %q", heading)
	}
	var out []string
	cell := regexp.MustCompile("`([a-z_]+)`")
	for _, line := range strings.Split(after, "\n") {
		if strings.HasPrefix(line, "#") {
			break
		}
		first, _, _ := strings.Cut(strings.TrimPrefix(line, "| "), " |")
		if !strings.HasPrefix(line, "| `") {
			continue
		}
		for _, m := range cell.FindAllStringSubmatch(first, -1) {
			out = append(out, m[1])
		}
	}
	slices.Sort(out)
	return out
}

// docs/API.md lists every code the server sends, WebSocket and HTTP, and
// every reason of the server and of every game, and nothing else.
func TestEveryCodeIsDocumented(t *testing.T) {
	b, err := os.ReadFile("../docs/API.md")
	if err != nil {
		t.Fatal(err)
	}
	doc := string(b)
	for _, c := range []struct {
		heading string
		want    []string
	}{
		{"### WebSocket codes", constants(t, "../wire/code.go", "Code")},
		{"### HTTP codes", constants(t, "code.go", "Code")},
		{"## Reasons", reasons(t)},
	} {
		if got := documented(t, doc, c.heading); !slices.Equal(got, c.want) {
			t.Errorf("%s lists %v,\nthe code declares %v", c.heading, got, c.want)
		}
	}
}

// Every refusal the server writes names its code by a constant of api
// (HTTP) or wire (WebSocket), never by a literal: the constants are the
// whole list.
func TestCodesAreConstants(t *testing.T) {
	refusers := map[string]int{"Error": 2, "Refuse": 2, "sendError": 1, "sendRefusal": 1}
	var files []string
	for _, dir := range []string{"server", "account", "history", "lobby", "rating/leaderboard"} {
		more, _ := filepath.Glob("../" + dir + "/*.go")
		files = append(files, more...)
	}
	for _, file := range files {
		if strings.HasSuffix(file, "_test.go") {
			continue
		}
		fset := token.NewFileSet()
		f, err := parser.ParseFile(fset, file, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		ast.Inspect(f, func(n ast.Node) bool {
			call, ok := n.(*ast.CallExpr)
			if !ok {
				return true
			}
			var name string
			switch fn := call.Fun.(type) {
			case *ast.SelectorExpr:
				name = fn.Sel.Name
			case *ast.Ident:
				name = fn.Name
			}
			if i, ok := refusers[name]; ok && len(call.Args) > i {
				if lit, ok := call.Args[i].(*ast.BasicLit); ok && lit.Kind == token.STRING {
					t.Errorf("%s: %s with the code %s: use a constant", fset.Position(call.Pos()), name, lit.Value)
				}
			}
			return true
		})
	}
}

// reasons are the server's, the shared ones of game, and every registered
// game's: a fifth game's reasons must be documented too.
func reasons(t *testing.T) []string {
	all := map[string]bool{}
	for _, r := range append(constants(t, "code.go", "Reason"), constants(t, "../game/refusal.go", "Reason")...) {
		all[r] = true
	}
	for _, e := range games.Entries() {
		for _, r := range e.Reasons {
			all[r] = true
		}
	}
	return slices.Sorted(maps.Keys(all))
}
