package server

import "testing"

// A table's creator is stored as its limit key; its network is read back
// from it, for the budgets a network shares (Limits.NetTables and
// NetWaiting).
func TestNetworkOfACreatorKey(t *testing.T) {
	for key, want := range map[string]string{
		"203.0.113.7":       "203.0.113.0/24",
		"2001:db8:1:2::/64": "2001:db8:1::/48",
		"queue":             "",
		"":                  "",
	} {
		if got := networkOf(key); got != want {
			t.Errorf("networkOf(%q) = %q, want %q", key, got, want)
		}
	}
}
