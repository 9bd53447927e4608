// Package push is the Web Push channel of notifications (issue 29): the
// browsers' subscriptions (the Push API's), and the pushes themselves,
// signed with the server's VAPID key (RFC 8292) and encrypted for each
// browser (RFC 8291) by github.com/SherClockHolmes/webpush-go, as a
// notify.Sender. A subscription whose push service answers 404 or 410 is
// gone, and removed.
package push

import (
	"context"
	"crypto/ecdh"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"net/netip"
	"net/url"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/SherClockHolmes/webpush-go"

	"tapis/notify"
	"tapis/store"
)

// Store is what the push channel needs of the store.
type Store interface {
	AddPushSub(ctx context.Context, p store.PushSub) error
	RemovePushSub(ctx context.Context, endpoint string) error
	PushSubs(ctx context.Context, player string) ([]store.PushSub, error)
}

// Config sets up a Service. Store, Secret, Subscriber and Player are
// required.
type Config struct {
	Store Store
	// Secret is the server's (store.Secrets), from which the VAPID key
	// pair is made: the same on every node and after a restart, so that
	// the browsers' subscriptions, bound to the key, stay good.
	Secret []byte
	// Subscriber is whom push services may contact about the pushes: the
	// site's https URL or a mailto: address (VAPID's "sub").
	Subscriber string
	// Site is the site's public URL, the start of every push's link
	// (default: links relative to the site, "/t/…").
	Site string
	// Player returns the signed-in player of a request, if any.
	Player func(r *http.Request) (store.Player, bool)
	// Client sends the pushes (default: one with a 30 s timeout that
	// connects to public addresses only, publicOnly).
	Client *http.Client
	// Endpoint says whether a subscription's endpoint may be pushed to
	// (default: https, to a named host, not localhost nor an address:
	// the server does not post to its own network for a stranger).
	Endpoint func(u *url.URL) bool
	// Now is the clock (default time.Now).
	Now    func() time.Time
	Logger *slog.Logger
}

// MaxSubs is how many browsers one player may have subscribed: a new one
// past it replaces the oldest.
const MaxSubs = 10

// Service sends pushes and keeps the subscriptions.
type Service struct {
	cfg Config
	// priv and pub are the VAPID key pair, base64url.
	priv, pub string
}

// New makes a Service of c.
func New(c Config) (*Service, error) {
	if c.Store == nil || len(c.Secret) == 0 || c.Player == nil ||
		!strings.HasPrefix(c.Subscriber, "https://") && !strings.HasPrefix(c.Subscriber, "mailto:") {
		return nil, errors.New("push: a store, the server's secret, the sessions and an https:// or mailto: subscriber are needed")
	}
	if c.Client == nil {
		d := &net.Dialer{Timeout: 10 * time.Second, Control: publicOnly}
		c.Client = &http.Client{Timeout: 30 * time.Second, Transport: &http.Transport{DialContext: d.DialContext,
			TLSHandshakeTimeout: 10 * time.Second, MaxIdleConnsPerHost: 4, IdleConnTimeout: time.Minute}}
	}
	if c.Endpoint == nil {
		c.Endpoint = publicHTTPS
	}
	if c.Now == nil {
		c.Now = time.Now
	}
	if c.Logger == nil {
		c.Logger = slog.Default()
	}
	c.Site = strings.TrimSuffix(c.Site, "/")
	s := &Service{cfg: c}
	s.priv, s.pub = vapid(c.Secret)
	return s, nil
}

// vapid makes the VAPID key pair from the server's secret: a P-256
// private key of bytes made by HMAC (the rare bytes that are no key are
// passed over).
func vapid(secret []byte) (priv, pub string) {
	for i := 0; ; i++ {
		m := hmac.New(sha256.New, secret)
		m.Write([]byte("tapis vapid " + strconv.Itoa(i)))
		d := m.Sum(nil)
		if k, err := ecdh.P256().NewPrivateKey(d); err == nil {
			return base64.RawURLEncoding.EncodeToString(d), base64.RawURLEncoding.EncodeToString(k.PublicKey().Bytes())
		}
	}
}

