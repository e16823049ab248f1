package wirecorpus

import (
	"context"
	"strings"

	"github.com/ptc-dev/ptc/runtime/llm"
)

// Drive plays the case's turns against p the way the agent loop does, with
// no tools: each user turn is sent; a failed attempt is tried again while
// llm.DefaultRetryPolicy allows it (without waiting); an answer with tool
// calls gets an UNKNOWN_TOOL error result per call and the next request.
// Requests are left for the caller to fill in from the server.
func Drive(ctx context.Context, c Case, p llm.Provider) Observed {
	var obs Observed
	var history []llm.Message
	for _, turn := range c.Turns {
		history = append(history, llm.Message{Role: llm.RoleUser, Content: turn})
		for {
			resp, err := attempts(ctx, c, p, history, &obs)
			if err != nil {
				obs.Exit, obs.Output = 1, err.Error()
				return obs
			}
			m := resp.Message
			obs.Messages = append(obs.Messages, Message{Content: m.Content, Reasoning: m.Reasoning,
				ToolCalls: m.ToolCalls, Finish: string(resp.Finish), Usage: resp.Usage})
			history = append(history, m)
			if len(m.ToolCalls) == 0 || resp.Finish != llm.FinishToolCalls {
				break
			}
			for _, call := range m.ToolCalls {
				history = append(history, llm.Message{Role: llm.RoleTool, ToolCallID: call.ID, Name: call.Name,
					Content: "Error: UNKNOWN_TOOL: there is no tool named " + call.Name})
			}
		}
	}
	return obs
}

func attempts(ctx context.Context, c Case, p llm.Provider, history []llm.Message, obs *Observed) (*llm.Response, error) {
	policy := llm.DefaultRetryPolicy()
	for n := 1; ; n++ {
		var text, reasoning strings.Builder
		resp, err := p.Stream(ctx, llm.Request{Model: c.Model, Messages: history}, func(ch llm.Chunk) {
			switch ch.Kind {
			case llm.ChunkText:
				text.WriteString(ch.Text)
			case llm.ChunkReasoning:
				reasoning.WriteString(ch.Text)
			}
		})
		obs.Streamed = append(obs.Streamed, Message{Content: text.String(), Reasoning: reasoning.String()})
		if err == nil {
			return resp, nil
		}
		if _, again := policy.Next(n, err); !again {
			return nil, err
		}
	}
}
