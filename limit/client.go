// Package limit holds Tapis's per-client limits: who a client is (its
// address, or the one a trusted proxy forwards), rates per client (table
// creation, joins, messages) and counts of what a client holds at once
// (open connections, waiting tables).
//
// A client is keyed by its address, so that one client looping on an
// endpoint spends its own budget only: a flood from one address never stops
// another address from creating tables and playing. Every structure here
// keeps its memory bounded whatever the number of distinct addresses an
// attacker uses.
//
// A handler typically reads:
//
//	key := limit.Key(proxies.Client(r))
//	if retry, ok := creates.Allow(key); !ok {
//		w.Header().Set("Retry-After", limit.RetryAfter(retry))
//		http.Error(w, "too many tables: try again later", http.StatusTooManyRequests)
//		return
//	}
//
// The package is pure: it reads requests but writes no responses and starts
// no goroutines.
package limit

import (
	"fmt"
	"net/http"
	"net/netip"
	"strings"
)

// Proxies are the address ranges of the reverse proxies whose
// X-Forwarded-For header is believed. The zero value trusts none: every
// client is its connection's address.
type Proxies struct {
	prefixes []netip.Prefix
}

// ParseProxies parses a comma-separated list of CIDRs (spaces allowed
// around entries), such as the value of `--trusted-proxy`. A bare address
// stands for itself alone (/32 or /128). An empty or blank string trusts
// none. A CIDR with host bits set ("10.0.0.1/8") is refused rather than
// masked: the list says whom to believe, so a typo must not silently widen
// or move it.
func ParseProxies(s string) (Proxies, error) {
	if strings.TrimSpace(s) == "" {
		return Proxies{}, nil
	}
	var p Proxies
	for i, entry := range strings.Split(s, ",") {
		entry = strings.TrimSpace(entry)
		if entry == "" {
			return Proxies{}, fmt.Errorf("limit: trusted proxy list %q: entry %d is empty", s, i+1)
		}
		pre, err := parsePrefix(entry)
		if err != nil {
			return Proxies{}, err
		}
		p.prefixes = append(p.prefixes, pre)
	}
	return p, nil
}

// parsePrefix parses one entry of a proxy list.
func parsePrefix(entry string) (netip.Prefix, error) {
	if !strings.Contains(entry, "/") {
		a, err := netip.ParseAddr(entry)
		if err != nil || a.Zone() != "" {
			return netip.Prefix{}, fmt.Errorf("limit: trusted proxy %q is neither a CIDR nor an address", entry)
		}
		a = a.Unmap()
		return netip.PrefixFrom(a, a.BitLen()), nil
	}
	pre, err := netip.ParsePrefix(entry)
	if err != nil {
		return netip.Prefix{}, fmt.Errorf("limit: trusted proxy %q is not a CIDR (such as 10.0.0.0/8 or fd00::/8)", entry)
	}
	if m := pre.Masked(); m != pre {
		return netip.Prefix{}, fmt.Errorf("limit: trusted proxy %q has host bits set: did you mean %s?", entry, m)
	}
	// Client unmaps the addresses it checks, so an IPv4-mapped range
	// (::ffff:10.0.0.0/104) must become the IPv4 range it means.
	if pre.Addr().Is4In6() && pre.Bits() >= 96 {
		pre = netip.PrefixFrom(pre.Addr().Unmap(), pre.Bits()-96)
	}
	return pre, nil
}

// String returns the list in ParseProxies's syntax, for logging what is
// trusted.
func (p Proxies) String() string {
	s := make([]string, len(p.prefixes))
	for i, pre := range p.prefixes {
		s[i] = pre.String()
	}
	return strings.Join(s, ",")
}

// trusts reports whether a (unmapped, without zone) is a trusted proxy's.
func (p Proxies) trusts(a netip.Addr) bool {
	for _, pre := range p.prefixes {
		if pre.Contains(a) {
			return true
		}
	}
	return false
}

// Client returns the address of the client that sent r, unmapped
// (::ffff:1.2.3.4 is 1.2.3.4) and without zone; the zero Addr if
// r.RemoteAddr is not an address (such as over a Unix socket).
//
// It is r.RemoteAddr unless that is a trusted proxy's. Then the
// X-Forwarded-For lines (all of them, in order, each a comma-separated list)
// are read from the right, as each proxy appends the peer it saw: trusted
// proxies are skipped and the first untrusted address is the client.
// Everything left of it was written by the client and is never read, so a
// client cannot choose its own key by sending the header. An entry that is
// not an address (with or without port, IPv6 in brackets or not) stops the
// walk and the last address read is the client: a proxy that writes garbage
// is misconfigured, and its own address is the best key left. If every
// entry is trusted, the leftmost one is the client.
func (p Proxies) Client(r *http.Request) netip.Addr {
	peer, ok := parseHost(r.RemoteAddr)
	if !ok || !p.trusts(peer) {
		return peer
	}
	last := peer
	lines := r.Header.Values("X-Forwarded-For")
	for i := len(lines) - 1; i >= 0; i-- {
		line := lines[i]
		for {
			comma := strings.LastIndexByte(line, ',')
			a, ok := parseHost(strings.TrimSpace(line[comma+1:]))
			if !ok {
				return last
			}
			if !p.trusts(a) {
				return a
			}
			last = a
			if comma < 0 {
				break
			}
			line = line[:comma]
		}
	}
	return last
}

