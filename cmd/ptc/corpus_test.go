package main

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/ptc-dev/ptc/runtime/llm"
	"github.com/ptc-dev/ptc/runtime/llm/wirecorpus"
	"github.com/ptc-dev/ptc/runtime/session"
	"github.com/ptc-dev/ptc/runtime/session/sessiontest"
)

// TestWireCorpusThroughTheBinary serves every recorded stream of
// ../shared/wire-corpus to the built ptc over loopback, one subtest per
// case, runs the case's turns (the second one with --resume) and checks
// what the case says must come out: exit status, error text, the
// requests the server saw and the answers in the session log.
func TestWireCorpusThroughTheBinary(t *testing.T) {
	wirecorpus.Replay(t, func(t *testing.T, c wirecorpus.Case, url string) wirecorpus.Observed {
		cl := newCLI(t, "PTC_TEST_RETRY_DELAY=1ms")
		var obs wirecorpus.Observed
		id := ""
		for i, turn := range c.Turns {
			args := []string{"run", "--base-url", url, "--model", c.Model, "--approval", "never", "--output", "json"}
			if i > 0 {
				args = append(args, "--resume", id)
			}
			out, errs, code := cl.run(append(args, turn)...)
			obs.Output += out + errs
			var final struct {
				SessionID string `json:"session_id"`
			}
			if json.Unmarshal([]byte(out), &final) == nil && final.SessionID != "" {
				id = final.SessionID
			}
			if code != 0 {
				obs.Exit = code
				break
			}
		}
		if id != "" {
			obs.Messages, obs.Streamed = answers(t, cl.show(id).Events)
		}
		return obs
	})
}

// answers reads a session log as the corpus checks see it: the recorded
// answers, and what each attempt streamed (an attempt ends with its
// assistant/message or its assistant/attempt failure).
func answers(t *testing.T, events []session.Event) (recorded, streamed []wirecorpus.Message) {
	var text, reasoning strings.Builder
	flush := func() {
		streamed = append(streamed, wirecorpus.Message{Content: text.String(), Reasoning: reasoning.String()})
		text.Reset()
		reasoning.Reset()
	}
	for _, e := range events {
		switch e.Type {
		case session.TypeAssistantChunk:
			c := sessiontest.Decode[session.AssistantChunk](t, e).Chunk
			switch c.Kind {
			case llm.ChunkText:
				text.WriteString(c.Text)
			case llm.ChunkReasoning:
				reasoning.WriteString(c.Text)
			}
		case session.TypeAssistantAttempt:
			flush()
		case session.TypeAssistantMessage:
			flush()
			m := sessiontest.Decode[session.AssistantMessage](t, e)
			recorded = append(recorded, wirecorpus.Message{Content: m.Message.Content, Reasoning: m.Message.Reasoning,
				ToolCalls: m.Message.ToolCalls, Finish: string(m.Finish), Usage: m.Usage})
		}
	}
	return recorded, streamed
}
