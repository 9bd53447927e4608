package email

import (
	"strings"
	"testing"

	"tapis/notify"
	"tapis/store"
)

// Every kind has its mail in both languages, and every kind a digest
// gathers its line; a deadline's mail names the game.
func TestWordsEveryKind(t *testing.T) {
	for _, lang := range []string{"en", "fr"} {
		for _, k := range store.Kinds {
			if w := texts[lang][k]; w.subject == "" || w.body == "" {
				t.Errorf("%s: no mail for %s", lang, k)
			}
		}
		for _, k := range notify.DigestKinds {
			if digestWords[lang].lines[k] == "" {
				t.Errorf("%s: no digest line for %s", lang, k)
			}
		}
		if footer[lang] == "" {
			t.Errorf("%s: no footer", lang)
		}
	}
	for lang, want := range map[string]string{"en": "runs out in less than an hour", "fr": "s'achève dans moins d'une heure"} {
		body, err := fill(texts[lang][store.KindDeadlineSoon].body, data{Game: "cabo", Link: "https://tapis.test/t/t1"})
		if err != nil || !strings.Contains(body, want) || !strings.Contains(body, "cabo") || !strings.Contains(body, "/t/t1") {
			t.Errorf("%s: %q (%v)", lang, body, err)
		}
	}
}