func (s *Service) now() time.Time { return s.cfg.Now() }

// PublicKey is the VAPID public key, base64url: the browsers' Push API
// applicationServerKey.
func (s *Service) PublicKey() string { return s.pub }

// publicHTTPS is the default Config.Endpoint.
func publicHTTPS(u *url.URL) bool {
	h := u.Hostname()
	return u.Scheme == "https" && h != "" && net.ParseIP(h) == nil && h != "localhost" && !strings.HasSuffix(h, ".localhost") &&
		u.User == nil
}

// publicOnly refuses to connect to an address of the server's own
// networks (loopback, private, link-local...): an endpoint's name may
// resolve to one, which Config.Endpoint cannot see.
func publicOnly(_, address string, _ syscall.RawConn) error {
	host, _, err := net.SplitHostPort(address)
	if err != nil {
		return err
	}
	ip, err := netip.ParseAddr(host)
	if err != nil {
		return err
	}
	ip = ip.Unmap()
	if !ip.IsGlobalUnicast() || ip.IsPrivate() || ip.IsLoopback() || ip.IsLinkLocalUnicast() {
		return fmt.Errorf("push: %s is not a public address", ip)
	}
	return nil
}

// Reaches reports whether player has a browser subscribed: no delivery
// is written for one who has none.
func (s *Service) Reaches(ctx context.Context, player string) (bool, error) {
	subs, err := s.cfg.Store.PushSubs(ctx, player)
	return len(subs) > 0, err
}

// message is what a push carries to the service worker, which shows it:
// tag is the notification's id, so that a push sent again replaces the
// one shown.
type message struct {
	Tag   string `json:"tag"`
	Kind  string `json:"kind"`
	Title string `json:"title"`
	Body  string `json:"body"`
	URL   string `json:"url"`
}

// Send implements notify.Sender: a push to each browser player has
// subscribed, under the notification's id as its Topic (a push service
// keeps one undelivered push per topic) and its tag.
func (s *Service) Send(ctx context.Context, d store.Delivery) error {
	subs, err := s.cfg.Store.PushSubs(ctx, d.Player)
	if err != nil {
		return err
	}
	if len(subs) == 0 {
		return notify.Permanent(fmt.Errorf("push: player %s has no browser subscribed", d.Player))
	}
	var again error
	for _, sub := range subs {
		msg, err := json.Marshal(s.message(d, sub.Lang))
		if err != nil {
			return notify.Permanent(err)
		}
		resp, err := webpush.SendNotificationWithContext(ctx, msg,
			&webpush.Subscription{Endpoint: sub.Endpoint, Keys: webpush.Keys{P256dh: sub.P256dh, Auth: sub.Auth}},
			&webpush.Options{HTTPClient: s.cfg.Client, Subscriber: s.cfg.Subscriber, Topic: topic(d.ID), TTL: 24 * 3600,
				Urgency: webpush.UrgencyNormal, VAPIDPublicKey: s.pub, VAPIDPrivateKey: s.priv})
		if err != nil {
			again = fmt.Errorf("push: %v", err)
			continue
		}
		resp.Body.Close()
		switch code := resp.StatusCode; {
		case code == http.StatusNotFound || code == http.StatusGone:
			// The browser unsubscribed, or its subscription expired.
			if err := s.cfg.Store.RemovePushSub(ctx, sub.Endpoint); err != nil {
				again = err
			}
		case code == http.StatusTooManyRequests || code >= 500:
			again = fmt.Errorf("push: the push service answered %d", code)
		case code >= 300:
			s.cfg.Logger.Warn("push: a push refused", "player", d.Player, "status", code)
		}
	}
	// Sending again sends to every browser again: the push service keeps
	// one push per topic, and the page shows one per tag.
	return again
}

// topic is a push's Topic: at most 32 characters of the URL-safe
// alphabet (RFC 8030), as the notifications' ids are.
func topic(id string) string {
	if len(id) > 32 {
		id = id[:32]
	}
	return id
}
