package serve

import (
	"crypto/sha256"
	"crypto/subtle"
	"net"
	"net/http"
	"net/url"
	"strings"
)

// CookieName is the cookie the web UI keeps the token in (HttpOnly,
// SameSite=Strict), set once from /?token=….
const CookieName = "ptc_token"

// maxBody caps every request body; a prompt larger than this is not a
// prompt. Headers are capped by the http.Server (maxHeader).
const (
	maxBody   = 1 << 20
	maxHeader = 32 << 10
)

// guard is the fence every request passes before any handler: the Host
// header (DNS rebinding), the Origin of state-changing requests (other
// web pages), the bearer token (everyone else), and size caps. There is
// no CORS: no response ever carries Access-Control-* headers, so no other
// origin can read anything, and preflights are refused.
type guard struct {
	digest [sha256.Size]byte // of the token: compared in constant time
	hosts  map[string]bool   // host names allowed besides loopback ones
}

func newGuard(token string, allowHosts []string, bind string) *guard {
	g := &guard{digest: sha256.Sum256([]byte(token)), hosts: map[string]bool{}}
	for _, h := range allowHosts {
		g.hosts[normalHost(h)] = true
	}
	// A server bound to one address is reached at it: that literal is
	// not a name an attacker can rebind.
	if host, _, err := net.SplitHostPort(bind); err == nil {
		if ip := net.ParseIP(host); ip != nil && !ip.IsUnspecified() {
			g.hosts[normalHost(host)] = true
		}
	}
	return g
}

// normalHost lowercases a host name and drops a trailing dot and the
// brackets of an IPv6 literal.
func normalHost(h string) string {
	h = strings.TrimSuffix(strings.ToLower(strings.TrimSpace(h)), ".")
	return strings.TrimSuffix(strings.TrimPrefix(h, "["), "]")
}

// hostAllowed reports whether a Host header names this server: a loopback
// name or address, or one allowed by --allow-host (or the bound address).
func (g *guard) hostAllowed(hostport string) bool {
	host := hostport
	if h, _, err := net.SplitHostPort(hostport); err == nil {
		host = h
	}
	host = normalHost(host)
	if host == "" {
		return false
	}
	if host == "localhost" || strings.HasSuffix(host, ".localhost") || g.hosts[host] {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}

// originAllowed reports whether a state-changing request may proceed: a
// browser names its page in Origin (and Sec-Fetch-Site), which must be
// this server's own; a client without those headers (curl, ptc) is
// judged by its token alone.
func originAllowed(r *http.Request) bool {
	if r.Header.Get("Sec-Fetch-Site") == "cross-site" {
		return false
	}
	o, ok := r.Header["Origin"]
	if !ok {
		return true
	}
	if len(o) != 1 {
		return false
	}
	u, err := url.Parse(o[0])
	if err != nil || u.Scheme != "http" && u.Scheme != "https" || u.Path != "" || u.User != nil {
		return false // "null" (sandboxed frames, file:) lands here too
	}
	return strings.EqualFold(u.Host, r.Host)
}

// tokenOK compares a presented token with the server's in constant time
// (both hashed first, so their lengths do not show either).
func (g *guard) tokenOK(presented string) bool {
	d := sha256.Sum256([]byte(presented))
	return presented != "" && subtle.ConstantTimeCompare(d[:], g.digest[:]) == 1
}

// authorized reports whether r carries the token: as a bearer token, or
// in the UI's cookie.
func (g *guard) authorized(r *http.Request) bool {
	if auth := r.Header.Get("Authorization"); auth != "" {
		scheme, tok, ok := strings.Cut(auth, " ")
		return ok && strings.EqualFold(scheme, "Bearer") && g.tokenOK(strings.TrimSpace(tok))
	}
	c, err := r.Cookie(CookieName)
	return err == nil && g.tokenOK(c.Value)
}

func stateChanging(method string) bool {
	return method != http.MethodGet && method != http.MethodHead
}

// wrap puts the fence in front of next. The token exchange (GET
// /?token=…) is the one request that may come without the token in a
// header or cookie: it is the token.
func (g *guard) wrap(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		h := w.Header()
		h.Set("X-Content-Type-Options", "nosniff")
		h.Set("X-Frame-Options", "DENY")
		h.Set("Referrer-Policy", "no-referrer")
		h.Set("Cross-Origin-Opener-Policy", "same-origin")
		h.Set("Cross-Origin-Resource-Policy", "same-origin")
		h.Set("Content-Security-Policy", contentPolicy)
		if !g.hostAllowed(r.Host) {
			fail(w, http.StatusMisdirectedRequest, "host_not_allowed",
				"this server does not answer to the host "+quote(r.Host)+"; start ptc serve with --allow-host NAME to allow it")
			return
		}
		if r.Method == http.MethodOptions {
			fail(w, http.StatusMethodNotAllowed, "no_cors", "ptc serve does not answer cross-origin requests")
			return
		}
		if stateChanging(r.Method) && !originAllowed(r) {
			fail(w, http.StatusForbidden, "origin_not_allowed", "requests from another origin may not change anything here")
			return
		}
		if r.URL.Path == "/" && r.URL.Query().Has("token") {
			g.exchange(w, r)
			return
		}
		if !g.authorized(r) {
			unauthorized(w, r)
			return
		}
		if stateChanging(r.Method) {
			if ct := r.Header.Get("Content-Type"); ct != "" && !strings.HasPrefix(strings.ToLower(ct), "application/json") {
				fail(w, http.StatusUnsupportedMediaType, "json_only", "request bodies are JSON (Content-Type: application/json)")
				return
			}
		}
		r.Body = http.MaxBytesReader(w, r.Body, maxBody)
		next.ServeHTTP(w, r)
	})
}

