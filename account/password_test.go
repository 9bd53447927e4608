package account

import (
	"context"
	"encoding/base64"
	"errors"
	"fmt"
	"strings"
	"sync"
	"testing"
	"testing/synctest"

	"golang.org/x/crypto/argon2"
)

const pw = "correct horse battery"

func TestHashVerifyRoundTrip(t *testing.T) {
	phc, err := Hash(pw)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(phc, "$argon2id$v=19$m=19456,t=2,p=1$") {
		t.Fatalf("Hash = %q, want OWASP parameters in PHC form", phc)
	}
	if ok, err := Verify(pw, phc); !ok || err != nil {
		t.Fatalf("Verify(right password) = %v, %v", ok, err)
	}
	if ok, err := Verify(pw+"!", phc); ok || err != nil {
		t.Fatalf("Verify(wrong password) = %v, %v; want false, nil", ok, err)
	}
	if NeedsRehash(phc) {
		t.Error("NeedsRehash of a fresh hash = true")
	}
	other, _ := Hash(pw)
	if other == phc {
		t.Error("two hashes of one password are equal: salt not random")
	}
}

// TestKnownAnswer checks the encoding against argon2.IDKey and base64 called directly, so that a
// mistake in encode (wrong alphabet, padding, parameter order) cannot pass unnoticed.
func TestKnownAnswer(t *testing.T) {
	salt := []byte("0123456789abcdef")
	key := argon2.IDKey([]byte("password"), salt, 2, 19456, 1, 32)
	want := "$argon2id$v=19$m=19456,t=2,p=1$" +
		base64.RawStdEncoding.EncodeToString(salt) + "$" + base64.RawStdEncoding.EncodeToString(key)
	if got := hashWithSalt("password", salt, current); got != want {
		t.Fatalf("hashWithSalt = %q\nwant          %q", got, want)
	}
	if want[len("$argon2id$v=19$m=19456,t=2,p=1$"):][:22] != "MDEyMzQ1Njc4OWFiY2RlZg" {
		t.Fatal("salt not in unpadded standard base64")
	}
	if ok, err := Verify("password", want); !ok || err != nil {
		t.Fatalf("Verify(known answer) = %v, %v", ok, err)
	}
}

// TestReferenceVector verifies a hash made by the reference implementation (the argon2 CLI,
// `echo -n password | argon2 somesalt -id -t 2 -m 16 -p 1 -l 32`), so that strings written by
// other implementations are read the same way.
func TestReferenceVector(t *testing.T) {
	const ref = "$argon2id$v=19$m=65536,t=2,p=1$c29tZXNhbHQ$CTFhFdXPJO1aFaMaO6Mm5c8y7cJHAph8ArZWb2GRPPc"
	ok, err := Verify("password", ref)
	if !ok || err != nil {
		t.Fatalf("Verify(reference vector) = %v, %v", ok, err)
	}
	// More memory than now, but its 8-byte salt is shorter than the 16 bytes Hash uses.
	if !NeedsRehash(ref) {
		t.Error("NeedsRehash(8-byte salt) = false")
	}
	strong := hashWithSalt("password", []byte("0123456789abcdef"), params{memory: 65536, passes: 3, lanes: 1})
	if NeedsRehash(strong) {
		t.Error("NeedsRehash(64 MiB, t=3) = true; stronger than current")
	}
}

func TestLowerParametersVerifyAndNeedRehash(t *testing.T) {
	salt := []byte("saltsaltsaltsalt")
	for _, p := range []params{
		{memory: 8 * 1024, passes: 2, lanes: 1},
		{memory: 19456, passes: 1, lanes: 1},
	} {
		phc := hashWithSalt(pw, salt, p)
		if ok, err := Verify(pw, phc); !ok || err != nil {
			t.Errorf("Verify(%s) = %v, %v", phc, ok, err)
		}
		if !NeedsRehash(phc) {
			t.Errorf("NeedsRehash(%s) = false", phc)
		}
	}
	// A shorter salt than ours is accepted (the PHC minimum is 8 bytes) but worth replacing.
	short := hashWithSalt(pw, []byte("8bytes!!"), current)
	if ok, err := Verify(pw, short); !ok || err != nil || !NeedsRehash(short) {
		t.Errorf("8-byte salt: Verify = %v, %v; NeedsRehash = %v", ok, err, NeedsRehash(short))
	}
}

