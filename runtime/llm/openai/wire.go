package openai

import (
	"encoding/json"
	"strings"

	goopenai "github.com/sashabaranov/go-openai"

	"github.com/ptc-dev/ptc/runtime/llm"
)

// emptySchema stands in for a tool without parameters: servers reject a
// function whose parameters are missing.
var emptySchema = json.RawMessage(`{"type":"object","properties":{}}`)

// toWire maps a provider-neutral request to a streaming chat-completions
// request. System text becomes the first message; tool schemas travel as
// raw bytes so nothing is lost in a decode/encode round trip.
func toWire(req llm.Request, defaultModel string) goopenai.ChatCompletionRequest {
	model := req.Model
	if model == "" {
		model = defaultModel
	}
	w := goopenai.ChatCompletionRequest{
		Model:         model,
		Stream:        true,
		StreamOptions: &goopenai.StreamOptions{IncludeUsage: true},
	}
	if usesCompletionTokens(model) {
		w.MaxCompletionTokens = req.Options.MaxTokens
	} else {
		w.MaxTokens = req.Options.MaxTokens
	}
	if t := req.Options.Temperature; t != nil {
		w.Temperature = float32(*t)
	}
	if req.System != "" {
		w.Messages = append(w.Messages, goopenai.ChatCompletionMessage{Role: goopenai.ChatMessageRoleSystem, Content: req.System})
	}
	for _, m := range orderToolResults(req.Messages) {
		w.Messages = append(w.Messages, wireMessage(m))
	}
	for _, t := range req.Tools {
		params := t.Parameters
		if len(params) == 0 {
			params = emptySchema
		}
		w.Tools = append(w.Tools, goopenai.Tool{
			Type:     goopenai.ToolTypeFunction,
			Function: &goopenai.FunctionDefinition{Name: t.Name, Description: t.Description, Parameters: params},
		})
	}
	return w
}

// wireMessage maps one message. Reasoning goes back only on assistant
// messages that carry tool calls: DeepSeek requires it inside a tool-call
// turn and other servers never produced it.
func wireMessage(m llm.Message) goopenai.ChatCompletionMessage {
	w := goopenai.ChatCompletionMessage{Role: string(m.Role), Content: m.Content}
	switch m.Role {
	case llm.RoleAssistant:
		for _, c := range m.ToolCalls {
			w.ToolCalls = append(w.ToolCalls, goopenai.ToolCall{
				ID:       c.ID,
				Type:     goopenai.ToolTypeFunction,
				Function: goopenai.FunctionCall{Name: c.Name, Arguments: c.Arguments},
			})
		}
		if len(m.ToolCalls) > 0 {
			w.ReasoningContent = m.Reasoning
		}
	case llm.RoleTool:
		w.ToolCallID = m.ToolCallID
	}
	return w
}

// orderToolResults moves the tool results answering an assistant message's
// calls to directly after it, ahead of any other message that slipped in
// between (servers reject anything else). Everything else keeps its order;
// a well-formed history comes back unchanged.
func orderToolResults(msgs []llm.Message) []llm.Message {
	out := make([]llm.Message, 0, len(msgs))
	for i := 0; i < len(msgs); i++ {
		m := msgs[i]
		out = append(out, m)
		if m.Role != llm.RoleAssistant || len(m.ToolCalls) == 0 {
			continue
		}
		ids := make(map[string]bool, len(m.ToolCalls))
		for _, c := range m.ToolCalls {
			ids[c.ID] = true
		}
		end := i + 1
		for end < len(msgs) && msgs[end].Role != llm.RoleAssistant {
			end++
		}
		var rest []llm.Message
		for _, n := range msgs[i+1 : end] {
			if n.Role == llm.RoleTool && ids[n.ToolCallID] {
				out = append(out, n)
			} else {
				rest = append(rest, n)
			}
		}
		out = append(out, rest...)
		i = end - 1
	}
	return out
}

// usesCompletionTokens reports OpenAI reasoning models, which refuse
// max_tokens and take max_completion_tokens instead; every other
// compatible server (DeepSeek, vLLM, Ollama) knows max_tokens.
func usesCompletionTokens(model string) bool {
	for _, p := range []string{"o1", "o3", "o4", "gpt-5"} {
		if strings.HasPrefix(model, p) {
			return true
		}
	}
	return false
}
