package web

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"testing"

	"tapis/api"
	"tapis/game"
	"tapis/games"
)

// Both dictionaries translate every reason of every game (refusal.js
// looks a reason up as "<game>.why.<reason>", then "why.<reason>") and
// every error code the server sends ("err.<code>", or "acct.err.<code>"
// for the account's), so that no page ever shows an engine's English
// words for a refusal it knows.
func TestDictionariesTranslateRefusals(t *testing.T) {
	reasons := map[string][]string{}
	for _, e := range games.Entries() {
		reasons[e.Game.Name()] = e.Reasons
	}
	// The server's own reasons (api.Reason…), for a table it will not make.
	reasons["server"] = []string{api.ReasonNameNeeded, api.ReasonBotsLength, api.ReasonUnknownBot, api.ReasonTutorialStep}
	codes := serverCodes(t)
	if len(codes) < 40 {
		t.Fatalf("only %d codes found in the server's sources: %v", len(codes), codes)
	}
	for _, lang := range []string{"en", "fr"} {
		d := dict(t, lang)
		var missing []string
		for g, rs := range reasons {
			for _, r := range rs {
				if !d[g+".why."+r] && !d["why."+r] {
					missing = append(missing, g+": "+r)
				}
			}
		}
		for _, r := range game.SharedReasons() {
			if !d["why."+r] {
				missing = append(missing, "shared: "+r)
			}
		}
		for _, c := range codes {
			if !d["err."+c] && !d["acct.err."+c] {
				missing = append(missing, "code: "+c)
			}
		}
		sort.Strings(missing)
		if len(missing) > 0 {
			t.Errorf("%s: no words for %q", lang, missing)
		}
	}
}

// serverCodes finds the error codes of the Go sources outside web/: the
// string constants whose name starts with "code" (server/protocol.go's
// codeRefused...) and the codes api.Error is called with.
func serverCodes(t *testing.T) []string {
	t.Helper()
	fset := token.NewFileSet()
	consts := map[string]string{} // every code* constant, by name
	var calls []ast.Expr          // api.Error's code arguments
	err := filepath.WalkDir("..", func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if name := d.Name(); path != ".." && (name == "web" || name == "testdata" || strings.HasPrefix(name, ".")) {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return nil
		}
		b, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		f, err := parser.ParseFile(fset, path, b, 0)
		if err != nil {
			return err
		}
		ast.Inspect(f, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.ValueSpec:
				for i, name := range n.Names {
					if i < len(n.Values) && strings.HasPrefix(strings.ToLower(name.Name), "code") {
						if s, ok := stringLit(n.Values[i]); ok {
							consts[name.Name] = s
						}
					}
				}
			case *ast.CallExpr:
				if sel, ok := n.Fun.(*ast.SelectorExpr); ok && sel.Sel.Name == "Error" && len(n.Args) == 4 {
					if pkg, ok := sel.X.(*ast.Ident); ok && pkg.Name == "api" {
						calls = append(calls, n.Args[2])
					}
				}
			}
			return true
		})
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	set := map[string]bool{}
	for _, v := range consts {
		set[v] = true
	}
	for _, e := range calls {
		if s, ok := stringLit(e); ok {
			set[s] = true
			continue
		}
		var name string
		switch e := e.(type) {
		case *ast.Ident:
			name = e.Name
		case *ast.SelectorExpr:
			name = e.Sel.Name
		}
		if _, ok := consts[name]; !ok {
			t.Errorf("api.Error at %s: the code %s is neither a string nor a code constant", fset.Position(e.Pos()), name)
		}
	}
	var out []string
	for c := range set {
		out = append(out, c)
	}
	sort.Strings(out)
	return out
}

func stringLit(e ast.Expr) (string, bool) {
	lit, ok := e.(*ast.BasicLit)
	if !ok || lit.Kind != token.STRING {
		return "", false
	}
	s, err := strconv.Unquote(lit.Value)
	return s, err == nil
}
