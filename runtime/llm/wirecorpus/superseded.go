package wirecorpus

// superseded lists the cases whose file records the behaviour issue #9
// changes rather than the behaviour it asks for. Each fix edits the case
// in memory (the corpus itself is read-only and shared) and returns why.
var superseded = map[string]func(*Case) string{
	// The file expects the 422 to end the run after one request ("ptc
	// always sends stream_options"). Issue #9 asks that stream_options be
	// dropped when a server rejects it, so ptc asks again at once without
	// it: the run needs a second reply and succeeds.
	"mistral-422-stream-options": func(c *Case) string {
		c.Replies = append(c.Replies, Reply{File: "../transcripts/openai-gpt4o-after-tool.sse"})
		zero, yes, no := 0, true, false
		content := "POST_TOOL"
		c.Expect = Expect{Exit: &zero, RequestCount: 2,
			Messages: []MessageExpect{{Content: &content}},
			Requests: []RequestExpect{{N: 1, StreamOptions: &yes}, {N: 2, StreamOptions: &no}}}
		return "issue #9: a rejected stream_options is dropped and the request sent again; " +
			"the file's exit 1 after one request is the behaviour before the fix"
	},
}
