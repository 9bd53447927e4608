package email

import (
	"bytes"
	"context"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"mime"
	"mime/quotedprintable"
	"net/url"
	"strconv"
	"strings"
	"text/template"
	"time"

	"tapis/notify"
	"tapis/store"
)

// The links a mail carries are signed by the server (Config.Key), so that
// they need nothing kept: a token is its fields and a MAC of them.

// The first field of each token says what it does.
const (
	// verify player address expires: mark the address verified.
	tokVerify = "verify"
	// stop player kind: turn that kind's mails off.
	tokStop = "stop"
	// forget player address: remove the address (the verification mail's
	// unsubscribe: somebody else gave it).
	tokForget = "forget"
)

// sign returns the token of fields.
func (s *Service) sign(fields ...string) string {
	body := strings.Join(fields, "\n")
	return base64.RawURLEncoding.EncodeToString([]byte(body)) + "." + base64.RawURLEncoding.EncodeToString(s.mac(body))
}

// mac is the MAC of a token's body, under a key of its own made from
// Config.Key, which keys other things too.
func (s *Service) mac(body string) []byte {
	k := hmac.New(sha256.New, s.cfg.Key)
	k.Write([]byte("tapis email links"))
	m := hmac.New(sha256.New, k.Sum(nil))
	m.Write([]byte(body))
	return m.Sum(nil)[:18]
}

// open returns the fields of a token signed by this server, with what as
// their first, nil if it is not one.
func (s *Service) open(tok, what string, n int) []string {
	b, m, ok := strings.Cut(tok, ".")
	body, err1 := base64.RawURLEncoding.DecodeString(b)
	mac, err2 := base64.RawURLEncoding.DecodeString(m)
	if !ok || err1 != nil || err2 != nil || !hmac.Equal(mac, s.mac(string(body))) {
		return nil
	}
	f := strings.Split(string(body), "\n")
	if len(f) != n || f[0] != what {
		return nil
	}
	return f
}

// words are a mail's subject and body, templates over data.
type words struct{ subject, body string }

// data is what a mail's templates may say.
type data struct {
	// Name is the other player's (who asked, who invited).
	Name string
	// Game is the game's name, where the payload has one.
	Game string
	// Link is where the mail leads; Stop its unsubscribe page.
	Link, Stop string
	// N is how many notifications a digest gathers.
	N int
}

// texts are the mails' words, by language then kind; "verify" is the
// address's verification.
var texts = map[string]map[string]words{
	"en": {
		"verify": {"Confirm your address on Tapis",
			"Hello,\n\nTo receive Tapis's notifications at this address, confirm it by opening this link:\n\n{{.Link}}\n\nIf you did not ask for this, ignore this mail: no other will come.\n"},
		store.KindFriendRequest: {"{{.Name}} wants to be your friend on Tapis",
			"{{.Name}} asked to be your friend on Tapis.\n\nAnswer on your friends list:\n{{.Link}}\n"},
		store.KindInvitation: {"{{.Name}} invites you to a table on Tapis",
			"{{.Name}} invites you to play{{if .Game}} {{.Game}}{{end}}.\n\nJoin the table:\n{{.Link}}\n"},
		store.KindYourTurn: {"Your turn on Tapis",
			"It is your turn{{if .Game}} at {{.Game}}{{end}}.\n\nPlay:\n{{.Link}}\n"},
		store.KindGameOver: {"A game is over on Tapis",
			"Your game{{if .Game}} of {{.Game}}{{end}} is over.\n\nSee the result:\n{{.Link}}\n"},
		store.KindDeadlineSoon: {"Less than an hour to play on Tapis",
			"Your time to move{{if .Game}} at {{.Game}}{{end}} runs out in less than an hour.\n\nPlay:\n{{.Link}}\n"},
	},
	"fr": {
		"verify": {"Confirmez votre adresse sur Tapis",
			"Bonjour,\n\nPour recevoir les notifications de Tapis à cette adresse, confirmez-la en ouvrant ce lien :\n\n{{.Link}}\n\nSi vous n'avez rien demandé, ignorez ce message : aucun autre ne viendra.\n"},
		store.KindFriendRequest: {"{{.Name}} vous demande en ami sur Tapis",
			"{{.Name}} vous a demandé en ami sur Tapis.\n\nRépondez depuis votre liste d'amis :\n{{.Link}}\n"},
		store.KindInvitation: {"{{.Name}} vous invite à une table sur Tapis",
			"{{.Name}} vous invite à jouer{{if .Game}} à {{.Game}}{{end}}.\n\nRejoindre la table :\n{{.Link}}\n"},
		store.KindYourTurn: {"À vous de jouer sur Tapis",
			"C'est à vous de jouer{{if .Game}} à {{.Game}}{{end}}.\n\nJouer :\n{{.Link}}\n"},
		store.KindGameOver: {"Une partie est finie sur Tapis",
			"Votre partie{{if .Game}} de {{.Game}}{{end}} est finie.\n\nVoir le résultat :\n{{.Link}}\n"},
		store.KindDeadlineSoon: {"Moins d'une heure pour jouer sur Tapis",
			"Votre temps pour jouer{{if .Game}} à {{.Game}}{{end}} s'achève dans moins d'une heure.\n\nJouer :\n{{.Link}}\n"},
	},
}

