package serve

import (
	"net/http"
	"strings"
	"testing"
)

func TestTheFence(t *testing.T) {
	f := newFixture(t)
	host := strings.TrimPrefix(f.http.URL, "http://")
	cases := []struct {
		name   string
		method string
		path   string
		body   any
		hdr    []string
		want   int
	}{
		{"a request without the token is refused", "GET", "/v1/sessions", nil, []string{"Authorization", ""}, 401},
		{"a wrong token is refused", "GET", "/v1/sessions", nil, []string{"Authorization", "Bearer " + strings.Repeat("x", 48)}, 401},
		{"a token of the wrong scheme is refused", "GET", "/v1/sessions", nil, []string{"Authorization", "Basic " + testToken}, 401},
		{"the token in the cookie is taken", "GET", "/v1/sessions", nil, []string{"Authorization", "", "Cookie", CookieName + "=" + testToken}, 200},
		{"the token as a bearer is taken", "GET", "/v1/sessions", nil, nil, 200},
		{"a foreign Host is refused (DNS rebinding)", "GET", "/v1/sessions", nil, []string{"Host", "attacker.example:" + strings.Split(host, ":")[1]}, 421},
		{"localhost is a loopback name", "GET", "/v1/sessions", nil, []string{"Host", "localhost:1"}, 200},
		{"the IPv6 loopback is too", "GET", "/v1/sessions", nil, []string{"Host", "[::1]:1"}, 200},
		{"a POST from a foreign origin is refused", "POST", "/v1/sessions", map[string]any{}, []string{"Origin", "http://attacker.example"}, 403},
		{"a POST from a null origin is refused", "POST", "/v1/sessions", map[string]any{}, []string{"Origin", "null"}, 403},
		{"a POST a browser calls cross-site is refused", "POST", "/v1/sessions", map[string]any{}, []string{"Sec-Fetch-Site", "cross-site"}, 403},
		{"a DELETE from a foreign origin is refused", "DELETE", "/v1/sessions/x", nil, []string{"Origin", "http://127.0.0.1:1"}, 403},
		{"a POST from the server's own origin passes the fence", "POST", "/v1/sessions", map[string]any{}, []string{"Origin", "http://" + host}, 400},
		{"a form body is refused", "POST", "/v1/sessions", map[string]any{}, []string{"Content-Type", "text/plain"}, 415},
		{"a preflight is refused: no CORS", "OPTIONS", "/v1/sessions", nil, []string{"Origin", "http://attacker.example", "Access-Control-Request-Method", "POST"}, 405},
		{"an unknown endpoint is 404", "GET", "/v1/nothing", nil, nil, 404},
		{"the page needs the token too", "GET", "/", nil, []string{"Authorization", ""}, 401},
		{"a wrong token in the URL is refused", "GET", "/?token=nope", nil, []string{"Authorization", ""}, 401},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			code, body := f.do(c.method, c.path, c.body, c.hdr...)
			if code != c.want {
				t.Fatalf("%s %s = %d, want %d: %s", c.method, c.path, code, c.want, body)
			}
		})
	}
	t.Run("no answer carries CORS headers", func(t *testing.T) {
		req, _ := http.NewRequest("GET", f.http.URL+"/v1/sessions", nil)
		req.Header.Set("Authorization", "Bearer "+testToken)
		req.Header.Set("Origin", "http://attacker.example")
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		for k := range resp.Header {
			if strings.HasPrefix(strings.ToLower(k), "access-control") {
				t.Fatalf("answer has %s", k)
			}
		}
		if resp.Header.Get("Content-Security-Policy") == "" || resp.Header.Get("X-Frame-Options") != "DENY" {
			t.Fatalf("security headers missing: %v", resp.Header)
		}
	})
	t.Run("a body over the cap is refused", func(t *testing.T) {
		code, body := f.do("POST", "/v1/sessions", map[string]any{"workspace": strings.Repeat("x", maxBody)})
		if code != 400 || !strings.Contains(string(body), "over") {
			t.Fatalf("= %d %s", code, body)
		}
	})
	t.Run("the token in the URL becomes an HttpOnly SameSite=Strict cookie", func(t *testing.T) {
		client := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
		resp, err := client.Get(f.http.URL + "/?token=" + testToken)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		var c *http.Cookie
		for _, x := range resp.Cookies() {
			if x.Name == CookieName {
				c = x
			}
		}
		if resp.StatusCode != 200 || c == nil || !c.HttpOnly || c.SameSite != http.SameSiteStrictMode || c.Value != testToken {
			t.Fatalf("status %d, cookie %+v", resp.StatusCode, c)
		}
		if !strings.Contains(resp.Header.Get("Cache-Control"), "no-store") {
			t.Fatalf("the token page may be cached: %v", resp.Header)
		}
	})
}

func TestHostAllowed(t *testing.T) {
	g := newGuard(testToken, []string{"Box.Example."}, "192.168.1.5:4517")
	for host, want := range map[string]bool{
		"127.0.0.1:4517": true, "127.9.9.9": true, "localhost": true, "LOCALHOST:1": true, "app.localhost:2": true,
		"[::1]:4517": true, "box.example:4517": true, "box.example.": true, "192.168.1.5:4517": true,
		"192.168.1.6:4517": false, "evil.example": false, "localhost.evil.example": false, "": false, "[::2]:1": false,
	} {
		if got := g.hostAllowed(host); got != want {
			t.Errorf("hostAllowed(%q) = %v, want %v", host, got, want)
		}
	}
	if g2 := newGuard(testToken, nil, "0.0.0.0:4517"); g2.hostAllowed("0.0.0.0:4517") {
		t.Error("an unspecified bind address must not be an allowed host")
	}
}

func TestTokenCompare(t *testing.T) {
	g := newGuard(testToken, nil, "")
	for tok, want := range map[string]bool{testToken: true, "": false, testToken[:47]: false, testToken + "0": false} {
		if got := g.tokenOK(tok); got != want {
			t.Errorf("tokenOK(%q) = %v", tok, got)
		}
	}
}
