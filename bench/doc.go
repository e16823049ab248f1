// Package bench measures ptc against the anchors of DESIGN.md §12, each as
// a ratio against a baseline run in the same process:
//
//	tokens    scripted multi-tool tasks on a generated workspace, run with
//	          the standard preset (one native tool call per step) and the
//	          ptc preset (one run_code program); prompt tokens summed over
//	          every request of each session
//	bash      p50/p99 of the sandboxed bash tool through the tools Runner
//	          (warm pool) against the host's /bin/bash -c
//	run_code  p50 of a trivial program and the cost of one nested call
//	js        the ptc/jsbench workloads (JSON, sorts, Map counting,
//	          regexps, join, stringify, += and template-literal building)
//	          in run_code and in Node, interleaved, results compared
//	eventlog  batched appends into a Badger store and DeriveMessages on a
//	          large synthetic session
//
// Token counts come from the scripted provider's usage, an estimate of
// one token per four bytes of the request JSON (system prompt, tool specs
// and messages); no tokenizer is involved, so the figures compare the
// presets with each other rather than predict a bill.
package bench