// contentPolicy lets the UI load only its own embedded files and talk
// only to this server; no inline script can run, whatever text slips
// into the page.
const contentPolicy = "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; " +
	"font-src 'self'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'"

// exchange turns /?token=… into the UI's cookie. It answers with a page
// that moves on to / by itself (a meta refresh, no script) instead of a
// redirect: a link followed from another site is a cross-site navigation,
// and a SameSite=Strict cookie is withheld along its redirects, but not
// from a navigation this page starts.
func (g *guard) exchange(w http.ResponseWriter, r *http.Request) {
	tok := r.URL.Query().Get("token")
	if r.Method != http.MethodGet || !g.tokenOK(tok) {
		unauthorized(w, r)
		return
	}
	http.SetCookie(w, &http.Cookie{
		Name: CookieName, Value: tok, Path: "/", HttpOnly: true, SameSite: http.SameSiteStrictMode,
		Secure: r.TLS != nil, MaxAge: 30 * 24 * 3600,
	})
	w.Header().Set("Cache-Control", "no-store")
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	_, _ = w.Write([]byte(`<!doctype html><meta charset="utf-8"><meta http-equiv="refresh" content="0;url=/"><title>ptc</title><p>Signed in. <a href="/">Open ptc</a></p>`))
}

// unauthorized says what is missing: a page for a browser, JSON for a
// client.
func unauthorized(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("WWW-Authenticate", `Bearer realm="ptc"`)
	if r.URL.Path == "/" && strings.Contains(r.Header.Get("Accept"), "text/html") {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		w.WriteHeader(http.StatusUnauthorized)
		_, _ = w.Write([]byte(`<!doctype html><meta charset="utf-8"><title>ptc</title><p>Open the address <code>ptc serve</code> printed (it ends in <code>?token=…</code>); the token is in <code>$PTC_HOME/serve.token</code>.</p>`))
		return
	}
	fail(w, http.StatusUnauthorized, "unauthorized", "send the token of $PTC_HOME/serve.token as Authorization: Bearer TOKEN")
}
