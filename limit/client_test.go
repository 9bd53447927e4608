package limit

import (
	"crypto/tls"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"strings"
	"testing"
)

func TestParseProxies(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want string // String() of the result
	}{
		{"", ""},
		{"   ", ""},
		{"10.0.0.0/8", "10.0.0.0/8"},
		{" 10.0.0.0/8 , 192.168.1.0/24,fd00::/8 ", "10.0.0.0/8,192.168.1.0/24,fd00::/8"},
		{"203.0.113.7", "203.0.113.7/32"},
		{"2001:db8::1", "2001:db8::1/128"},
		{"::ffff:10.1.2.3", "10.1.2.3/32"},
		{"::ffff:10.0.0.0/104", "10.0.0.0/8"},
		{"0.0.0.0/0", "0.0.0.0/0"},
	} {
		p, err := ParseProxies(tc.in)
		if err != nil {
			t.Errorf("ParseProxies(%q): %v", tc.in, err)
			continue
		}
		if got := p.String(); got != tc.want {
			t.Errorf("ParseProxies(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

func TestParseProxiesErrors(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want []string // substrings of the error
	}{
		{"10.0.0.0/8,foo", []string{`"foo"`, "neither a CIDR nor an address"}},
		{"10.0.0.0/33", []string{`"10.0.0.0/33"`, "not a CIDR"}},
		{"10.0.0.1/8", []string{`"10.0.0.1/8"`, "host bits", "10.0.0.0/8"}},
		{"10.0.0.0/8,", []string{"entry 2 is empty"}},
		{"10.0.0.0/8,,fd00::/8", []string{"entry 2 is empty"}},
		{"fe80::1%eth0", []string{`"fe80::1%eth0"`}},
		{"fe80::%eth0/64", []string{`"fe80::%eth0/64"`}},
		{"10.0.0.0/8 192.168.0.0/16", []string{`"10.0.0.0/8 192.168.0.0/16"`}},
		{"10.0.0.0/-1", []string{`"10.0.0.0/-1"`}},
	} {
		p, err := ParseProxies(tc.in)
		if err == nil {
			t.Errorf("ParseProxies(%q) = %v, want an error", tc.in, p)
			continue
		}
		msg := err.Error()
		if !strings.HasPrefix(msg, "limit: ") {
			t.Errorf("ParseProxies(%q): error %q lacks the package prefix", tc.in, msg)
		}
		for _, w := range tc.want {
			if !strings.Contains(msg, w) {
				t.Errorf("ParseProxies(%q): error %q does not say %q", tc.in, msg, w)
			}
		}
	}
}

// request returns a request from remote carrying the given
// X-Forwarded-For lines.
func request(remote string, xff ...string) *http.Request {
	r := httptest.NewRequest("GET", "/api/tables", nil)
	r.RemoteAddr = remote
	for _, v := range xff {
		r.Header.Add("X-Forwarded-For", v)
	}
	return r
}

func TestClient(t *testing.T) {
	proxies, err := ParseProxies("10.0.0.0/8, 2001:db8:ffff::/48")
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name    string
		proxies Proxies
		remote  string
		xff     []string
		want    string // "" for the zero Addr
	}{
		{"direct", proxies, "203.0.113.7:51234", nil, "203.0.113.7"},
		{"direct v6", proxies, "[2001:db8:1::5]:443", nil, "2001:db8:1::5"},
		{"no proxies trusted", Proxies{}, "10.0.0.1:80", []string{"203.0.113.7"}, "10.0.0.1"},
		// Spoofing: a peer that is no proxy of ours chooses nothing.
		{"untrusted peer sends XFF", proxies, "198.51.100.9:4000", []string{"203.0.113.7"}, "198.51.100.9"},
		{"untrusted peer sends a trusted XFF", proxies, "198.51.100.9:4000", []string{"10.0.0.2"}, "198.51.100.9"},
		{"one proxy", proxies, "10.0.0.1:80", []string{"203.0.113.7"}, "203.0.113.7"},
		{"one proxy with spaces", proxies, "10.0.0.1:80", []string{"  203.0.113.7  "}, "203.0.113.7"},
		// The client prepends a made-up address; the proxy appends the
		// real one, which is the rightmost untrusted.
		{"client prepends a spoof", proxies, "10.0.0.1:80", []string{"1.1.1.1, 203.0.113.7"}, "203.0.113.7"},
		{"client prepends a trusted spoof", proxies, "10.0.0.1:80", []string{"10.9.9.9, 203.0.113.7"}, "203.0.113.7"},
		{"two trusted proxies", proxies, "10.0.0.1:80", []string{"203.0.113.7, 10.0.0.2"}, "203.0.113.7"},
		{"two trusted proxies and a spoof", proxies, "10.0.0.1:80", []string{"6.6.6.6, 203.0.113.7, 10.0.0.2"}, "203.0.113.7"},
		{"two proxies over two lines", proxies, "10.0.0.1:80", []string{"6.6.6.6, 203.0.113.7", "10.0.0.2"}, "203.0.113.7"},
		{"client's own line first", proxies, "10.0.0.1:80", []string{"6.6.6.6", "203.0.113.7"}, "203.0.113.7"},
		{"v6 proxies", proxies, "[2001:db8:ffff::1]:80", []string{"2001:db8:1::5, 2001:db8:ffff::2"}, "2001:db8:1::5"},
		{"all trusted: leftmost", proxies, "10.0.0.1:80", []string{"10.0.0.3, 10.0.0.2"}, "10.0.0.3"},
		{"trusted peer without XFF", proxies, "10.0.0.1:80", nil, "10.0.0.1"},
		{"empty XFF", proxies, "10.0.0.1:80", []string{""}, "10.0.0.1"},
		// Garbage stops the walk at the last good address.
		{"garbage only", proxies, "10.0.0.1:80", []string{"garbage"}, "10.0.0.1"},
		{"garbage behind a trusted proxy", proxies, "10.0.0.1:80", []string{"unknown, 10.0.0.2"}, "10.0.0.2"},
		{"garbage left of the client is never read", proxies, "10.0.0.1:80", []string{"<script>, 203.0.113.7"}, "203.0.113.7"},
		{"trailing comma", proxies, "10.0.0.1:80", []string{"203.0.113.7,"}, "10.0.0.1"},
		{"empty entry", proxies, "10.0.0.1:80", []string{"203.0.113.7,,10.0.0.2"}, "10.0.0.2"},
		{"CIDR in XFF", proxies, "10.0.0.1:80", []string{"203.0.113.0/24"}, "10.0.0.1"},
		{"quoted", proxies, "10.0.0.1:80", []string{`"203.0.113.7"`}, "10.0.0.1"},
		{"obfuscated", proxies, "10.0.0.1:80", []string{"_hidden"}, "10.0.0.1"},
		// Ports, brackets, zones and mapped addresses.
		{"entry with port", proxies, "10.0.0.1:80", []string{"203.0.113.7:5555"}, "203.0.113.7"},
		{"v6 entry in brackets", proxies, "10.0.0.1:80", []string{"[2001:db8:1::5]"}, "2001:db8:1::5"},
		{"v6 entry with port", proxies, "10.0.0.1:80", []string{"[2001:db8:1::5]:443"}, "2001:db8:1::5"},
		{"v4 in brackets", proxies, "10.0.0.1:80", []string{"[203.0.113.7]"}, "10.0.0.1"},
		{"mapped entry", proxies, "10.0.0.1:80", []string{"::ffff:203.0.113.7"}, "203.0.113.7"},
		{"mapped trusted entry", proxies, "10.0.0.1:80", []string{"203.0.113.7, ::ffff:10.0.0.2"}, "203.0.113.7"},
		{"mapped peer is trusted", proxies, "[::ffff:10.0.0.1]:80", []string{"203.0.113.7"}, "203.0.113.7"},
		{"mapped peer unmapped", proxies, "[::ffff:203.0.113.7]:80", nil, "203.0.113.7"},
		{"zoned peer", proxies, "[fe80::1%eth0]:80", nil, "fe80::1"},
		{"zoned entry", proxies, "10.0.0.1:80", []string{"fe80::1%eth0"}, "fe80::1"},
		{"zoned trusted peer", proxies, "[2001:db8:ffff::1%eth0]:80", []string{"203.0.113.7"}, "203.0.113.7"},
		{"peer without port", proxies, "203.0.113.7", nil, "203.0.113.7"},
		{"peer not an address", proxies, "@", nil, ""},
		{"no peer", proxies, "", []string{"203.0.113.7"}, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := tc.proxies.Client(request(tc.remote, tc.xff...))
			var want netip.Addr
			if tc.want != "" {
				want = netip.MustParseAddr(tc.want)
			}
			if got != want {
				t.Errorf("Client(RemoteAddr %q, X-Forwarded-For %q) = %v, want %v", tc.remote, tc.xff, got, want)
			}
		})
	}
}

