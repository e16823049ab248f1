package serve

import (
	_ "embed"
	"net/http"
)

// openAPI documents the API (OpenAPI 3.1). TestOpenAPIMatchesTheRoutes
// holds it to routes().
//
//go:embed openapi.json
var openAPI []byte

func serveOpenAPI(w http.ResponseWriter, _ *http.Request) {
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Cache-Control", "no-store")
	_, _ = w.Write(openAPI)
}
