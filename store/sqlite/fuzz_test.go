package sqlite

import (
	"context"
	"database/sql"
	"encoding/binary"
	"os"
	"path/filepath"
	"testing"
	"time"

	"tapis/store"
	"tapis/store/storetest"
)

// FuzzOpenDamaged damages a small valid SQLite database at offsets the
// fuzzer picks, then does what a starting server and tapis check do with
// it: open the store, list the open tables, load each table, check the
// file. Any of these may fail; none may panic or hang. patches is read
// three bytes at a time: a big-endian offset into the file (modulo its
// length) and the byte to write there.
func FuzzOpenDamaged(f *testing.F) {
	tmpl, roots := fuzzTemplate(f)
	f.Add([]byte{})
	for _, p := range []int{16, 17, 18, 28, 56, 100, 105} { // header: page size, versions, size, encoding; page 1's b-tree header
		f.Add(patch(p, 0xff))
	}
	for _, r := range roots {
		off := (r - 1) * fuzzPage
		f.Add(patch(off, 0x00))                                  // the page type
		f.Add(patch(off+3, 0x7f))                                // the cell count
		f.Add(append(patch(off+8, 0xff), patch(off+9, 0xff)...)) // the first cell pointer
		f.Add(patch(off+fuzzPage-20, 0x42))                      // a cell's content
	}
	f.Fuzz(func(t *testing.T, patches []byte) {
		b := append([]byte(nil), tmpl...)
		for ; len(patches) >= 3; patches = patches[3:] {
			b[int(binary.BigEndian.Uint16(patches))%len(b)] = patches[2]
		}
		path := filepath.Join(t.TempDir(), "damaged.db")
		if err := os.WriteFile(path, b, 0o600); err != nil {
			t.Fatal(err)
		}
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		s, err := Open(path)
		if err != nil {
			return
		}
		defer s.Close()
		sums, _ := s.Open(ctx)
		for _, sm := range sums {
			s.Load(ctx, sm.ID)
		}
		ids, _ := s.Tables(ctx)
		for _, id := range ids {
			s.Load(ctx, id)
		}
		s.Check(ctx)
		if ctx.Err() != nil {
			t.Fatal("reading the damaged database took more than 10 s")
		}
	})
}

// fuzzPage is the template's page size: the smallest SQLite has, so that
// a small database has many pages, and b-trees deeper than one page, for
// the fuzzer to damage.
const fuzzPage = 512

// patch is a patches record writing v at offset off.
func patch(off int, v byte) []byte {
	return []byte{byte(off >> 8), byte(off), v}
}

// fuzzTemplate builds the database FuzzOpenDamaged damages: tables in
// every state (waiting, playing, finished, closed), seats and moves. It
// returns the file's bytes and the root page of each of its tables and
// indexes.
func fuzzTemplate(f *testing.F) ([]byte, []int) {
	path := filepath.Join(f.TempDir(), "template.db")
	db, err := sql.Open("sqlite", "file:"+path)
	if err != nil {
		f.Fatal(err)
	}
	// The page size holds once the file has a page.
	if _, err := db.Exec(`PRAGMA page_size = 512; CREATE TABLE x (a); DROP TABLE x`); err != nil {
		f.Fatal(err)
	}
	db.Close()
	s, err := Open(path)
	if err != nil {
		f.Fatal(err)
	}
	ctx := context.Background()
	must := func(err error) {
		if err != nil {
			f.Fatal(err)
		}
	}
	must(s.CreateTable(ctx, store.Table{ID: "waiting", Game: "cabo", Players: 3, Created: time.UnixMilli(1000), Creator: "192.0.2.1",
		Seats: []store.Seat{{Name: "Ann", TokenHash: "h1"}, {Bot: "random"}, {}}}, nil))
	for i, id := range []string{"playing", "over", "closed", "again"} {
		must(storetest.FillTable(ctx, s, id, 8*(i+1)))
	}
	must(s.EndMatch(ctx, "over", 1))
	must(s.CloseTable(ctx, "closed", store.Abandoned, "nobody for 24 h"))
	must(s.EndMatch(ctx, "again", 1))
	must(s.StartMatch(ctx, "again", 2, 99))
	must(s.Touch(ctx, "playing", time.UnixMilli(1_700_000_000_000)))
	rows, err := s.db.Query(`SELECT rootpage FROM sqlite_master WHERE rootpage > 0`)
	must(err)
	var roots []int
	for rows.Next() {
		var r int
		must(rows.Scan(&r))
		roots = append(roots, r)
	}
	rows.Close()
	must(s.Close())
	b, err := os.ReadFile(path)
	must(err)
	if len(b) > 1<<16 {
		f.Fatalf("the template is %d bytes: offsets of two bytes do not reach all of it", len(b))
	}
	if _, err := os.Stat(path + "-wal"); err == nil {
		f.Fatal("the template's last writes are still in its WAL file")
	}
	return b, roots
}
