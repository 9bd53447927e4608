package main

import (
	"bytes"
	"strings"
	"testing"
)

// --smtp is refused, before anything starts, without --mail-from and
// --site, or with a URL that is not a mail server's; its errors never
// quote the password.
func TestServeMailFlags(t *testing.T) {
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"--smtp", "smtp://u:hunter2@127.0.0.1:25"}, "needs --mail-from and --site"},
		{[]string{"--smtp", "smtp://u:hunter2@127.0.0.1:25", "--mail-from", "t@example.org"}, "needs --mail-from and --site"},
		{[]string{"--smtp", "http://u:hunter2@127.0.0.1:25", "--mail-from", "t@example.org", "--site", "https://x"}, "smtp://"},
		{[]string{"--smtp", "smtp://u:hunter2@127.0.0.1", "--mail-from", "t@example.org", "--site", "https://x"}, "smtp://"},
	} {
		var out, errs bytes.Buffer
		if code := runServe(append(c.args, "--db", ":memory:", "--addr", "127.0.0.1:0"), &out, &errs); code != 2 {
			t.Errorf("%v: exit %d (%s)", c.args, code, errs.String())
		}
		if !strings.Contains(errs.String(), c.want) || strings.Contains(errs.String(), "hunter2") {
			t.Errorf("%v: %q, want %q and no password", c.args, errs.String(), c.want)
		}
	}
}
