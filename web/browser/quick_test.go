package browser

import (
	"fmt"
	"testing"
	"time"
)

// quickAtOnce is a first visit's quick match at its quickest: the game
// and count chosen, the name typed and Quick match pressed in one go, the
// page given no time to make the guest before the press.
func (p *page) quickAtOnce(name string) {
	p.t.Helper()
	p.run("choose a quick match", setValue(`select[name=qm_game]`, "cabo"), setValue(`select[name=qm_players]`, "2"),
		setValue(`select[name=qm_wait]`, "-1"))
	p.eval("type a name and press Quick match", fmt.Sprintf(`(() => {
		const n = document.querySelector('#who-name');
		n.focus(); n.value = %q; n.dispatchEvent(new Event('input')); n.dispatchEvent(new Event('change'));
		document.querySelector('[data-action=quick]').click();
		return true; })()`, name), nil)
}

// Finding 16: a first visit that typed a name and pressed Quick match at
// once was seated at a started table, but its page stayed on the home
// form (2 of 3 pairs). Two first-time visitors in two browsers do so, one
// after the other: both land at the same table, at two seats. The first
// one's wait and the table are photographed at a phone's and a laptop's
// sizes.
func TestBrowserQuickMatchAtOnce(t *testing.T) {
	t.Parallel() // waits on conditions only: see parallel in page_test.go
	p := newPage(t, 20*time.Millisecond, 4*time.Minute)
	p.dir = screenshotDir(t.TempDir())
	p.home()
	q := p.another()
	q.home()
	p.quickAtOnce("Ada")
	var looking string
	p.until("the first visitor to wait", text(`#queued`), &looking, func() bool { return looking != "" })
	p.shootSizes("quick-at-once-wait", 100*time.Millisecond)
	q.quickAtOnce("Bea")
	idP, seatP := p.atTable()
	idQ, seatQ := q.atTable()
	if idP != idQ || seatP == seatQ {
		t.Fatalf("the two first visits sit at %s seat %s and %s seat %s, want one table, two seats", idP, seatP, idQ, seatQ)
	}
	for i, s := range p.h.Info(idP).Seats {
		if s.Bot != "" || s.Free {
			t.Fatalf("seat %d of the matched table is %+v, want a person", i, s)
		}
	}
	p.shootSizes("quick-at-once-table", 300*time.Millisecond)
	q.shootSizes("quick-at-once-table-second", 300*time.Millisecond)
	t.Logf("screenshots in %s", p.dir)
}
