package openai

import (
	"bytes"
	"encoding/json"
	"strconv"
	"strings"
	"unicode/utf8"
)

// wireChunk is one SSE data payload of a chat-completions stream, with
// every variation real servers send (see the corpus test): usage on any
// chunk, an error object with or without choices, content as a string or
// an array of parts, reasoning as reasoning_content or reasoning.
type wireChunk struct {
	Choices []wireChoice `json:"choices"`
	Usage   *wireUsage   `json:"usage"`
	Error   *wireError   `json:"error"`
}

type wireChoice struct {
	Index        int        `json:"index"`
	Delta        wireDelta  `json:"delta"`
	FinishReason *string    `json:"finish_reason"`
	Error        *wireError `json:"error"`
}

type wireDelta struct {
	Content          content         `json:"content"`
	ReasoningContent *string         `json:"reasoning_content"`
	Reasoning        *string         `json:"reasoning"`
	ToolCalls        []wireCallDelta `json:"tool_calls"`
}

type wireCallDelta struct {
	Index    *int   `json:"index"`
	ID       string `json:"id"`
	Function struct {
		Name      string   `json:"name"`
		Arguments argument `json:"arguments"`
	} `json:"function"`
}

type wireUsage struct {
	PromptTokens         int `json:"prompt_tokens"`
	CompletionTokens     int `json:"completion_tokens"`
	PromptCacheHitTokens int `json:"prompt_cache_hit_tokens"`
	PromptTokensDetails  *struct {
		CachedTokens int `json:"cached_tokens"`
	} `json:"prompt_tokens_details"`
	CompletionTokensDetails *struct {
		ReasoningTokens int `json:"reasoning_tokens"`
	} `json:"completion_tokens_details"`
}

// content is delta.content: a string, null, or (Mistral's thinking
// models) an array of parts, each {"type":"text","text":…} or
// {"type":"thinking","thinking":[{"type":"text","text":…}]}. Thinking
// parts become reasoning; parts of other types are ignored.
type content struct {
	text, thinking string
}

func (c *content) UnmarshalJSON(b []byte) error {
	switch {
	case len(b) > 0 && b[0] == '"':
		return unquote(b, &c.text)
	case len(b) > 0 && b[0] == '[':
		var parts []struct {
			Type     string          `json:"type"`
			Text     string          `json:"text"`
			Thinking json.RawMessage `json:"thinking"`
		}
		if err := json.Unmarshal(b, &parts); err != nil {
			return err
		}
		var text, thinking strings.Builder
		for _, p := range parts {
			switch p.Type {
			case "text":
				text.WriteString(p.Text)
			case "thinking":
				thinking.WriteString(partsText(p.Thinking))
			}
		}
		c.text, c.thinking = text.String(), thinking.String()
		return nil
	}
	return nil // null, or a shape no server sends: no content
}

// partsText is the text of a thinking field: a string or an array of text
// parts.
func partsText(raw json.RawMessage) string {
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return s
	}
	var parts []struct {
		Text string `json:"text"`
	}
	_ = json.Unmarshal(raw, &parts)
	var b strings.Builder
	for _, p := range parts {
		b.WriteString(p.Text)
	}
	return b.String()
}

// argument is a tool call's arguments: normally a string of JSON text,
// but some servers send the object itself, which is kept as its JSON text.
type argument string

func (a *argument) UnmarshalJSON(b []byte) error {
	if len(b) > 0 && b[0] == '"' {
		var s string
		err := unquote(b, &s)
		*a = argument(s)
		return err
	}
	if bytes.Equal(b, []byte("null")) {
		*a = ""
		return nil
	}
	*a = argument(b)
	return nil
}

// unquote decodes a JSON string, taking the fast path when it has no
// escapes (the decoder has already checked the syntax) and is valid UTF-8
// (json.Unmarshal would replace bad bytes).
func unquote(b []byte, dst *string) error {
	if inner := b[1 : len(b)-1]; bytes.IndexByte(inner, '\\') < 0 && utf8.Valid(inner) {
		*dst = string(inner)
		return nil
	}
	return json.Unmarshal(b, dst)
}

// wireError is an error object: {"message": …, "type": …, "code": …} (the
// message sometimes an object, the code a string or a number), or a bare
// string.
type wireError struct {
	Message string
	Type    string
	Code    string
}

func (e *wireError) UnmarshalJSON(b []byte) error {
	if len(b) > 0 && b[0] == '"' {
		return json.Unmarshal(b, &e.Message)
	}
	var raw struct {
		Message json.RawMessage `json:"message"`
		Type    string          `json:"type"`
		Code    json.RawMessage `json:"code"`
	}
	if err := json.Unmarshal(b, &raw); err != nil {
		return err
	}
	e.Message, e.Type, e.Code = messageText(raw.Message), raw.Type, messageText(raw.Code)
	if e.Message == "" {
		e.Message = string(b)
	}
	return nil
}

// messageText reads an error message that is a string, or an object such
// as Mistral's {"detail":[{"loc":[…],"msg":…}]}, kept readable.
func messageText(raw json.RawMessage) string {
	if len(raw) == 0 || bytes.Equal(raw, []byte("null")) {
		return ""
	}
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return s
	}
	var d struct {
		Detail json.RawMessage `json:"detail"`
	}
	if json.Unmarshal(raw, &d) == nil && len(d.Detail) > 0 {
		return messageText(d.Detail)
	}
	var items []struct {
		Loc []any  `json:"loc"`
		Msg string `json:"msg"`
	}
	if json.Unmarshal(raw, &items) == nil && len(items) > 0 {
		out := make([]string, 0, len(items))
		for _, item := range items {
			loc := make([]string, 0, len(item.Loc))
			for _, l := range item.Loc {
				loc = append(loc, toString(l))
			}
			out = append(out, strings.Join(loc, ".")+": "+item.Msg)
		}
		return strings.Join(out, "; ")
	}
	return string(raw)
}

func toString(v any) string {
	switch x := v.(type) {
	case string:
		return x
	case float64:
		return strconv.FormatFloat(x, 'f', -1, 64)
	}
	b, _ := json.Marshal(v)
	return string(b)
}
