package mcp

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/ptc-dev/ptc/internal/clip"
	"github.com/ptc-dev/ptc/runtime/tools"
)

// maxErrorText caps the message of a tool's isError result.
const maxErrorText = 4000

// callResult is a tools/call result as raw JSON parts.
type callResult struct {
	Content           []json.RawMessage `json:"content"`
	StructuredContent json.RawMessage   `json:"structuredContent,omitempty"`
	IsError           bool              `json:"isError,omitempty"`
}

type contentPart struct {
	Type string `json:"type"`
	Text string `json:"text"`
}

// resultValue turns a tools/call result into the value a program
// receives (the registry then validates it against the output schema):
//   - isError: a tool failure (ToolCallError in a program) with the text;
//   - structuredContent: that value — from the text part when one holds
//     the same JSON, which keeps the server's member order;
//   - one content part: text that parses as JSON is that JSON, other text
//     a string, any other part (image, audio, resource) its MCP object;
//   - several parts: an array of those values; none: null.
func resultValue(raw json.RawMessage) (any, error) {
	var r callResult
	if err := json.Unmarshal(raw, &r); err != nil {
		return nil, tools.Errorf(tools.CodeInvalidToolOutput, "the MCP server sent a tools/call result that is not valid: %v", err)
	}
	if r.IsError {
		return nil, tools.Errorf(tools.CodeToolFailed, "%s", errorText(r.Content))
	}
	if s := bytes.TrimSpace(r.StructuredContent); len(s) > 0 && !bytes.Equal(s, []byte("null")) {
		for _, p := range r.Content {
			if v, ok := partValue(p).(json.RawMessage); ok && jsonEqual(v, s) {
				return v, nil
			}
		}
		return json.RawMessage(s), nil
	}
	switch len(r.Content) {
	case 0:
		return nil, nil
	case 1:
		return partValue(r.Content[0]), nil
	}
	parts := make([]any, len(r.Content))
	for i, p := range r.Content {
		parts[i] = partValue(p)
	}
	return parts, nil
}

// partValue is one content part as a value: JSON text as raw JSON, other
// text as a string, other parts as their object.
func partValue(p json.RawMessage) any {
	var c contentPart
	if json.Unmarshal(p, &c) != nil || c.Type != "text" {
		return json.RawMessage(p)
	}
	t := strings.TrimSpace(c.Text)
	if t != "" && json.Valid([]byte(t)) {
		return json.RawMessage(t)
	}
	return c.Text
}

func jsonEqual(a, b json.RawMessage) bool {
	var x, y any
	if json.Unmarshal(a, &x) != nil || json.Unmarshal(b, &y) != nil {
		return false
	}
	ja, _ := json.Marshal(x) // maps marshal with sorted keys: a canonical form
	jb, _ := json.Marshal(y)
	return bytes.Equal(ja, jb)
}

// errorText joins the text parts of a failed result.
func errorText(content []json.RawMessage) string {
	var texts []string
	for _, p := range content {
		var c contentPart
		if json.Unmarshal(p, &c) == nil && c.Type == "text" && c.Text != "" {
			texts = append(texts, c.Text)
		}
	}
	msg := strings.Join(texts, "\n")
	if msg == "" {
		return "the tool reported an error without a message"
	}
	return clip.String(msg, maxErrorText)
}

// render is the text the model reads for a value (under native
// presentation, or a program's return): strings as they are, JSON
// indented in the server's member order, and the base64 data of images
// and audio replaced by its size.
func render(value any) string {
	switch v := value.(type) {
	case nil:
		return "null"
	case string:
		return v
	case json.RawMessage:
		return renderJSON(v)
	case []any:
		parts := make([]string, len(v))
		for i, p := range v {
			parts[i] = render(p)
		}
		return strings.Join(parts, "\n\n")
	}
	return tools.RenderValue(value)
}

func renderJSON(raw json.RawMessage) string {
	var media struct {
		Type     string `json:"type"`
		MimeType string `json:"mimeType"`
		Data     string `json:"data"`
	}
	if json.Unmarshal(raw, &media) == nil && (media.Type == "image" || media.Type == "audio") && media.Data != "" {
		return fmt.Sprintf("[%s %s, %d bytes of base64 data]", media.Type, media.MimeType, len(media.Data))
	}
	var b bytes.Buffer
	if json.Indent(&b, raw, "", "  ") != nil {
		return string(raw)
	}
	return b.String()
}
