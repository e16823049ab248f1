package session

// Web events: one per web_fetch and per web_search call, whatever its
// outcome, so the log shows every page the agent read and every query
// that left the machine.
var (
	TypeWebFetch  = eventType("web/fetch")
	TypeWebSearch = eventType("web/search")
)

// WebFetch is the data of web/fetch. Error is set when the fetch failed
// or was refused (a private address, a binary body).
type WebFetch struct {
	CallID      string `json:"callId,omitempty"`
	URL         string `json:"url"`
	FinalURL    string `json:"finalUrl,omitempty"`
	Status      int    `json:"status,omitempty"`
	ContentType string `json:"contentType,omitempty"`
	Bytes       int    `json:"bytes"`
	Truncated   bool   `json:"truncated,omitempty"`
	Error       string `json:"error,omitempty"`
	DurationMs  int64  `json:"durationMs"`
}

// WebSearch is the data of web/search: the backend asked, the queries
// sent and how many results came back in all.
type WebSearch struct {
	CallID     string   `json:"callId,omitempty"`
	Backend    string   `json:"backend,omitempty"`
	Queries    []string `json:"queries"`
	Results    int      `json:"results"`
	Error      string   `json:"error,omitempty"`
	DurationMs int64    `json:"durationMs"`
}
