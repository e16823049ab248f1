// Package models is ptc's table of model facts: for each model id its
// provider, context window, largest answer, whether it thinks by default,
// which wire field carries its reasoning, and its prices per million
// tokens (input, cache-hit input, output).
//
// Three readers use it: the OpenAI-compatible adapter (which field the
// reasoning goes back in), the compaction work (how big the window is) and
// every place that shows usage (what it cost):
//
//	tbl, err := models.LoadHome(home)     // built-in table + $PTC_HOME/models.yaml
//	m := tbl.Lookup("deepseek-v4-flash")  // never fails: unknown ids get defaults
//	m.ContextWindow                       // 1048576
//	m.Cost(usage)                         // US dollars, cache hits priced as such
//
// Lookup is pure. An id the table does not know gets DefaultContextWindow
// and no price, and its Model.Notice says so; the caller prints the notice
// once per run (the table cannot know what "once" means to it).
//
// Prices change often; the built-in figures are a snapshot (see
// RATIONALE.md) and models.yaml overrides them field by field.
package models
