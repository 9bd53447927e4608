package browser

import (
	"strings"
	"testing"
	"time"

	"tapis/email"
	"tapis/server/servertest"
)

// The daily digest's choice on the notification settings (issue 29): a
// box under the e-mail address, saved on the server, checked again after
// a reload.
func TestBrowserDigestChoice(t *testing.T) {
	t.Parallel() // waits on conditions only: see parallel in page_test.go
	cfg := servertest.Unlimited()
	u, err := email.ParseURL("smtp://" + mailCatcher(t).addr)
	if err != nil {
		t.Fatal(err)
	}
	cfg.Mail = email.Config{SMTP: u, From: "Tapis <tapis@example.org>", Site: "https://tapis.test"}
	p := newPageWith(t, cfg, 4*time.Minute)
	p.home()
	p.signUp("Ada", "ada")
	p.open("/notifications", `#notify-digest`)
	var on bool
	p.eval("the box before", `document.querySelector('#notify-digest').checked`, &on)
	if on {
		t.Fatal("the digest chosen before anyone chose it")
	}
	p.click(`#notify-digest`)
	// Read from the server, synchronously: until reads no promise.
	p.until("the digest saved", `(() => { const x = new XMLHttpRequest(); x.open('GET', '/api/me/notifications', false); x.send();
		return JSON.parse(x.responseText).digest === true; })()`, &on, func() bool { return on })
	p.open("/notifications", `#notify-digest`)
	p.until("the box checked after a reload", `document.querySelector('#notify-digest')?.checked === true`, &on, func() bool { return on })
	var s string
	p.eval("its words", text(`#notify-email .nsdigest`), &s)
	if !strings.Contains(s, "One mail a day") || !strings.Contains(s, "8:00 UTC") {
		t.Errorf("the digest's words: %q", s)
	}
	p.shootBoth("notify-digest")
}
