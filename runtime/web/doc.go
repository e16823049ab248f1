// Package web is what the web_fetch and web_search tools stand on: a
// fetcher that reaches only the public internet and a search seam with
// one backend per service (SearXNG, Brave Search, Tavily), so the tools'
// schemas never change with the backend.
//
// Fetch is HTTP(S) GET only, with redirects, time and size capped. Every
// connection — the first and every redirect's, after DNS — is checked by
// the dialer against the address it actually reaches: loopback, private,
// link-local, CGNAT, multicast and unspecified addresses are refused
// unless Config.AllowPrivate, so a page (or a DNS name pointing home)
// cannot make the agent reach the user's own services. No proxy from the
// environment is used: a proxy would hide the address from that check.
//
// HTML becomes markdown (github.com/JohannesKaufmann/html-to-markdown),
// text and JSON stay as they are, anything else is refused as binary.
// The text is cleaned of characters that can drive a terminal or reorder
// text (Clean) before it reaches the model or a screen.
//
// Search backends are configured by environment variables or the web
// section of $PTC_HOME/settings.json (never the project's: a repository
// must not choose where the agent's queries go or open the local
// network); the environment wins.
package web
