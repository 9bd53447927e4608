package push

import (
	"net/url"
	"testing"
)

// By default the server pushes only to https URLs of named hosts: not to
// its own network for a stranger who subscribed an address of it.
func TestPublicHTTPS(t *testing.T) {
	for in, want := range map[string]bool{
		"https://fcm.googleapis.com/fcm/send/abc":     true,
		"https://updates.push.services.mozilla.com/x": true,
		"http://fcm.googleapis.com/fcm/send/abc":      false,
		"https://127.0.0.1/x":                         false,
		"https://[::1]:8443/x":                        false,
		"https://10.0.0.7/x":                          false,
		"https://localhost/x":                         false,
		"https://db.localhost/x":                      false,
		"https://user:pw@push.example/x":              false,
		"file:///etc/passwd":                          false,
	} {
		u, err := url.Parse(in)
		if err != nil {
			t.Fatal(err)
		}
		if got := publicHTTPS(u); got != want {
			t.Errorf("%s: %v, want %v", in, got, want)
		}
	}
}

// The default client connects to public addresses only, whatever name
// led there.
func TestPublicOnly(t *testing.T) {
	for addr, ok := range map[string]bool{
		"142.250.74.10:443": true, "[2a00:1450:4007:80c::200a]:443": true,
		"127.0.0.1:443": false, "[::1]:443": false, "10.1.2.3:443": false, "192.168.1.1:443": false,
		"172.16.0.1:443": false, "169.254.169.254:80": false, "[fe80::1]:443": false, "[fd00::1]:443": false,
		"0.0.0.0:443": false, "[::ffff:127.0.0.1]:443": false,
	} {
		if err := publicOnly("tcp", addr, nil); (err == nil) != ok {
			t.Errorf("%s: %v", addr, err)
		}
	}
}
