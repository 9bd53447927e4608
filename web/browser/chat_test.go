package browser

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"
)

// chatRead is what the chat test reads of the page.
type chatRead struct {
	Open    bool     `json:"open"`
	Lines   []string `json:"lines"` // each line's text content
	Unread  string   `json:"unread"`
	Scripts int      `json:"scripts"` // script elements in the panel
	Status  string   `json:"status"`
	Hidden  int      `json:"hidden"` // lines folded as muted
	Tag     string   `json:"tag"`    // the first spectator mark
}

const readChat = `(() => {
  const p = document.querySelector('#chat');
  return {open: !!p && !p.hidden, lines: [...document.querySelectorAll('#chat .chat-line')].map(l => l.textContent),
    unread: document.querySelector('[data-action=chat] .chat-unread')?.textContent || '',
    scripts: p ? p.querySelectorAll('script').length : -1,
    status: document.querySelector('#chat-status')?.textContent || '',
    hidden: document.querySelectorAll('#chat .chat-hidden').length,
    tag: document.querySelector('#chat .chat-tag')?.textContent || ''};
})()`

// coverScript lists the elements of sels that the element cover overlaps.
func coverScript(cover string, sels []string) string {
	q := make([]string, len(sels))
	for i, s := range sels {
		q[i] = fmt.Sprintf("%q", s)
	}
	return fmt.Sprintf(`(() => {
  const c = document.querySelector(%q), out = [];
  if (!c || c.hidden) return out;
  const a = c.getBoundingClientRect();
  for (const sel of [%s]) for (const e of document.querySelectorAll(sel)) {
    const r = e.getBoundingClientRect();
    if (r.left < a.right && a.left < r.right && r.top < a.bottom && a.top < r.bottom) out.push(sel);
  }
  return out;
})()`, cover, strings.Join(q, ","))
}

