package openai

import (
	"encoding/json"
	"strings"

	"github.com/ptc-dev/ptc/runtime/llm"
	"github.com/ptc-dev/ptc/runtime/llm/models"
)

// emptySchema stands in for a tool without parameters: servers reject a
// function whose parameters are missing.
var emptySchema = json.RawMessage(`{"type":"object","properties":{}}`)

// wireRequest is the chat-completions request body. It is our own type,
// not go-openai's, because three things must survive encoding that
// go-openai's omitempty tags drop: temperature 0, an empty
// reasoning_content on a tool-call turn, and the choice of reasoning field.
type wireRequest struct {
	Model               string             `json:"model"`
	Messages            []wireMessage      `json:"messages"`
	Tools               []wireTool         `json:"tools,omitempty"`
	Stream              bool               `json:"stream"`
	StreamOptions       *wireStreamOptions `json:"stream_options,omitempty"`
	Temperature         *float64           `json:"temperature,omitempty"`
	MaxTokens           int                `json:"max_tokens,omitempty"`
	MaxCompletionTokens int                `json:"max_completion_tokens,omitempty"`
}

type wireStreamOptions struct {
	IncludeUsage bool `json:"include_usage"`
}

// wireMessage is one message. Content is omitted only on an assistant
// message that carries tool calls and no text; the reasoning fields are
// pointers so that "" is sent when it must be.
type wireMessage struct {
	Role             string         `json:"role"`
	Content          *string        `json:"content,omitempty"`
	ReasoningContent *string        `json:"reasoning_content,omitempty"`
	Reasoning        *string        `json:"reasoning,omitempty"`
	ToolCalls        []wireToolCall `json:"tool_calls,omitempty"`
	ToolCallID       string         `json:"tool_call_id,omitempty"`
}

type wireToolCall struct {
	ID       string       `json:"id"`
	Type     string       `json:"type"`
	Function wireFunction `json:"function"`
}

type wireFunction struct {
	Name      string `json:"name"`
	Arguments string `json:"arguments"`
}

type wireTool struct {
	Type     string          `json:"type"`
	Function wireFunctionDef `json:"function"`
}

type wireFunctionDef struct {
	Name        string          `json:"name"`
	Description string          `json:"description,omitempty"`
	Parameters  json.RawMessage `json:"parameters"`
}

// wireOptions are the per-server choices toWire needs besides the
// request: which field reasoning goes back in ("" for none) and whether
// the server accepts stream_options.
type wireOptions struct {
	reasoningField string
	noStreamUsage  bool
}

// toWire maps a provider-neutral request to a streaming chat-completions
// request. System text becomes the first message; tool schemas travel as
// raw bytes so nothing is lost in a decode/encode round trip.
func toWire(req llm.Request, model string, o wireOptions) wireRequest {
	w := wireRequest{Model: model, Stream: true, Temperature: req.Options.Temperature}
	if !o.noStreamUsage {
		w.StreamOptions = &wireStreamOptions{IncludeUsage: true}
	}
	if usesCompletionTokens(model) {
		w.MaxCompletionTokens = req.Options.MaxTokens
	} else {
		w.MaxTokens = req.Options.MaxTokens
	}
	msgs := orderToolResults(req.Messages)
	w.Messages = make([]wireMessage, 0, len(msgs)+1)
	if req.System != "" {
		w.Messages = append(w.Messages, wireMessage{Role: "system", Content: &req.System})
	}
	for i := range msgs {
		w.Messages = append(w.Messages, wireMsg(&msgs[i], o.reasoningField))
	}
	for _, t := range req.Tools {
		params := t.Parameters
		if len(params) == 0 {
			params = emptySchema
		}
		w.Tools = append(w.Tools, wireTool{Type: "function",
			Function: wireFunctionDef{Name: t.Name, Description: t.Description, Parameters: params}})
	}
	return w
}

// wireMsg maps one message. Reasoning goes back only on assistant messages
// that carry tool calls, and only in a field the server is known to read
// (reasoningField): DeepSeek's thinking mode requires it there, even
// empty, and strict servers reject fields they do not know.
func wireMsg(m *llm.Message, reasoningField string) wireMessage {
	w := wireMessage{Role: string(m.Role), Content: &m.Content}
	switch m.Role {
	case llm.RoleAssistant:
		if len(m.ToolCalls) == 0 {
			break
		}
		if m.Content == "" {
			w.Content = nil
		}
		w.ToolCalls = make([]wireToolCall, len(m.ToolCalls))
		for i, c := range m.ToolCalls {
			w.ToolCalls[i] = wireToolCall{ID: c.ID, Type: "function", Function: wireFunction{Name: c.Name, Arguments: c.Arguments}}
		}
		switch reasoningField {
		case models.ReasoningContent:
			w.ReasoningContent = &m.Reasoning
		case models.Reasoning:
			w.Reasoning = &m.Reasoning
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