func TestTampered(t *testing.T) {
	salt := []byte("0123456789abcdef")
	phc := hashWithSalt(pw, salt, current)
	parts := strings.Split(phc, "$")
	flip := func(s string) string { // change the first character to another valid base64 one
		c := byte('A')
		if s[0] == 'A' {
			c = 'B'
		}
		return string(c) + s[1:]
	}
	for name, bad := range map[string]string{
		"hash":     strings.Join([]string{"", parts[1], parts[2], parts[3], parts[4], flip(parts[5])}, "$"),
		"salt":     strings.Join([]string{"", parts[1], parts[2], parts[3], flip(parts[4]), parts[5]}, "$"),
		"memory":   strings.Replace(phc, "m=19456", "m=19457", 1),
		"passes":   strings.Replace(phc, "t=2", "t=3", 1),
		"lanes":    strings.Replace(phc, "p=1", "p=2", 1),
		"key size": strings.Join([]string{"", parts[1], parts[2], parts[3], parts[4], parts[5][:len(parts[5])-11]}, "$"),
	} {
		ok, err := Verify(pw, bad)
		if ok {
			t.Errorf("%s tampered: Verify = true (%s)", name, bad)
		}
		if err != nil {
			t.Logf("%s tampered: %v", name, err)
		}
	}
}

func TestMalformed(t *testing.T) {
	good := hashWithSalt(pw, []byte("0123456789abcdef"), current)
	salt, key := strings.Split(good, "$")[4], strings.Split(good, "$")[5]
	for _, bad := range []string{
		"",
		"plain",
		"$argon2i$v=19$m=19456,t=2,p=1$" + salt + "$" + key,
		"$argon2id$v=16$m=19456,t=2,p=1$" + salt + "$" + key,
		"$argon2id$v=19$t=2,m=19456,p=1$" + salt + "$" + key,
		"$argon2id$v=19$m=19456,t=2$" + salt + "$" + key,
		"$argon2id$v=19$m=19456,t=2,p=1,x=1$" + salt + "$" + key,
		"$argon2id$v=19$m=-1,t=2,p=1$" + salt + "$" + key,
		"$argon2id$v=19$m=+19456,t=2,p=1$" + salt + "$" + key,
		"$argon2id$v=19$m=99999999999,t=2,p=1$" + salt + "$" + key,
		"$argon2id$v=19$m=1048577,t=2,p=1$" + salt + "$" + key, // 1 GiB + 1 KiB
		"$argon2id$v=19$m=19456,t=0,p=1$" + salt + "$" + key,
		"$argon2id$v=19$m=19456,t=33,p=1$" + salt + "$" + key,
		"$argon2id$v=19$m=19456,t=2,p=0$" + salt + "$" + key,
		"$argon2id$v=19$m=19456,t=2,p=17$" + salt + "$" + key,
		"$argon2id$v=19$m=7,t=2,p=1$" + salt + "$" + key,
		"$argon2id$v=19$m=19456,t=2,p=1$" + salt + "==$" + key,
		"$argon2id$v=19$m=19456,t=2,p=1$" + salt + "$" + key + "=",
		"$argon2id$v=19$m=19456,t=2,p=1$c2FsdA$" + key, // 4-byte salt
		"$argon2id$v=19$m=19456,t=2,p=1$" + salt + "$" + key[:10],
		"$argon2id$v=19$m=19456,t=2,p=1$" + salt + "$" + key + "$",
		good + strings.Repeat("A", 600),
		"$argon2id$v=19$m=19456,t=2,p=1$" + salt + "$" + key[:10] + "\n" + key[10:], // base64 decoders skip \n
		"$argon2id$v=19$m=19456,t=2,p=1$" + salt[:5] + "\r" + salt[5:] + "$" + key,
	} {
		ok, err := Verify(pw, bad)
		if ok || !errors.Is(err, ErrMalformedHash) {
			t.Errorf("Verify(%q) = %v, %v; want false, ErrMalformedHash", bad, ok, err)
			continue
		}
		if !strings.HasPrefix(err.Error(), "account: ") {
			t.Errorf("error %q lacks the account: prefix", err)
		}
		if !NeedsRehash(bad) {
			t.Errorf("NeedsRehash(%q) = false", bad)
		}
	}
}

