package web

import (
	"io/fs"
	"regexp"
	"sort"
	"strings"
	"testing"
)

func read(t *testing.T, name string) string {
	t.Helper()
	b, err := fs.ReadFile(Files(), name)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// dict returns the keys of one language's dictionary in i18n.js.
func dict(t *testing.T, src, lang string) map[string]bool {
	t.Helper()
	start := strings.Index(src, "const "+lang+" = {")
	if start < 0 {
		t.Fatalf("no %s dictionary", lang)
	}
	end := strings.Index(src[start:], "\n};")
	keys := map[string]bool{}
	for _, m := range regexp.MustCompile(`(?m)^\s*'([a-z0-9_.]+)':`).FindAllStringSubmatch(src[start:start+end], -1) {
		keys[m[1]] = true
	}
	return keys
}

// French and English have the same strings, except the few that are the
// same in both (names), which French takes from English; and every key
// the client uses is in the dictionary.
func TestDictionaries(t *testing.T) {
	src := read(t, "i18n.js")
	en, fr := dict(t, src, "en"), dict(t, src, "fr")
	same := map[string]bool{"app.title": true, "game.cabo": true, "game.papayoo": true, "game.limits": true, "game.dacapo": true,
		"cabo.col.total": true, "cabo.score": true}
	var missing []string
	for k := range en {
		if !fr[k] && !same[k] {
			missing = append(missing, k)
		}
	}
	for k := range fr {
		if !en[k] {
			missing = append(missing, "(only French) "+k)
		}
	}
	sort.Strings(missing)
	if len(missing) > 0 {
		t.Errorf("French and English differ: %v", missing)
	}
	used := regexp.MustCompile(`\bt\('([a-z0-9_.]+)'`)
	entries, _ := fs.ReadDir(Files(), ".")
	for _, e := range entries {
		if !strings.HasSuffix(e.Name(), ".js") {
			continue
		}
		for _, m := range used.FindAllStringSubmatch(read(t, e.Name()), -1) {
			if !en[m[1]] && !strings.HasSuffix(m[1], ".") { // a prefix: the key is built
				t.Errorf("%s uses %q, which no dictionary has", e.Name(), m[1])
			}
		}
	}
}

// Every module and file the page loads is embedded.
func TestFilesReferenced(t *testing.T) {
	refs := regexp.MustCompile(`(?:from '\./|src="/static/|href="/static/)([a-z0-9]+\.(?:js|css|svg))`)
	entries, _ := fs.ReadDir(Files(), ".")
	for _, e := range entries {
		for _, m := range refs.FindAllStringSubmatch(read(t, e.Name()), -1) {
			if _, err := fs.Stat(Files(), m[1]); err != nil {
				t.Errorf("%s refers to %s, which is not embedded", e.Name(), m[1])
			}
		}
	}
}