// parseHost parses "addr", "addr:port", "[addr]" or "[addr]:port" and
// returns the address unmapped and without zone. It is the one parser for
// RemoteAddr and X-Forwarded-For entries, so both are read alike.
func parseHost(s string) (netip.Addr, bool) {
	a, err := netip.ParseAddr(s)
	if err != nil {
		ap, err2 := netip.ParseAddrPort(s)
		switch {
		case err2 == nil:
			a = ap.Addr()
		case len(s) > 2 && s[0] == '[' && s[len(s)-1] == ']':
			if a, err = netip.ParseAddr(s[1 : len(s)-1]); err != nil || !a.Is6() {
				return netip.Addr{}, false
			}
		default:
			return netip.Addr{}, false
		}
	}
	// The zone names the receiving host's interface, not the client; and
	// netip.Prefix.Contains is false for any address with a zone.
	return a.Unmap().WithZone(""), true
}

// Key returns the key under which addr's limits are kept: the IPv4 address
// itself, or the /64 prefix of an IPv6 address ("2001:db8:1:2::/64"). A
// home or a host is given a whole /64 and may use any address in it, so
// limits per IPv6 address would be no limits at all. The zero Addr's key is
// "", shared by every client without an address.
func Key(addr netip.Addr) string {
	addr = addr.Unmap().WithZone("")
	switch {
	case !addr.IsValid():
		return ""
	case addr.Is4():
		return addr.String()
	}
	pre, _ := addr.Prefix(64)
	return pre.String()
}

// Network returns the key of the network addr belongs to: its IPv4 /24
// ("203.0.113.0/24") or its IPv6 /48 ("2001:db8:1::/48"). One operator
// commonly holds a whole /24, and a site is given a /48 that holds
// billions of addresses, so a budget that several addresses share (the
// tables held in memory, password hashing) is kept per network as well as
// per client (Key): many addresses of one network together spend no more
// than the network's share. The zero Addr's network is "".
func Network(addr netip.Addr) string {
	addr = addr.Unmap().WithZone("")
	bits := 48
	switch {
	case !addr.IsValid():
		return ""
	case addr.Is4():
		bits = 24
	}
	pre, _ := addr.Prefix(bits)
	return pre.String()
}

// Origin returns the scheme ("http" or "https") and host (with its port,
// if any) under which the client reached the server, to build links it
// can follow, such as a table's invite: the request's own Host, and
// "https" over TLS. Behind a trusted proxy (the peer is one of p, as in
// Client) the request's Host is the proxy's business, so the proxy's
// X-Forwarded-Host and X-Forwarded-Proto say it instead. Of each, the
// right-most entry is read (all lines, comma-separated), the one the
// nearest proxy wrote: a client may send the headers too, and a proxy
// that appends leaves the client's words on the left. An untrusted peer's
// forwarded headers are never read, so nobody else can make the server
// hand out links to a host of their choosing. A forwarded value that is
// not a plain host[:port] (or a proto other than http and https) is
// ignored and the request's own is kept.
func (p Proxies) Origin(r *http.Request) (scheme, host string) {
	scheme, host = "http", r.Host
	if r.TLS != nil {
		scheme = "https"
	}
	peer, ok := parseHost(r.RemoteAddr)
	if !ok || !p.trusts(peer) {
		return scheme, host
	}
	if h := lastEntry(r.Header.Values("X-Forwarded-Host")); validHost(h) {
		host = h
	}
	switch proto := strings.ToLower(lastEntry(r.Header.Values("X-Forwarded-Proto"))); proto {
	case "http", "https":
		scheme = proto
	}
	return scheme, host
}

// lastEntry returns the right-most entry of comma-separated header lines,
// trimmed; "" when there is none.
func lastEntry(lines []string) string {
	if len(lines) == 0 {
		return ""
	}
	line := lines[len(lines)-1]
	return strings.TrimSpace(line[strings.LastIndexByte(line, ',')+1:])
}

// validHost reports whether h is a host name or address with an optional
// port, and nothing else (no scheme, path, user or space), so that a link
// built from it points at a host and only there.
func validHost(h string) bool {
	if h == "" || len(h) > 255 {
		return false
	}
	name, port := h, ""
	if strings.HasPrefix(h, "[") {
		// An IPv6 address: "[addr]" or "[addr]:port".
		end := strings.IndexByte(h, ']')
		if end < 0 {
			return false
		}
		if a, err := netip.ParseAddr(h[1:end]); err != nil || !a.Is6() || a.Zone() != "" {
			return false
		}
		name, port = "", h[end+1:]
		if port != "" && port[0] != ':' {
			return false
		}
		port = strings.TrimPrefix(port, ":")
	} else if i := strings.LastIndexByte(h, ':'); i >= 0 {
		name, port = h[:i], h[i+1:]
		if name == "" {
			return false
		}
	}
	if strings.HasSuffix(h, ":") {
		return false
	}
	for _, c := range port {
		if c < '0' || c > '9' {
			return false
		}
	}
	if len(port) > 5 {
		return false
	}
	for _, label := range strings.Split(name, ".") {
		if name == "" {
			break
		}
		if label == "" || len(label) > 63 {
			return false
		}
		for _, c := range label {
			if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '-') {
				return false
			}
		}
	}
	return true
}