func TestPasswordRules(t *testing.T) {
	for _, c := range []struct {
		pw   string
		want error
	}{
		{"", ErrPasswordEmpty},
		{"1234567", ErrPasswordTooShort},
		{"éèêëàâä", ErrPasswordTooShort}, // 7 characters though 14 bytes
		{"éèêëàâäö", nil},                // 8 characters
		{"12345678", nil},
		{strings.Repeat("x", MaxPassword), nil},
		{strings.Repeat("x", MaxPassword+1), ErrPasswordTooLong},
	} {
		_, err := Hash(c.pw)
		if !errors.Is(err, c.want) {
			t.Errorf("Hash(%d bytes) error = %v, want %v", len(c.pw), err, c.want)
		}
	}
	phc, _ := Hash(pw)
	if _, err := Verify(strings.Repeat("x", MaxPassword+1), phc); !errors.Is(err, ErrPasswordTooLong) {
		t.Errorf("Verify(too long) error = %v", err)
	}
	if _, err := Verify("", phc); !errors.Is(err, ErrPasswordEmpty) {
		t.Errorf("Verify(empty) error = %v", err)
	}
	// A password chosen under a lower minimum must still verify if the minimum is raised.
	old := hashWithSalt("short", []byte("0123456789abcdef"), current)
	if ok, err := Verify("short", old); !ok || err != nil {
		t.Errorf("Verify(below minimum, stored earlier) = %v, %v", ok, err)
	}
}

func TestHasherVerifyAndVerifyNone(t *testing.T) {
	h := NewHasher(2)
	ctx := context.Background()
	phc, err := h.Hash(ctx, pw)
	if err != nil {
		t.Fatal(err)
	}
	if ok, err := h.Verify(ctx, pw, phc); !ok || err != nil {
		t.Fatalf("Hasher.Verify = %v, %v", ok, err)
	}
	if err := h.VerifyNone(ctx, pw); err != nil {
		t.Fatalf("VerifyNone = %v", err)
	}
	if err := h.VerifyNone(ctx, ""); !errors.Is(err, ErrPasswordEmpty) {
		t.Fatalf("VerifyNone(empty) = %v, want ErrPasswordEmpty as Verify gives", err)
	}
	// The dummy must cost what a current hash costs: same parameters, same sizes.
	p, salt, key, err := decode(dummyPHC)
	if err != nil || p != current || len(salt) != saltBytes || len(key) != keyBytes {
		t.Fatalf("dummy %q: %v %v %d %d", dummyPHC, p, err, len(salt), len(key))
	}
	if _, err := h.Hash(ctx, "short"); !errors.Is(err, ErrPasswordTooShort) {
		t.Fatalf("Hasher.Hash(short) = %v", err)
	}
}