// addrCase is an address ("" for the zero Addr) and the key it must give.
type addrCase struct{ addr, want string }

// checkKeys checks that key gives each case's want.
func checkKeys(t *testing.T, name string, key func(netip.Addr) string, cases []addrCase) {
	t.Helper()
	for _, tc := range cases {
		var a netip.Addr
		if tc.addr != "" {
			a = netip.MustParseAddr(tc.addr)
		}
		if got := key(a); got != tc.want {
			t.Errorf("%s(%v) = %q, want %q", name, tc.addr, got, tc.want)
		}
	}
}

func TestKey(t *testing.T) {
	checkKeys(t, "Key", Key, []addrCase{
		{"", ""},
		{"203.0.113.7", "203.0.113.7"},
		{"::ffff:203.0.113.7", "203.0.113.7"},
		{"2001:db8:1:2:3:4:5:6", "2001:db8:1:2::/64"},
		{"2001:db8:1:2::1", "2001:db8:1:2::/64"},
		{"2001:db8:1:3::1", "2001:db8:1:3::/64"},
		{"fe80::1%eth0", "fe80::/64"},
		{"::1", "::/64"},
	})
}

func TestNetwork(t *testing.T) {
	checkKeys(t, "Network", Network, []addrCase{
		{"", ""},
		{"203.0.113.7", "203.0.113.0/24"},
		{"203.0.113.250", "203.0.113.0/24"},
		{"203.0.114.7", "203.0.114.0/24"},
		{"::ffff:203.0.113.7", "203.0.113.0/24"},
		{"2001:db8:1:2:3:4:5:6", "2001:db8:1::/48"},
		{"2001:db8:1:ffff::1", "2001:db8:1::/48"},
		{"2001:db8:2::1", "2001:db8:2::/48"},
		{"fe80::1%eth0", "fe80::/48"},
		{"127.0.0.1", "127.0.0.0/24"},
	})
}

