package email

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/url"
	"strings"

	"tapis/notify"
	"tapis/store"
)

// The daily digest's mail (notify.Digester): one line per notification,
// in the player's language, and an unsubscribe that stops every kind the
// digest gathers (not the digest itself, which would send them one by
// one).

// digestWords are a digest's subject, its opening, and a line per kind,
// by language; templates over digestData.
var digestWords = map[string]struct {
	subject, intro string
	lines          map[string]string
}{
	"en": {"Your day on Tapis: {{.N}} notification{{if gt .N 1}}s{{end}}",
		"Here is what happened on Tapis since your last digest:\n\n",
		map[string]string{
			store.KindYourTurn:   "- Your turn{{if .Game}} at {{.Game}}{{end}}: {{.Link}}\n",
			store.KindInvitation: "- {{.Name}} invites you to play{{if .Game}} {{.Game}}{{end}}: {{.Link}}\n",
			store.KindGameOver:   "- Your game{{if .Game}} of {{.Game}}{{end}} is over: {{.Link}}\n",
		}},
	"fr": {"Votre journée sur Tapis : {{.N}} notification{{if gt .N 1}}s{{end}}",
		"Voici ce qui s'est passé sur Tapis depuis votre dernier résumé :\n\n",
		map[string]string{
			store.KindYourTurn:   "- À vous de jouer{{if .Game}} à {{.Game}}{{end}} : {{.Link}}\n",
			store.KindInvitation: "- {{.Name}} vous invite à jouer{{if .Game}} à {{.Game}}{{end}} : {{.Link}}\n",
			store.KindGameOver:   "- Votre partie{{if .Game}} de {{.Game}}{{end}} est finie : {{.Link}}\n",
		}},
}

// SendDigest implements notify.Digester: ds, one player's, in one mail
// to their verified address, with key as its Message-ID.
func (s *Service) SendDigest(ctx context.Context, key string, ds []store.Delivery) error {
	if len(ds) == 0 {
		return nil
	}
	player := ds[0].Player
	e, err := s.cfg.Store.Email(ctx, player)
	switch {
	case errors.Is(err, store.ErrNotFound) || err == nil && !e.Verified:
		return notify.Permanent(fmt.Errorf("email: player %s has no verified address", player))
	case err != nil:
		return err
	}
	lang := langOf(e.Lang)
	w := digestWords[lang]
	stop := s.cfg.Site + "/api/unsubscribe?t=" + url.QueryEscape(s.sign(tokStop, player, notify.Digest))
	var body strings.Builder
	body.WriteString(w.intro)
	for _, d := range ds {
		var p payload
		json.Unmarshal(d.Payload, &p) // a payload without these fields says less
		dt := data{Name: p.Name, Game: p.Game, Link: s.cfg.Site + "/"}
		if p.Table != "" {
			dt.Link = s.cfg.Site + "/t/" + url.PathEscape(p.Table)
		}
		line, err := fill(w.lines[d.Kind], dt)
		if err != nil {
			return notify.Permanent(err)
		}
		body.WriteString(line)
	}
	subject, err1 := fill(w.subject, data{N: len(ds)})
	foot, err2 := fill(footer[lang], data{Stop: stop})
	if err := errors.Join(err1, err2); err != nil {
		return notify.Permanent(err)
	}
	msg := s.compose(key+"."+notify.Digest, e.Address, subject, body.String()+foot, stop, s.cfg.Now())
	return s.send(ctx, e.Address, msg)
}