// TestHasherCap holds the only slot of a Hasher and checks that other calls wait for it, and
// that one whose context is cancelled while waiting fails naming the cause. synctest.Wait
// returns once every goroutine is blocked, which replaces sleeping and hoping.
func TestHasherCap(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		h := NewHasher(1)
		var (
			mu       sync.Mutex
			inside   int
			most     int
			release  = make(chan struct{})
			firstOne = true
		)
		h.holding = func(string) {
			mu.Lock()
			inside++
			most = max(most, inside)
			hold := firstOne
			firstOne = false
			mu.Unlock()
			if hold {
				<-release
			}
			mu.Lock()
			inside--
			mu.Unlock()
		}
		// inside is counted only around the hook, but the hook runs while the slot is held, so
		// two at once would show as most == 2.

		first := make(chan error, 1)
		go func() { _, err := h.Hash(context.Background(), pw); first <- err }()
		synctest.Wait() // first holds the slot, blocked in the hook

		cause := errors.New("player closed the tab")
		ctx, cancel := context.WithCancelCause(context.Background())
		waiting := make(chan error, 1)
		go func() { _, err := h.Verify(ctx, pw, dummyPHC); waiting <- err }()
		synctest.Wait()
		select {
		case err := <-waiting:
			t.Fatalf("second call returned while the slot was held: %v", err)
		default:
		}
		cancel(cause)
		synctest.Wait()
		select {
		case err := <-waiting:
			if !errors.Is(err, cause) || !strings.HasPrefix(err.Error(), "account: ") {
				t.Fatalf("cancelled waiter: %v, want an account: error wrapping %v", err, cause)
			}
		default:
			t.Fatal("cancelled waiter still waiting")
		}

		third := make(chan error, 1)
		go func() { third <- h.VerifyNone(context.Background(), pw) }()
		synctest.Wait()
		select {
		case err := <-third:
			t.Fatalf("third call returned while the slot was held: %v", err)
		default:
		}
		close(release)
		if err := <-first; err != nil {
			t.Fatal(err)
		}
		if err := <-third; err != nil {
			t.Fatal(err)
		}
		if most != 1 {
			t.Fatalf("%d hashes ran at once with a cap of 1", most)
		}

		// A context already ended does not hash even when a slot is free.
		done, stop := context.WithCancel(context.Background())
		stop()
		if _, err := h.Hash(done, pw); !errors.Is(err, context.Canceled) {
			t.Fatalf("Hash(ended ctx) = %v", err)
		}
	})
}

// FuzzDecode feeds the PHC parser arbitrary strings: it must not panic, and whatever it accepts
// must be within the limits and encode back to the same string.
func FuzzDecode(f *testing.F) {
	f.Add(hashWithSalt(pw, []byte("0123456789abcdef"), current))
	f.Add("$argon2id$v=19$m=65536,t=2,p=1$c29tZXNhbHQ$CTFhFdXPJO1aFaMaO6Mm5c8y7cJHAph8ArZWb2GRPPc")
	f.Add("$argon2id$v=19$m=1048577,t=2,p=1$c29tZXNhbHQ$CTFhFdXPJO1aFaMaO6Mm5c8y7cJHAph8ArZWb2GRPPc")
	f.Add("$argon2id$v=19$m=8,t=1,p=1$AAAAAAAAAAA$AAAAAAAAAAAAAAAAAAAAAA")
	f.Add("$$$$$")
	f.Fuzz(func(t *testing.T, s string) {
		p, salt, key, err := decode(s)
		NeedsRehash(s)
		if err != nil {
			return
		}
		if p.memory > maxMemoryKiB || p.passes < 1 || p.passes > maxPasses || p.lanes < 1 || p.lanes > maxLanes {
			t.Fatalf("accepted %q with %+v", s, p)
		}
		// Leading zeros in a number are the one other spelling accepted.
		if again := encode(p, salt, key); again != s && !strings.Contains(s, "=0") {
			t.Fatalf("decode(%q) re-encodes as %q", s, again)
		}
	})
}

func BenchmarkHash(b *testing.B) {
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Hash(pw); err != nil {
			b.Fatal(err)
		}
	}
}

func ExampleHasher() {
	h := NewHasher(0)
	ctx := context.Background()
	phc, _ := h.Hash(ctx, "correct horse battery")
	ok, _ := h.Verify(ctx, "correct horse battery", phc)
	fmt.Println(ok, NeedsRehash(phc))
	// Output: true false
}
