package session

import "github.com/ptc-dev/ptc/runtime/llm"

// TypeTitle records the session's title as the model named it after the
// first turn (see runtime/title): listings show it instead of the first
// line of the first prompt. It never reaches the model.
var TypeTitle = eventType("session/title")

// Title is the data of session/title: the title (one line, sanitised),
// and the side request that produced it, with its usage (folded into the
// session's cost like any other request).
type Title struct {
	Title    string    `json:"title"`
	Provider string    `json:"provider,omitempty"`
	Model    string    `json:"model,omitempty"`
	Usage    llm.Usage `json:"usage"`
}
