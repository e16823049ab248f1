// Package compact keeps long sessions inside the model's context window,
// with every change recorded in the session log so that each request is
// still a pure function of the log.
//
//	before each request (Manager.Fit):
//	  meter: tokens = provider's count of the previous request
//	                + local estimate of what changed since
//	  over threshold (0.8 × window)?
//	    prune: old tool results > 8 192 chars → head 4 096 + marker + tail 1 024,
//	           oldest first, never the latest steps; one tool/pruned event each;
//	           stop once under the threshold
//	    still over? compact:
//	      compaction/start
//	      side request = the session's own request (system, tools, messages
//	                     unchanged: the provider's prefix cache serves it)
//	                     + the summary instruction as one more user message
//	      compaction/summary (span, token counts, usage, raw output)
//	      user/message{replaces: span} = the summary (+ latest todo list)
//	      … more passes when the span does not fit one side request …
//	      compaction/end
//	  still over the window? refuse to send, say why
//
// The verbatim tail (0.16 × window) is cut on step boundaries, so a tool
// call never loses its result. A summary that does not shrink its span is
// rejected and retried once; a second failure ends the compaction with a
// clear error and changes nothing on the surface. The original events are
// never removed: DeriveMessages applies the replacements (see
// session.Surface).
//
// The package knows nothing of wasm or JavaScript; it speaks llm, prompt
// and session only.
package compact
