// Package structured makes a session's final answer a JSON value valid
// against a JSON Schema: the schema's rules (Parse), the structured_output
// system prompt section that tells the model (Section), the check of an
// answer (Check) and the follow-up that gives the model one more chance
// with the validation error (RetryPrompt).
//
// One mechanism serves both users: a workflow's agent({schema}) children
// and `ptc run --output-schema FILE`. The runner of the turn (harness)
// does the retry; this package holds no session.
package structured
