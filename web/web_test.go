package web

import (
	"io/fs"
	"path"
	"regexp"
	"sort"
	"strings"
	"testing"
)

// embedded returns the paths of every embedded file, in every folder.
func embedded(t *testing.T) []string {
	t.Helper()
	var names []string
	err := fs.WalkDir(Files(), ".", func(name string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			names = append(names, name)
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return names
}

func read(t *testing.T, name string) string {
	t.Helper()
	b, err := fs.ReadFile(Files(), name)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// dict returns the keys of one language's dictionary, i18n/<lang>.js.
func dict(t *testing.T, lang string) map[string]bool {
	t.Helper()
	src := read(t, "i18n/"+lang+".js")
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
	en, fr := dict(t, "en"), dict(t, "fr")
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
	for _, name := range embedded(t) {
		if !strings.HasSuffix(name, ".js") {
			continue
		}
		for _, m := range used.FindAllStringSubmatch(read(t, name), -1) {
			if !en[m[1]] && !strings.HasSuffix(m[1], ".") { // a prefix: the key is built
				t.Errorf("%s uses %q, which no dictionary has", name, m[1])
			}
		}
	}
}

// Every module and file the page loads is embedded.
func TestFilesReferenced(t *testing.T) {
	// A module's import is relative to its folder; the page's src and
	// href are under /static/, the root of Files.
	refs := regexp.MustCompile(`(?:from '(\.\.?/)|src="/static/|href="/static/)((?:[a-z0-9]+/)*[a-z0-9]+\.(?:js|css|svg))`)
	for _, name := range embedded(t) {
		for _, m := range refs.FindAllStringSubmatch(read(t, name), -1) {
			file := m[2]
			if m[1] != "" {
				file = path.Join(path.Dir(name), m[1]+m[2])
			}
			if _, err := fs.Stat(Files(), file); err != nil {
				t.Errorf("%s refers to %s, which is not embedded", name, file)
			}
		}
	}
}

// No string of the interface leaves a plural or an agreement to the
// reader: "card(s)", "place(s) libre(s)", "redescend(ent)" are written as
// the forms a count picks (i18n.js's tn), in both dictionaries and in the
// rules' help texts.
func TestNoParenthesisedEndings(t *testing.T) {
	ending := regexp.MustCompile(`\p{L}\((?:s|e|es|x|nt|ent)\)`)
	for _, name := range []string{"i18n/en.js", "i18n/fr.js", "help.js"} {
		for i, line := range strings.Split(read(t, name), "\n") {
			if strings.HasPrefix(strings.TrimSpace(line), "//") {
				continue
			}
			// Only the strings: code such as name(s) is no sentence.
			for _, lit := range regexp.MustCompile(`'(?:[^'\\]|\\.)*'`).FindAllString(line, -1) {
				if m := ending.FindString(lit); m != "" {
					t.Errorf("%s:%d: %q leaves a plural to the reader (%s): use tn and a key per form", name, i+1, lit, m)
				}
			}
		}
	}
}

// Every count the client words with tn has its "one" and "other" forms in
// both dictionaries (Intl.PluralRules picks one; "other" stands in for a
// category a language has no word for).
func TestPluralKeys(t *testing.T) {
	used := regexp.MustCompile(`\btn\((?:[^,]*\? )?'([a-z0-9_.]+)'(?: : '([a-z0-9_.]+)')?`)
	for _, lang := range []string{"en", "fr"} {
		d := dict(t, lang)
		for _, name := range embedded(t) {
			if !strings.HasSuffix(name, ".js") {
				continue
			}
			for _, m := range used.FindAllStringSubmatch(read(t, name), -1) {
				for _, k := range m[1:] {
					if k == "" {
						continue
					}
					for _, form := range []string{".one", ".other"} {
						if !d[k+form] {
							t.Errorf("%s: %s counts with %q, which has no %s form", lang, name, k, form)
						}
					}
				}
			}
		}
	}
}
