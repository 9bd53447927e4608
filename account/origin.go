package account

import (
	"net/http"
	"net/url"
	"strings"

	"tapis/limit"
)

// SameOrigin refuses, with 403 {"code": "cross_site"}, a request that
// changes state (any method but GET, HEAD and OPTIONS) sent by a page of
// another site, and passes every other request to next. The session
// cookie's SameSite=Lax keeps it off most such requests already; this is
// the second lock, for browsers that ignore SameSite and for a sibling
// subdomain, which SameSite counts as the same site.
//
// A request whose Origin header is present must come from the server's
// own origin, as limit.Proxies.Origin tells it (the Host and TLS, or what
// a trusted proxy forwards). Without Origin, a browser's
// Sec-Fetch-Site: cross-site refuses it; a request with neither comes
// from a program, not a page, and no cookie of a victim's rides on it.
func SameOrigin(proxies limit.Proxies, next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.Method {
		case http.MethodGet, http.MethodHead, http.MethodOptions:
			next.ServeHTTP(w, r)
			return
		}
		if !sameOrigin(proxies, r) {
			httpError(w, http.StatusForbidden, "cross_site", "account: refused a request sent from another site")
			return
		}
		next.ServeHTTP(w, r)
	})
}

// sameOrigin reports whether r may change state by the rules of
// SameOrigin.
func sameOrigin(proxies limit.Proxies, r *http.Request) bool {
	origins := r.Header.Values("Origin")
	if len(origins) == 0 {
		return r.Header.Get("Sec-Fetch-Site") != "cross-site"
	}
	if len(origins) > 1 {
		return false
	}
	u, err := url.Parse(origins[0])
	// "null" (a sandboxed frame, a redirect across origins) parses as a
	// path and is refused with anything else that is not scheme://host.
	if err != nil || u.Scheme == "" || u.Host == "" || u.User != nil || u.Path != "" || u.RawQuery != "" || u.Fragment != "" {
		return false
	}
	scheme, host := proxies.Origin(r)
	return strings.EqualFold(u.Scheme, scheme) && hostPort(u.Scheme, u.Host) == hostPort(scheme, host)
}

// hostPort returns host lower-cased and without the scheme's default
// port, so that "Example.org:443" over https is "example.org": browsers
// leave the default port out of Origin, and a Host header may carry it.
func hostPort(scheme, host string) string {
	host = strings.ToLower(host)
	switch strings.ToLower(scheme) {
	case "https":
		host = strings.TrimSuffix(host, ":443")
	case "http":
		host = strings.TrimSuffix(host, ":80")
	}
	return host
}
