package push

import (
	"encoding/json"
	"testing"

	"tapis/store"
)

// Every kind has its words in both languages; a deadline's push links to
// its table.
func TestWordsEveryKind(t *testing.T) {
	for lang, ws := range words {
		for _, k := range store.Kinds {
			if w := ws[k]; w[0] == "" || w[1] == "" {
				t.Errorf("%s: no push words for %s", lang, k)
			}
		}
	}
	s := &Service{cfg: Config{Site: "https://tapis.test"}}
	p, _ := json.Marshal(map[string]any{"table": "t1", "game": "cabo", "seat": 1, "match": 1, "n": 7, "deadline": "2026-03-02T11:30:00Z"})
	for lang, want := range map[string]string{"en": "Tapis: Less than an hour", "fr": "Tapis: Moins d'une heure"} {
		m := s.message(store.Delivery{Notification: store.Notification{ID: "n1", Kind: store.KindDeadlineSoon, Payload: p}}, lang)
		if m.Title != want || m.URL != "https://tapis.test/t/t1" || m.Body == "" {
			t.Errorf("%s: %+v", lang, m)
		}
	}
}
