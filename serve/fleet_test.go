package serve

import (
	"slices"
	"testing"
)

// TestFleetServesTheSameAPI holds the fleet front end to Server's
// endpoints, so openapi.json (held to Server's by
// TestOpenAPIMatchesTheRoutes) documents both.
func TestFleetServesTheSameAPI(t *testing.T) {
	names := func(rs []route) []string {
		var out []string
		for _, r := range rs {
			out = append(out, r.method+" "+r.pattern)
		}
		slices.Sort(out)
		return out
	}
	if a, b := names((&Server{}).routes()), names((&Fleet{}).routes()); !slices.Equal(a, b) {
		t.Fatalf("server:\n  %v\nfleet:\n  %v", a, b)
	}
}