// footer ends every mail but the verification's, by language.
var footer = map[string]string{
	"en": "\n--\nYou receive this because you chose these notifications on Tapis. To stop them:\n{{.Stop}}\n",
	"fr": "\n--\nVous recevez ce message parce que vous avez choisi ces notifications sur Tapis. Pour ne plus les recevoir :\n{{.Stop}}\n",
}

// langOf is lang if Tapis speaks it, English otherwise.
func langOf(lang string) string {
	if _, ok := texts[lang]; ok {
		return lang
	}
	return "en"
}

// fill runs a template of words over d.
func fill(text string, d data) (string, error) {
	t, err := template.New("").Parse(text)
	if err != nil {
		return "", err
	}
	var b strings.Builder
	err = t.Execute(&b, d)
	return b.String(), err
}

// compose writes a whole message: its headers (with RFC 8058's one-click
// unsubscribe when stop is not empty) and its body, quoted-printable.
func (s *Service) compose(id, to, subject, body, stop string, at time.Time) []byte {
	var b bytes.Buffer
	h := func(k, v string) { fmt.Fprintf(&b, "%s: %s\r\n", k, v) }
	h("From", s.cfg.From)
	h("To", to)
	h("Subject", mime.QEncoding.Encode("utf-8", subject))
	h("Date", at.Format(time.RFC1123Z))
	// The id makes the Message-ID: a mail sent again by the outbox (a
	// node died before marking it sent) has the same one.
	h("Message-ID", "<"+id+"@"+s.domain+">")
	h("MIME-Version", "1.0")
	h("Content-Type", "text/plain; charset=utf-8")
	h("Content-Transfer-Encoding", "quoted-printable")
	h("Auto-Submitted", "auto-generated")
	if stop != "" {
		h("List-Unsubscribe", "<"+stop+">")
		h("List-Unsubscribe-Post", "List-Unsubscribe=One-Click")
	}
	b.WriteString("\r\n")
	q := quotedprintable.NewWriter(&b)
	q.Write([]byte(strings.ReplaceAll(body, "\n", "\r\n")))
	q.Close()
	return b.Bytes()
}

// payload is what the notifications' payloads may hold.
type payload struct {
	Name  string `json:"name"`
	Table string `json:"table"`
	Game  string `json:"game"`
}

// Send implements notify.Sender: the mail of a delivery, to the player's
// verified address, with d's id as its Message-ID.
func (s *Service) Send(ctx context.Context, d store.Delivery) error {
	e, err := s.cfg.Store.Email(ctx, d.Player)
	switch {
	case errors.Is(err, store.ErrNotFound) || err == nil && !e.Verified:
		return notify.Permanent(fmt.Errorf("email: player %s has no verified address", d.Player))
	case err != nil:
		return err
	}
	lang := langOf(e.Lang)
	w, ok := texts[lang][d.Kind]
	if !ok {
		return notify.Permanent(fmt.Errorf("email: no mail for %q", d.Kind))
	}
	var p payload
	json.Unmarshal(d.Payload, &p) // a payload without these fields says less
	dt := data{Name: p.Name, Game: p.Game, Link: s.cfg.Site + "/",
		Stop: s.cfg.Site + "/api/unsubscribe?t=" + url.QueryEscape(s.sign(tokStop, d.Player, d.Kind))}
	if p.Table != "" {
		dt.Link = s.cfg.Site + "/t/" + url.PathEscape(p.Table)
	}
	subject, err1 := fill(w.subject, dt)
	body, err2 := fill(w.body+footer[lang], dt)
	if err := errors.Join(err1, err2); err != nil {
		return notify.Permanent(err)
	}
	msg := s.compose(d.ID+"."+d.Channel, e.Address, subject, body, dt.Stop, s.cfg.Now())
	return s.send(ctx, e.Address, msg)
}

// sendVerification mails address the link that verifies it for player.
func (s *Service) sendVerification(ctx context.Context, player, address, lang string) error {
	expires := strconv.FormatInt(s.cfg.Now().Add(VerifyFor).Unix(), 10)
	dt := data{Link: s.cfg.Site + "/api/email/verify?t=" + url.QueryEscape(s.sign(tokVerify, player, address, expires)),
		Stop: s.cfg.Site + "/api/unsubscribe?t=" + url.QueryEscape(s.sign(tokForget, player, address))}
	w := texts[langOf(lang)]["verify"]
	subject, err1 := fill(w.subject, dt)
	body, err2 := fill(w.body, dt)
	if err := errors.Join(err1, err2); err != nil {
		return err
	}
	// A verification mail's unsubscribe forgets the address: somebody
	// else may have given it.
	msg := s.compose(newID(), address, subject, body, dt.Stop, s.cfg.Now())
	return s.send(ctx, address, msg)
}
