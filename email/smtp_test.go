package email_test

import (
	"errors"
	"io"
	"mime"
	"mime/quotedprintable"
	"net"
	"net/mail"
	"regexp"
	"strings"
	"testing"

	"github.com/emersion/go-sasl"
	"github.com/emersion/go-smtp"
)

// A mail server run by the tests (github.com/emersion/go-smtp): it asks
// for a user and a password, and hands every mail it takes to its
// channel, read back as a Mail.

// Mail is one mail the server took.
type Mail struct {
	From, To string
	Header   mail.Header
	// Subject is decoded; Body too (quoted-printable).
	Subject, Body string
	// Raw is the whole message as sent.
	Raw string
}

// link finds the first link of the mail's body that starts with prefix.
func (m Mail) link(t *testing.T, prefix string) string {
	t.Helper()
	l := regexp.MustCompile(regexp.QuoteMeta(prefix) + `\S+`).FindString(m.Body)
	if l == "" {
		t.Fatalf("no link %s… in %q", prefix, m.Body)
	}
	return l
}

// mailServer runs an SMTP server on a loopback port until the test ends,
// taking mails signed in as user:password; it returns its address and
// its mails.
func mailServer(t *testing.T, user, password string) (string, <-chan Mail) {
	t.Helper()
	mails := make(chan Mail, 32)
	be := smtp.BackendFunc(func(*smtp.Conn) (smtp.Session, error) {
		return &session{user: user, password: password, mails: mails}, nil
	})
	srv := smtp.NewServer(be)
	srv.Domain = "mail.test"
	srv.AllowInsecureAuth = true // loopback: net/smtp sends a password there without TLS
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	go srv.Serve(ln)
	t.Cleanup(func() { srv.Close() })
	return ln.Addr().String(), mails
}

// session is one SMTP conversation.
type session struct {
	user, password string
	signedIn       bool
	from, to       string
	mails          chan<- Mail
}

func (s *session) AuthMechanisms() []string { return []string{sasl.Plain} }

func (s *session) Auth(string) (sasl.Server, error) {
	return sasl.NewPlainServer(func(_, user, password string) error {
		if user != s.user || password != s.password {
			return errors.New("wrong user or password")
		}
		s.signedIn = true
		return nil
	}), nil
}

func (s *session) Mail(from string, _ *smtp.MailOptions) error {
	if !s.signedIn {
		return smtp.ErrAuthRequired
	}
	s.from = from
	return nil
}

func (s *session) Rcpt(to string, _ *smtp.RcptOptions) error {
	if strings.HasSuffix(to, "@refused.test") {
		return &smtp.SMTPError{Code: 550, EnhancedCode: smtp.EnhancedCode{5, 1, 1}, Message: "no such mailbox"}
	}
	s.to = to
	return nil
}

func (s *session) Data(r io.Reader) error {
	raw, err := io.ReadAll(r)
	if err != nil {
		return err
	}
	m, err := mail.ReadMessage(strings.NewReader(string(raw)))
	if err != nil {
		return err
	}
	subject, err := new(mime.WordDecoder).DecodeHeader(m.Header.Get("Subject"))
	if err != nil {
		return err
	}
	// net/mail leaves the transfer encoding: quoted-printable here.
	body, err := io.ReadAll(quotedprintable.NewReader(m.Body))
	if err != nil {
		return err
	}
	s.mails <- Mail{From: s.from, To: s.to, Header: m.Header, Subject: subject,
		Body: strings.ReplaceAll(string(body), "\r\n", "\n"), Raw: string(raw)}
	return nil
}

func (s *session) Reset()        {}
func (s *session) Logout() error { return nil }
