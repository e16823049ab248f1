package llm

import "strings"

// TitleRequestTag opens the one message of a title side request (see
// runtime/title), as SummaryRequestTag opens a summary request's: a
// backend that answers such requests apart (the scripted provider) tells
// them from the request alone.
const TitleRequestTag = "[ptc: title request]"

// IsTitleRequest reports whether req is a title side request: its last
// message is a user message that starts with TitleRequestTag.
func IsTitleRequest(req Request) bool {
	n := len(req.Messages)
	return n > 0 && req.Messages[n-1].Role == RoleUser && strings.HasPrefix(req.Messages[n-1].Content, TitleRequestTag)
}