func FuzzParseProxies(f *testing.F) {
	for _, s := range []string{"", "10.0.0.0/8", "10.0.0.0/8, fd00::/8", "1.2.3.4", "::ffff:10.0.0.0/104", "10.0.0.1/8", ",", "fe80::%a/64"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		p, err := ParseProxies(s)
		if err != nil {
			if !strings.HasPrefix(err.Error(), "limit: ") {
				t.Errorf("error %q lacks the package prefix", err)
			}
			return
		}
		// What is printed for the log parses back to the same list.
		again, err := ParseProxies(p.String())
		if err != nil {
			t.Fatalf("ParseProxies(%q) = %q, which does not parse: %v", s, p, err)
		}
		if again.String() != p.String() {
			t.Errorf("ParseProxies(%q) = %q, parsed again %q", s, p, again)
		}
	})
}

func FuzzClient(f *testing.F) {
	f.Add("10.0.0.1:80", "203.0.113.7, 10.0.0.2", "")
	f.Add("198.51.100.9:1", "10.0.0.2", "")
	f.Add("[::ffff:10.0.0.1]:80", "[2001:db8::1]:80,fe80::1%eth0", "garbage")
	f.Add("[fe80::1%eth0]:80", ",,,", " , ")
	f.Add("10.0.0.1:80", "[", "]:")
	proxies, err := ParseProxies("10.0.0.0/8, 2001:db8:ffff::/48")
	if err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, remote, xff1, xff2 string) {
		r := request(remote)
		// Set directly: a proxy may pass on any bytes a client sent.
		r.Header["X-Forwarded-For"] = []string{xff1, xff2}
		got := proxies.Client(r)
		peer, ok := parseHost(remote)
		switch {
		case !ok:
			if got.IsValid() {
				t.Fatalf("peer %q is no address, yet the client is %v", remote, got)
			}
			return
		case !proxies.trusts(peer):
			if got != peer {
				t.Fatalf("untrusted peer %q: client %v chosen from its header", remote, got)
			}
		}
		if got.Zone() != "" || got.Is4In6() {
			t.Errorf("client %v has a zone or is mapped", got)
		}
		// The client is the peer or an address of the header.
		if got != peer {
			found := false
			for _, e := range strings.Split(xff1+","+xff2, ",") {
				if a, ok := parseHost(strings.TrimSpace(e)); ok && a == got {
					found = true
				}
			}
			if !found {
				t.Errorf("client %v is neither the peer %q nor in the header %q, %q", got, remote, xff1, xff2)
			}
		}
		_ = Key(got)
	})
}

