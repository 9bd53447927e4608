package account

import (
	"net/http"
	"net/url"
	"strings"

	"tapis/api"
	"tapis/limit"
)

// SameOrigin refuses, with 403 {"code": "cross_site"}, a request that
// changes state (any method but GET, HEAD and OPTIONS) sent by a page of
// another site, and passes every other request to next. The session
// cookie's SameSite=Lax keeps it off most such requests already; this is
// the second lock, for browsers that ignore SameSite and for a sibling
// subdomain, which SameSite counts as the same site.
//
// The check is the standard library's (http.CrossOriginProtection): the
// browser's Sec-Fetch-Site when it sends one, else the Origin header's
// host against the Host header; a request with neither comes from a
// program, not a page, and no cookie of a victim's rides on it. Behind a
// trusted proxy the Host header may be the proxy's own name: a request
// without Sec-Fetch-Site whose Origin is the site's as the proxy forwards
// it (limit.Proxies.Origin) passes too.
func SameOrigin(proxies limit.Proxies, next http.Handler) http.Handler {
	cop := http.NewCrossOriginProtection()
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if err := cop.Check(r); err != nil && !forwardedOrigin(proxies, r) {
			api.Error(w, http.StatusForbidden, api.CodeCrossSite, "account: refused a request sent from another site")
			return
		}
		next.ServeHTTP(w, r)
	})
}

// forwardedOrigin reports whether r, without Sec-Fetch-Site, has exactly
// one Origin and it is the site's origin as a trusted proxy forwards it.
func forwardedOrigin(proxies limit.Proxies, r *http.Request) bool {
	origins := r.Header.Values("Origin")
	if r.Header.Get("Sec-Fetch-Site") != "" || len(origins) != 1 {
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
