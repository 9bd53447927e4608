package push

import (
	"encoding/json"
	"net/url"
	"strings"

	"tapis/store"
)

// words are a push's title and body, by language then kind; %s is the
// other player's name or the game's, where the payload has one.
var words = map[string]map[string][2]string{
	"en": {
		store.KindFriendRequest: {"Friend request", "%s wants to be your friend"},
		store.KindInvitation:    {"Invitation", "%s invites you to a table"},
		store.KindYourTurn:      {"Your turn", "It is your turn to play"},
		store.KindGameOver:      {"Game over", "Your game is over"},
		store.KindDeadlineSoon:  {"Less than an hour", "Your time to move runs out in less than an hour"},
	},
	"fr": {
		store.KindFriendRequest: {"Demande d'ami", "%s vous demande en ami"},
		store.KindInvitation:    {"Invitation", "%s vous invite à une table"},
		store.KindYourTurn:      {"À vous de jouer", "C'est à vous de jouer"},
		store.KindGameOver:      {"Partie finie", "Votre partie est finie"},
		store.KindDeadlineSoon:  {"Moins d'une heure", "Votre temps pour jouer s'achève dans moins d'une heure"},
	},
}

// message is the push of d for a browser in lang.
func (s *Service) message(d store.Delivery, lang string) message {
	if _, ok := words[lang]; !ok {
		lang = "en"
	}
	var p struct {
		Name  string `json:"name"`
		Table string `json:"table"`
	}
	json.Unmarshal(d.Payload, &p) // a payload without these fields says less
	w := words[lang][d.Kind]
	m := message{Tag: d.ID, Kind: d.Kind, Title: "Tapis: " + w[0], Body: strings.ReplaceAll(w[1], "%s", p.Name), URL: s.cfg.Site + "/"}
	if p.Table != "" {
		m.URL = s.cfg.Site + "/t/" + url.PathEscape(p.Table)
	}
	return m
}