func TestOrigin(t *testing.T) {
	proxies, err := ParseProxies("10.0.0.0/8, 2001:db8:ffff::/48")
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name    string
		proxies Proxies
		remote  string
		host    string // the request's Host
		tls     bool
		headers [][2]string // forwarded header lines, in order
		want    string      // scheme://host
	}{
		{"direct", proxies, "203.0.113.7:5000", "tapis.example:8080", false, nil, "http://tapis.example:8080"},
		{"direct over TLS", proxies, "203.0.113.7:5000", "tapis.example", true, nil, "https://tapis.example"},
		{"direct by address", proxies, "203.0.113.7:5000", "192.0.2.1:8080", false, nil, "http://192.0.2.1:8080"},
		// Spoofing: a peer that is no proxy of ours chooses nothing.
		{"untrusted peer sends forwarded headers", proxies, "198.51.100.9:4000", "tapis.example:8080", false,
			[][2]string{{"X-Forwarded-Host", "evil.example"}, {"X-Forwarded-Proto", "https"}}, "http://tapis.example:8080"},
		{"no proxies trusted", Proxies{}, "10.0.0.1:80", "backend:8080", false,
			[][2]string{{"X-Forwarded-Host", "tapis.example"}}, "http://backend:8080"},
		{"untrusted TLS peer keeps https", proxies, "198.51.100.9:4000", "tapis.example", true,
			[][2]string{{"X-Forwarded-Proto", "http"}}, "https://tapis.example"},
		{"trusted proxy", proxies, "10.0.0.1:80", "127.0.0.1:8080", false,
			[][2]string{{"X-Forwarded-Host", "tapis.example"}, {"X-Forwarded-Proto", "https"}}, "https://tapis.example"},
		{"trusted proxy, host only", proxies, "10.0.0.1:80", "127.0.0.1:8080", false,
			[][2]string{{"X-Forwarded-Host", "tapis.example:8443"}}, "http://tapis.example:8443"},
		{"trusted proxy, proto only", proxies, "10.0.0.1:80", "tapis.example", false,
			[][2]string{{"X-Forwarded-Proto", "HTTPS"}}, "https://tapis.example"},
		{"trusted v6 proxy", proxies, "[2001:db8:ffff::1]:80", "backend", false,
			[][2]string{{"X-Forwarded-Host", "[2001:db8::7]:8443"}, {"X-Forwarded-Proto", "https"}}, "https://[2001:db8::7]:8443"},
		{"trusted proxy without headers", proxies, "10.0.0.1:80", "backend:8080", false, nil, "http://backend:8080"},
		// The client's own header is on the left; the proxy's value wins.
		{"client prepends a host", proxies, "10.0.0.1:80", "backend", false,
			[][2]string{{"X-Forwarded-Host", "evil.example, tapis.example"}, {"X-Forwarded-Proto", "http, https"}}, "https://tapis.example"},
		{"client's own line first", proxies, "10.0.0.1:80", "backend", false,
			[][2]string{{"X-Forwarded-Host", "evil.example"}, {"X-Forwarded-Host", "tapis.example"}}, "http://tapis.example"},
		// What is not a host or a proto is ignored.
		{"host with a path", proxies, "10.0.0.1:80", "backend", false,
			[][2]string{{"X-Forwarded-Host", "evil.example/phish"}}, "http://backend"},
		{"host with a user", proxies, "10.0.0.1:80", "backend", false,
			[][2]string{{"X-Forwarded-Host", "me@evil.example"}}, "http://backend"},
		{"host with a scheme", proxies, "10.0.0.1:80", "backend", false,
			[][2]string{{"X-Forwarded-Host", "https://evil.example"}}, "http://backend"},
		{"host with a space", proxies, "10.0.0.1:80", "backend", false,
			[][2]string{{"X-Forwarded-Host", "a b"}}, "http://backend"},
		{"bad port", proxies, "10.0.0.1:80", "backend", false,
			[][2]string{{"X-Forwarded-Host", "tapis.example:80x"}}, "http://backend"},
		{"empty port", proxies, "10.0.0.1:80", "backend", false,
			[][2]string{{"X-Forwarded-Host", "tapis.example:"}}, "http://backend"},
		{"zoned v6", proxies, "10.0.0.1:80", "backend", false,
			[][2]string{{"X-Forwarded-Host", "[fe80::1%eth0]"}}, "http://backend"},
		{"trailing comma", proxies, "10.0.0.1:80", "backend", false,
			[][2]string{{"X-Forwarded-Host", "tapis.example,"}}, "http://backend"},
		{"other proto", proxies, "10.0.0.1:80", "backend", false,
			[][2]string{{"X-Forwarded-Proto", "javascript"}}, "http://backend"},
		{"no peer", proxies, "", "tapis.example", false,
			[][2]string{{"X-Forwarded-Host", "evil.example"}}, "http://tapis.example"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := request(tc.remote)
			r.Host = tc.host
			if tc.tls {
				r.TLS = &tls.ConnectionState{}
			}
			for _, kv := range tc.headers {
				r.Header.Add(kv[0], kv[1])
			}
			scheme, host := tc.proxies.Origin(r)
			if got := scheme + "://" + host; got != tc.want {
				t.Errorf("Origin(RemoteAddr %q, Host %q, %q) = %q, want %q", tc.remote, tc.host, tc.headers, got, tc.want)
			}
		})
	}
}