// TestBrowserChat: a player chats at a Cabo table with a spectator (a
// WebSocket client): their line and the spectator's reach each other, the
// spectator's markup shows as text under a spectator mark, a muted name's
// lines fold and come back, and the host mutes the spectator for
// everyone. At 1366×768 the open panel sits beside the table, at 390×844
// it opens over it and closes to a button with the unread count; either
// way the hand and the actions stay in the window and uncovered, and the
// page is photographed.
func TestBrowserChat(t *testing.T) {
	t.Parallel() // waits on conditions only: see parallel in page_test.go
	p := newPage(t, 300*time.Millisecond, 4*time.Minute)
	p.createTable(table{game: "cabo", players: 3, bots: []string{"", "random"}}, `[data-seatbot="1"]`)
	var path string
	p.eval("the table's address", `location.pathname`, &path)
	id := strings.TrimPrefix(path, "/t/")
	// A guest takes seat 1 (the table starts), a spectator comes.
	guest := p.h.Join(id, "Bob")
	cb := p.h.Dial(id, guest.Token)
	spec := p.h.Dial(id, "")
	spec.Send(`{"type":"hello","name":"Zoé"}`)
	zoe := spec.NextChat("hello").From
	p.run("game", chromedp.WaitVisible(`#game`, chromedp.ByQuery))

	p.resize(1366, 768)
	var cr chatRead
	p.clickFor(`[data-action=chat]`, "the chat open", readChat, &cr, func() bool { return cr.Open })
	p.run("type a line", chromedp.SendKeys(`#chat-input`, "Hello table"+kb.Enter, chromedp.ByQuery))
	if m := spec.NextChat("chat"); m.Line.Name != "Alice" || m.Line.Text != "Hello table" || m.Line.Seat != 0 {
		t.Fatalf("the spectator read %+v", m.Line)
	}
	const xss = `<script>alert(1)</script><img src=x onerror=alert(2)>`
	spec.Send(map[string]any{"type": "chat", "text": xss})
	if m := spec.NextChat("chat"); m.Line.Text != xss {
		t.Fatalf("the spectator's markup came back as %q", m.Line.Text)
	}
	cb.Send(`{"type":"chat","text":"hi all"}`)
	p.until("three lines", readChat, &cr, func() bool { return len(cr.Lines) == 3 })
	want := []string{"AliceHello table", "Zoéspectator" + xss, "Bobhi all"}
	for i, w := range want {
		if cr.Lines[i] != w {
			t.Errorf("line %d reads %q, want %q", i+1, cr.Lines[i], w)
		}
	}
	var imgs int
	p.eval("markup", `document.querySelectorAll('#chat img, #chat script').length`, &imgs)
	if cr.Scripts != 0 || imgs != 0 || cr.Tag != "spectator" {
		t.Fatalf("the spectator's line made %d scripts and %d images; its mark reads %q", cr.Scripts, imgs, cr.Tag)
	}

	// My turn, the chat open beside the table: nothing of the game is
	// outside the window or under the panel.
	var st tableState
	p.untilTurn(readTable(""), &st, &st)
	for _, sz := range sizes {
		p.resize(sz[0], sz[1])
		if sz[0] < 1100 {
			p.until("the chat open", readChat, &cr, func() bool { return cr.Open })
			// Issue 26: a sheet, under the turn prompt and the seats
			// with their clocks, which stay in view.
			var under []string
			p.eval("under the chat", coverScript("#chat", []string{".hintline", "ul.seats"}), &under)
			if len(under) > 0 {
				t.Errorf("at %dx%d the chat covers %q", sz[0], sz[1], under)
			}
		}
		p.shoot(fmt.Sprintf("chat-open-%d.png", sz[0]), chromedp.Sleep(200*time.Millisecond))
		var bad []string
		p.eval("the chat's panel", `(() => { const r = document.querySelector('#chat').getBoundingClientRect(), out = [];
  if (r.left < 0 || r.right > innerWidth + .5 || r.bottom > innerHeight + .5) out.push('panel at ' + [r.left, r.top, r.right, r.bottom].map(Math.round));
  for (const e of document.querySelectorAll('#chat *')) { const q = e.getBoundingClientRect(); if (q.right > r.right + .5) out.push(e.className + ' sticks out'); }
  if (document.documentElement.scrollWidth > innerWidth) out.push('page ' + document.documentElement.scrollWidth + ' wide');
  return out; })()`, &bad)
		if len(bad) > 0 {
			t.Errorf("at %dx%d the open chat: %q", sz[0], sz[1], bad)
		}
		if sz[0] >= 1100 {
			p.eval("outside the window", fitScript(mustSee["cabo"]), &bad)
			if len(bad) > 0 {
				t.Errorf("at %dx%d with the chat beside the table: outside the window: %q", sz[0], sz[1], bad)
			}
			p.eval("under the chat", coverScript("#chat", mustSee["cabo"]), &bad)
			if len(bad) > 0 {
				t.Errorf("at %dx%d the chat covers %q", sz[0], sz[1], bad)
			}
		}
	}

	// On a phone the chat closes to its button; a line said meanwhile
	// counts as unread, and the game is whole again.
	p.resize(390, 844)
	p.clickFor(`[data-action=chat-close]`, "the chat closed", readChat, &cr, func() bool { return !cr.Open })
	cb.Send(`{"type":"chat","text":"your turn, Alice"}`)
	p.until("one unread line", readChat, &cr, func() bool { return cr.Unread == "1" })
	var bad []string
	p.eval("outside the window", fitScript(mustSee["cabo"]), &bad)
	if len(bad) > 0 {
		t.Errorf("at 390x844 with the chat closed: outside the window: %q", bad)
	}
	p.shoot("chat-closed-390.png", chromedp.Sleep(200*time.Millisecond))
	// The smallest phone: the table's tools, the chat's among them, on
	// one line.
	p.resize(360, 740)
	p.eval("outside the window", fitScript(mustSee["cabo"]), &bad)
	if len(bad) > 0 {
		t.Errorf("at 360x740 with the chat closed: %q", bad)
	}
	p.shoot("chat-closed-360.png", chromedp.Sleep(200*time.Millisecond))

	// Back on the desktop: mute Zoé for me, her lines fold; unmute.
	p.resize(1366, 768)
	p.clickFor(`[data-action=chat]`, "the chat open", readChat, &cr, func() bool { return cr.Open })
	p.until("the chat open, read", readChat, &cr, func() bool { return cr.Open && cr.Unread == "" && len(cr.Lines) == 4 })
	p.click(`#chat .chat-line.spectator button.chat-who`)
	p.click(`#chat [data-chat-mute]`)
	p.until("Zoé's line folded", readChat, &cr, func() bool { return cr.Hidden == 1 })
	var kept string
	p.eval("the muted names", fmt.Sprintf(`localStorage.getItem('tapis.chat.muted.%s')`, id), &kept)
	if kept != `["s:Zoé"]` {
		t.Errorf("the muted names kept: %q", kept)
	}
	p.shoot("chat-muted-1366.png")
	p.click(`#chat [data-chat-unmute]`)
	p.until("Zoé's line back", readChat, &cr, func() bool { return cr.Hidden == 0 })

	// The host mutes the spectator for everyone.
	p.click(`#chat .chat-line.spectator button.chat-who`)
	p.click(fmt.Sprintf(`#chat [data-chat-hostmute=%q]`, zoe))
	if m := spec.NextChat("muted"); m.Spectator != zoe {
		t.Fatalf("the mute was told as %+v", m)
	}
	spec.Send(`{"type":"chat","text":"can I?"}`)
	if m := spec.NextChat("error"); m.Code != "muted" {
		t.Fatalf("after the host's mute: %+v", m)
	}

	// In French, the mark reads so.
	p.click(`#lang`)
	p.until("the French mark", readChat, &cr, func() bool { return cr.Tag == "spectateur" })
}
