package llm

import "strings"

// SummaryRequestTag opens the instruction that ends a compaction side
// request (see runtime/compact): the session's own request replayed, plus
// one user message starting with this line. It lets a backend that has to
// tell such a request apart — the scripted provider answers it from its
// summary replies — do so from the request alone, as a real model would
// read it.
const SummaryRequestTag = "[ptc: summary request]"

// IsSummaryRequest reports whether req is a compaction side request: its
// last message is a user message that starts with SummaryRequestTag.
func IsSummaryRequest(req Request) bool {
	n := len(req.Messages)
	return n > 0 && req.Messages[n-1].Role == RoleUser && strings.HasPrefix(req.Messages[n-1].Content, SummaryRequestTag)
}
