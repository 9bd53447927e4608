// Package email is the e-mail channel of notifications (issue 29): a
// player's address, verified by a link before any other mail goes to it;
// the mails themselves, in the player's language, each with a one-click
// unsubscribe (RFC 8058: List-Unsubscribe and List-Unsubscribe-Post);
// and their sending over SMTP (net/smtp), as a notify.Sender.
package email

import (
	"context"
	"crypto/tls"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"net/smtp"
	"net/textproto"
	"net/url"
	"strings"
	"time"

	"golang.org/x/time/rate"

	"tapis/limit"
	"tapis/notify"
	"tapis/store"
)

// Store is what the e-mail channel needs of the store.
type Store interface {
	SetEmail(ctx context.Context, e store.Email) error
	Email(ctx context.Context, player string) (store.Email, error)
	VerifyEmail(ctx context.Context, player, address string) error
	SetNotifyPref(ctx context.Context, player string, p store.Pref) error
}

// Config sets up a Service. Every field but the limits, Now and Logger
// is required.
type Config struct {
	// SMTP is the mail server, ParseURL's: smtp://user:password@host:port
	// (STARTTLS when the server offers it) or smtps:// (TLS from the
	// start); no user: no authentication.
	SMTP *url.URL
	// From is the address mails come from.
	From string
	// Site is the site's public URL (https://tapis.example), the start of
	// every link in a mail.
	Site  string
	Store Store
	// Key signs the links (verification, unsubscribe): the server's
	// secret, so that every node and a restarted one honour them.
	Key []byte
	// Player returns the signed-in player of a request, if any; Network
	// the limit key of its network (limit.Network).
	Player  func(r *http.Request) (store.Player, bool)
	Network func(r *http.Request) string
	// PerPlayer and PerNetwork bound the addresses given, each of which
	// sends a verification mail: per player 3 at once, then one every
	// 10 minutes; per network 10 at once, then one a minute.
	PerPlayer, PerNetwork *limit.Rates
	// Now is the clock (default time.Now).
	Now    func() time.Time
	Logger *slog.Logger
}

// Service sends mails and serves the addresses' routes.
type Service struct {
	cfg Config
	// domain is From's, for the Message-IDs.
	domain string
}

// keysHeld bounds the players and networks each default rate tracks.
const keysHeld = 1 << 16

// VerifyFor is how long a verification link works.
const VerifyFor = 7 * 24 * time.Hour

// New makes a Service of c.
func New(c Config) (*Service, error) {
	switch {
	case c.SMTP == nil || c.From == "" || c.Site == "" || c.Store == nil || len(c.Key) == 0 || c.Player == nil:
		return nil, errors.New("email: a mail server, a From address, the site's URL, a store, a key and the sessions are needed")
	case !strings.Contains(c.From, "@"):
		return nil, fmt.Errorf("email: %q is no address", c.From)
	}
	c.Site = strings.TrimSuffix(c.Site, "/")
	if c.PerPlayer == nil {
		c.PerPlayer = limit.NewRates(rate.Every(10*time.Minute), 3, keysHeld)
	}
	if c.PerNetwork == nil {
		c.PerNetwork = limit.NewRates(rate.Every(time.Minute), 10, keysHeld)
	}
	if c.Now == nil {
		c.Now = time.Now
	}
	if c.Logger == nil {
		c.Logger = slog.Default()
	}
	_, domain, _ := strings.Cut(c.From, "@")
	return &Service{cfg: c, domain: strings.Trim(domain, "> ")}, nil
}

// ParseURL reads a mail server's URL: smtp:// or smtps://, a host and a
// port, and optionally a user and a password. Its errors never quote the
// password.
func ParseURL(s string) (*url.URL, error) {
	u, err := url.Parse(s)
	if err != nil {
		return nil, errors.New("email: the mail server's URL does not parse")
	}
	if u.Scheme != "smtp" && u.Scheme != "smtps" || u.Hostname() == "" || u.Port() == "" {
		return nil, errors.New("email: the mail server's URL is smtp://user:password@host:port or smtps://…")
	}
	return u, nil
}

// Reaches reports whether player has a verified address: no delivery is
// written for one who has not (notify asks before writing one).
func (s *Service) Reaches(ctx context.Context, player string) (bool, error) {
	e, err := s.cfg.Store.Email(ctx, player)
	if errors.Is(err, store.ErrNotFound) {
		return false, nil
	}
	return err == nil && e.Verified, err
}

// send hands one message to the mail server, for to.
func (s *Service) send(ctx context.Context, to string, msg []byte) error {
	u := s.cfg.SMTP
	d := net.Dialer{Timeout: 10 * time.Second}
	var conn net.Conn
	var err error
	if u.Scheme == "smtps" {
		conn, err = (&tls.Dialer{NetDialer: &d, Config: &tls.Config{ServerName: u.Hostname()}}).DialContext(ctx, "tcp", u.Host)
	} else {
		conn, err = d.DialContext(ctx, "tcp", u.Host)
	}
	if err != nil {
		return fmt.Errorf("email: %v", err)
	}
	defer conn.Close()
	// One deadline for the whole conversation: net/smtp takes no context.
	dl, ok := ctx.Deadline()
	if !ok {
		dl = time.Now().Add(time.Minute)
	}
	conn.SetDeadline(dl)
	c, err := smtp.NewClient(conn, u.Hostname())
	if err != nil {
		return fmt.Errorf("email: %v", err)
	}
	defer c.Close()
	if err := c.Hello(s.domain); err != nil {
		return fmt.Errorf("email: %v", err)
	}
	if ok, _ := c.Extension("STARTTLS"); ok && u.Scheme == "smtp" {
		if err := c.StartTLS(&tls.Config{ServerName: u.Hostname()}); err != nil {
			return fmt.Errorf("email: STARTTLS: %v", err)
		}
	}
	if u.User != nil {
		pw, _ := u.User.Password()
		// net/smtp sends a password only over TLS, or to localhost.
		if err := c.Auth(smtp.PlainAuth("", u.User.Username(), pw, u.Hostname())); err != nil {
			return fmt.Errorf("email: signing in to the mail server: %v", err)
		}
	}
	if err := c.Mail(bare(s.cfg.From)); err != nil {
		return refused(err)
	}
	if err := c.Rcpt(to); err != nil {
		return refused(err)
	}
	w, err := c.Data()
	if err != nil {
		return refused(err)
	}
	if _, err := w.Write(msg); err != nil {
		return fmt.Errorf("email: %v", err)
	}
	if err := w.Close(); err != nil {
		return refused(err)
	}
	return c.Quit()
}

// bare is the address in a From that may carry a name ("Tapis
// <tapis@example.org>").
func bare(from string) string {
	if i := strings.LastIndexByte(from, '<'); i >= 0 {
		return strings.TrimSuffix(from[i+1:], ">")
	}
	return from
}

// refused makes a mail server's permanent refusal (5xx) a permanent
// error: trying again will not help.
func refused(err error) error {
	var te *textproto.Error
	if errors.As(err, &te) && te.Code >= 500 {
		return notify.Permanent(fmt.Errorf("email: %v", err))
	}
	return fmt.Errorf("email: %v", err)
}
