package serve

import (
	"embed"
	"io/fs"
	"net/http"
)

// The web UI: plain HTML, CSS and JavaScript of our own, embedded, so
// nothing is built or fetched at run time.
//
//go:embed web
var webFiles embed.FS

// webAssets are the files served besides the page itself.
var webAssets = map[string]bool{"/app.js": true, "/markdown.js": true, "/app.css": true, "/icon.svg": true}

// webHandler serves the page at / and its assets; anything else is 404.
// The page's routes live in the URL fragment (#/s/ID), so the server has
// one page to serve.
func webHandler() (http.Handler, error) {
	sub, err := fs.Sub(webFiles, "web")
	if err != nil {
		return nil, err
	}
	files := http.FileServerFS(sub)
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Cache-Control", "no-cache")
		switch {
		case r.URL.Path == "/":
			http.ServeFileFS(w, r, sub, "index.html")
		case webAssets[r.URL.Path]:
			files.ServeHTTP(w, r)
		default:
			http.NotFound(w, r)
		}
	}), nil
}
